import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Done } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** DELETE /v1/notebook/{id} (edit access): the row and its file in the repository ('Notebook Deleted!'). */
export function deleteNotebook(id: string) {
  return unwrap(api.DELETE('/v1/notebook/{id}', { params: { path: { id } } }));
}

export function useDeleteNotebook(options: { onSuccess?: (r: Done) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotebook,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: notebookKeys.notebook(id) });
      void queryClient.invalidateQueries({ queryKey: notebookKeys.all });
      options.onSuccess?.(r);
    },
  });
}
