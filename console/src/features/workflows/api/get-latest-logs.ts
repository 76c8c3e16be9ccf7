import { queryOptions, useQuery } from '@tanstack/react-query';

import { LATEST_LOGS_LIMIT, LATEST_LOGS_MAX } from '@/config/constants';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { LatestRequest, TaskLog } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v2/workflows/latest/{id} {limit}: every try's log of the newest `limit` runs ('all': the
 * newest 100), at most 500 logs, newest run first.
 */
export async function getLatestLogs(id: string, limit: NonNullable<LatestRequest['limit']>, signal?: AbortSignal) {
  const body: LatestRequest = { limit };
  const { logs } = await unwrap(api.POST('/v2/workflows/latest/{id}', { params: { path: { id } }, body, signal }));
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

/** Said after a full answer: the API sends at most LATEST_LOGS_MAX logs. */
export const MORE_LOGS_NOTE = `Only the newest ${LATEST_LOGS_MAX} logs are shown; older ones are left out.`;

/**
 * The text of a set of logs, one block per task try (an earlier try has no state), as "download
 * all" writes it.
 */
export function logsAsText(logs: readonly TaskLog[]): string {
  const text = logs
    .map((l) => `===== run ${l.dag_run_id} · task ${l.task_id} · try ${l.try_number}${l.state ? ` · ${l.state}` : ''}${l.archived ? ' (archived)' : ''} =====\n${l.content}`)
    .join('\n\n');
  return logs.length >= LATEST_LOGS_MAX ? `${text}\n\n${MORE_LOGS_NOTE}` : text;
}
