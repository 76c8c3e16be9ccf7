import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { NewProjectFields, ProjectAnswer } from '@/lib/api/types';

/**
 * POST /v2/projects: without `repo_url` Ludis hosts a new repository with a starter file; with it,
 * "import project" from that remote (needs the user's saved git token).
 */
export function createProject(project: NewProjectFields) {
  return unwrap(api.POST('/v2/projects', { body: { project } }));
}

export function useCreateProject(options: { onSuccess?: (r: ProjectAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    // The dialog shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
