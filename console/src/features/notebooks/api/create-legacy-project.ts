import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { LegacyProjectAnswer, NewLegacyProjectFields } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/projects {project}: a legacy project with a hosted repository (201 'Project Created Successfully'). */
export function createLegacyProject(project: NewLegacyProjectFields) {
  return unwrap(api.POST('/v1/projects', { body: { project } }));
}

export function useCreateLegacyProject(options: { onSuccess?: (r: LegacyProjectAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLegacyProject,
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: notebookKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
