import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import type { ClearRequest } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** POST /v2/workflows/clear/{id} {task_ids, dag_run_id, include_downstream} (execute): re-run. */
export function clearTasks({ id, ...body }: ClearRequest & { id: string }) {
  return unwrap(api.POST('/v2/workflows/clear/{id}', { params: { path: { id } }, body }));
}

export function useClearTasks(options: { onSuccess?: (message: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearTasks,
    onSuccess: (r, v) => {
      void queryClient.invalidateQueries({ queryKey: workflowKeys.runs(v.id) });
      options.onSuccess?.(r.message);
    },
  });
}
