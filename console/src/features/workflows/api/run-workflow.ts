import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import { api, ApiError, unwrap } from '@/lib/api-client';

/** POST /v2/workflows/run/{id} (execute): a manual run now. */
export function runWorkflow(id: string) {
  return unwrap(api.POST('/v2/workflows/run/{id}', { params: { path: { id } } }));
}

export function useRunWorkflow(options: { onSuccess?: (dagRunId: string) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runWorkflow,
    // The page says 'Workflow run failed' itself (spec 001 §8).
    meta: { silent: true },
    onSuccess: (r, id) => {
      void queryClient.invalidateQueries({ queryKey: workflowKeys.runs(id) });
      void queryClient.invalidateQueries({ queryKey: workflowKeys.detail(id) });
      options.onSuccess?.(r.dag_run_id);
    },
    onError: (e, id) => {
      // 409: not ready (unpublished, initializing or broken); the page's status is behind.
      if (e instanceof ApiError && e.status === 409) void queryClient.invalidateQueries({ queryKey: workflowKeys.detail(id) });
      options.onError?.(e);
    },
  });
}
