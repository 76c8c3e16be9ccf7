import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { NewProject, ProjectAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

/**
 * POST /v2/projects: without `repo_url` Ludis hosts a new repository with a starter file; with it,
 * "import project" from that remote (needs the user's saved git token).
 */
export function createProject(project: NewProject) {
  return untyped<ProjectAnswer>('POST', '/v2/projects', { body: { project } });
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
