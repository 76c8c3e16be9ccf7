import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotebookDetail, NotebookOpenAnswer } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v1/notebook/{id}/open (execute access): starts the project's JupyterLab; `iframe` opens
 * the notebook in it once it runs.
 */
export function openNotebook(id: string) {
  return unwrap(api.POST('/v1/notebook/{id}/open', { params: { path: { id } } }));
}

export function useOpenNotebook(options: { onSuccess?: (r: NotebookOpenAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openNotebook,
    // The page shows the refusal itself.
    meta: { silent: true },
    onSuccess: async (r, id) => {
      // A detail asked for before this answer may tell of JupyterLab before it was started: it is
      // dropped, the answer's state goes in, and the detail is asked for again.
      const key = notebookKeys.notebook(id);
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<NotebookDetail>(key, (old) => (old ? { ...old, jupyter: r.jupyter } : old));
      void queryClient.invalidateQueries({ queryKey: key });
      options.onSuccess?.(r);
    },
  });
}
