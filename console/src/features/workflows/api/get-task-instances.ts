import { queryOptions, useQuery } from '@tanstack/react-query';

import { TASKS_PAGE_LIMIT } from '@/config/constants';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { TaskInstance } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/workflows/tasks/{id}/{dagRunId}?limit&page: the run's task instances. */
export function getTaskInstances(id: string, dagRunId: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v2/workflows/tasks/{id}/{dagRunId}', {
      params: { path: { id, dagRunId }, query: { page: 1, limit: TASKS_PAGE_LIMIT } },
      signal,
    }),
  );
}

export function getTaskInstancesQueryOptions(id: string, dagRunId: string) {
  return queryOptions({
    queryKey: workflowKeys.tasks(id, dagRunId),
    queryFn: ({ signal }) => getTaskInstances(id, dagRunId, signal),
    // The grid says 'Unable to fetch task instances' itself.
    meta: { silent: true },
  });
}

const SETTLED: readonly TaskInstance['state'][] = ['success', 'failed', 'upstream_failed', 'skipped'];

/** Whether every task has finished. */
export function allSettled(tasks: readonly TaskInstance[] | undefined): boolean {
  return !!tasks && tasks.length > 0 && tasks.every((t) => SETTLED.includes(t.state));
}

/**
 * The grid of one run, refetched every `pollMs` until every task has finished, and until
 * `followUntil` (a time, in ms) after a change was asked for.
 */
export function useTaskInstances(id: string, dagRunId: string | null, pollMs: number, followUntil = 0) {
  return useQuery({
    ...getTaskInstancesQueryOptions(id, dagRunId ?? ''),
    enabled: !!dagRunId,
    refetchInterval: (q) => (allSettled(q.state.data?.task_instances) && Date.now() >= followUntil ? false : pollMs),
  });
}
