import { queryOptions, useQuery } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * GET /v2/workflows/tasks/{id}/{dagRunId}/{taskId}/{tryNumber}: one try's log (the live pod's, or
 * the archive); try 0 has none ('No Logs available for this task').
 */
export function getTaskLog(id: string, dagRunId: string, taskId: string, tryNumber: number, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v2/workflows/tasks/{id}/{dagRunId}/{taskId}/{tryNumber}', {
      params: { path: { id, dagRunId, taskId, tryNumber } },
      signal,
    }),
  );
}

export function getTaskLogQueryOptions(id: string, dagRunId: string, taskId: string, tryNumber: number) {
  return queryOptions({
    queryKey: workflowKeys.log(id, dagRunId, taskId, tryNumber),
    queryFn: ({ signal }) => getTaskLog(id, dagRunId, taskId, tryNumber, signal),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useTaskLog(id: string, dagRunId: string, taskId: string, tryNumber: number, options: { enabled: boolean }) {
  return useQuery({ ...getTaskLogQueryOptions(id, dagRunId, taskId, tryNumber), enabled: options.enabled && tryNumber > 0 });
}
