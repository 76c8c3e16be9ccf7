import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotebookCommitAnswer } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** The refusal when JupyterLab does not run (HTTP 409 'Open the notebook first: …'). */
export const NOT_OPEN_CODE = 'notebook_not_open';
/** The refusal when the file changed in git since the notebook was opened (HTTP 409). */
export const STALE_NOTEBOOK_CODE = 'stale_file';

/**
 * POST /v1/notebook/{id}/commit {message} (edit access): the notebook as JupyterLab saved it in
 * the workspace, committed as the caller; `commit: null` with 'Nothing to commit' when unchanged.
 */
export function commitNotebook(id: string, message: string) {
  return unwrap(api.POST('/v1/notebook/{id}/commit', { params: { path: { id } }, body: { message } }));
}

export function useCommitNotebook(options: { onSuccess?: (r: NotebookCommitAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) => commitNotebook(id, message),
    // The commit dialog shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r, { id }) => {
      void queryClient.invalidateQueries({ queryKey: notebookKeys.preview(id) });
      options.onSuccess?.(r);
    },
  });
}
