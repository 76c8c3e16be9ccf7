import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowsApi } from '@/features/workflows/api/client';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { MarkTaskBody } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/** PATCH /v2/workflows/mark/{id} {state, dagRunId, taskId} (execute): 'Mark State As'. */
export function markTask({ id, ...body }: MarkTaskBody & { id: string }) {
  return unwrap(workflowsApi.PATCH('/v2/workflows/mark/{id}', { params: { path: { id } }, body }));
}

export function useMarkTask(options: { onSuccess?: (message: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markTask,
    onSuccess: (r, v) => {
      void queryClient.invalidateQueries({ queryKey: workflowKeys.runs(v.id) });
      options.onSuccess?.(r.message);
    },
  });
}
