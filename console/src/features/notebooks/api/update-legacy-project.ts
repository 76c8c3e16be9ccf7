import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { LegacyProjectAnswer, LegacyProjectChanges, LegacyProjectDetail } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** PUT /v1/projects/{id} {project} (edit access): description, type, size, author, datasets (the name stays). */
export function updateLegacyProject(id: string, project: LegacyProjectChanges) {
  return unwrap(api.PUT('/v1/projects/{id}', { params: { path: { id } }, body: { project } }));
}

export function useUpdateLegacyProject(options: { onSuccess?: (r: LegacyProjectAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, project }: { id: string; project: LegacyProjectChanges }) => updateLegacyProject(id, project),
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r, { id }) => {
      queryClient.setQueryData<LegacyProjectDetail>(notebookKeys.project(id), (old) => (old ? { ...old, project: r.project } : old));
      void queryClient.invalidateQueries({ queryKey: notebookKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
