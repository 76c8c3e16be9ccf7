import { queryOptions, useQuery } from '@tanstack/react-query';

import { LATEST_LOGS_LIMIT } from '@/config/constants';
import { workflowsApi } from '@/features/workflows/api/client';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { TaskLog } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/** POST /v2/workflows/latest/{id} {limit}: every try's log of the newest `limit` runs ('all' for every run). */
export async function getLatestLogs(id: string, limit: number | 'all', signal?: AbortSignal) {
  const { logs } = await unwrap(workflowsApi.POST('/v2/workflows/latest/{id}', { params: { path: { id } }, body: { limit }, signal }));
  return logs;
}

export function getLatestLogsQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...workflowKeys.runs(id), 'latest-logs'] as const,
    queryFn: ({ signal }) => getLatestLogs(id, LATEST_LOGS_LIMIT, signal),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useLatestLogs(id: string, options: { enabled: boolean }) {
  return useQuery({ ...getLatestLogsQueryOptions(id), enabled: options.enabled });
}

/** The text of a set of logs, one block per task try, as "download all" writes it. */
export function logsAsText(logs: readonly TaskLog[]): string {
  return logs
    .map((l) => `===== run ${l.dag_run_id} · task ${l.task_id} · try ${l.try_number} · ${l.state}${l.archived ? ' (archived)' : ''} =====\n${l.content}`)
    .join('\n\n');
}
