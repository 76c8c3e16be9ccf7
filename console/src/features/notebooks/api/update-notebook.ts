import { useMutation, useQueryClient } from '@tanstack/react-query';

import { notebookApi, type NotebookAnswer, type NotebookChanges } from '@/features/notebooks/api/contract';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { unwrap } from '@/lib/api-client';

/** PUT /v1/notebook/{id} {notebook} (edit access): name and description; the file keeps its path. */
export function updateNotebook(id: string, notebook: NotebookChanges) {
  return unwrap(notebookApi.PUT('/v1/notebook/{id}', { params: { path: { id } }, body: { notebook } }));
}

export function useUpdateNotebook(options: { onSuccess?: (r: NotebookAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, notebook }: { id: string; notebook: NotebookChanges }) => updateNotebook(id, notebook),
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: notebookKeys.all });
      options.onSuccess?.(r);
    },
  });
}
