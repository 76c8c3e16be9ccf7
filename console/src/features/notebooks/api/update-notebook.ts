import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotebookAnswer, NotebookChanges } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** PUT /v1/notebook/{id} {notebook} (edit access): name and description; the file keeps its path. */
export function updateNotebook(id: string, notebook: NotebookChanges) {
  return unwrap(api.PUT('/v1/notebook/{id}', { params: { path: { id } }, body: { notebook } }));
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
