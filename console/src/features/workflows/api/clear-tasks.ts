import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowsApi } from '@/features/workflows/api/client';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { ClearTasksBody } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/** POST /v2/workflows/clear/{id} {task_ids, dag_run_id, include_downstream} (execute): re-run. */
export function clearTasks({ id, ...body }: ClearTasksBody & { id: string }) {
  return unwrap(workflowsApi.POST('/v2/workflows/clear/{id}', { params: { path: { id } }, body }));
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
