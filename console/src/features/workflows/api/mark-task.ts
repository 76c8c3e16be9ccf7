import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import type { MarkRequest } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** PATCH /v2/workflows/mark/{id} {state, dagRunId, taskId} (execute): 'Mark State As'. */
export function markTask({ id, ...body }: MarkRequest & { id: string }) {
  return unwrap(api.PATCH('/v2/workflows/mark/{id}', { params: { path: { id } }, body }));
}

export function useMarkTask(options: { onSuccess?: (message: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markTask,
    onSuccess: (r) => options.onSuccess?.(r.message),
    // A 409 (the task is in that state already) means the grid is behind: refresh it either way.
    onSettled: (_r, _e, v) => void queryClient.invalidateQueries({ queryKey: workflowKeys.runs(v.id) }),
  });
}
