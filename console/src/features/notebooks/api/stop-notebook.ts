import { useMutation, useQueryClient } from '@tanstack/react-query';

import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { NotebookDetail } from '@/lib/api/types';

/**
 * POST /v1/notebook/{id}/stop (execute access): stops the project's JupyterLab (its kernels end;
 * what it saved stays in the workspace for the next open).
 */
export function stopNotebook(id: string) {
  return unwrap(api.POST('/v1/notebook/{id}/stop', { params: { path: { id } } }));
}

export function useStopNotebook(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopNotebook,
    onSuccess: (r, id) => {
      queryClient.setQueryData<NotebookDetail>(notebookKeys.notebook(id), (old) => (old ? { ...old, jupyter: r.jupyter } : old));
      // The project page's server state too.
      void queryClient.invalidateQueries({ queryKey: notebookKeys.all });
      options.onSuccess?.();
    },
  });
}
