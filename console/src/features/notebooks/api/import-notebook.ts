import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotebookAnswer, NotebookImportRequest } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v1/notebook/import (edit access on the project): a copy of a notebook the caller can see
 * (`importNotebook`, its id) or of an `.ipynb` file's text (`file`, at most 10 MiB).
 */
export function importNotebook(request: NotebookImportRequest) {
  return unwrap(api.POST('/v1/notebook/import', { body: request }));
}

export function useImportNotebook(options: { onSuccess?: (r: NotebookAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importNotebook,
    // The form shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: notebookKeys.all });
      options.onSuccess?.(r);
    },
  });
}
