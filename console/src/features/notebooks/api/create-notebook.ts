import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NewNotebookFields, NotebookAnswer } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/notebook {notebook} (edit access): an empty notebook committed to the project's repository. */
export function createNotebook(notebook: NewNotebookFields) {
  return unwrap(api.POST('/v1/notebook', { body: { notebook } }));
}

export function useCreateNotebook(options: { onSuccess?: (r: NotebookAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotebook,
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      // The project's notebooks and every list's count of them.
      void queryClient.invalidateQueries({ queryKey: notebookKeys.all });
      options.onSuccess?.(r);
    },
  });
}
