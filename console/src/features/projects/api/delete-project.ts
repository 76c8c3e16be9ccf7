import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { Done } from '@/lib/api/types';

/** DELETE /v2/projects/{id} (edit access). */
export function deleteProject(id: string) {
  return unwrap(api.DELETE('/v2/projects/{id}', { params: { path: { id } } }));
}

export function useDeleteProject(options: { onSuccess?: (r: Done) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(id) });
      queryClient.removeQueries({ queryKey: projectKeys.repo(id) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
