import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Done } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** DELETE /v1/projects/{id} (edit access): 'Project Deleted!'. */
export function deleteLegacyProject(id: string) {
  return unwrap(api.DELETE('/v1/projects/{id}', { params: { path: { id } } }));
}

export function useDeleteLegacyProject(options: { onSuccess?: (r: Done) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLegacyProject,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: notebookKeys.project(id) });
      void queryClient.invalidateQueries({ queryKey: notebookKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
