import { queryOptions, useQuery } from '@tanstack/react-query';

import { INSIGHT_CHECK_MS, PREVIEW_WATCH_MS } from '@/config/constants';
import { insightKeys } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/applications/{id}: the insight, a presigned `report_url` and the `open_url` (counts a view). */
export function getInsight(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/applications/{id}', { params: { path: { id } }, signal }));
}

export function getInsightQueryOptions(id: string) {
  return queryOptions({
    queryKey: insightKeys.detail(id),
    queryFn: ({ signal }) => getInsight(id, signal),
    meta: { silent: true },
    // Presigned addresses expire; a fresh open gets fresh ones.
    staleTime: 0,
  });
}

/** How long the page waits before it looks at an insight again, by its status. */
export function followInterval(status: string | undefined): number | false {
  // An idle app the page opens wakes up (its frame's first request starts it): followed as it starts.
  if (status === 'starting' || status === 'rendering' || status === 'idle') return INSIGHT_CHECK_MS;
  // A running app may fail later; a failed one keeps restarting, and its last log lines (the
  // crash, once the run that printed them ended) and its status change with it.
  if (status === 'running' || status === 'failed') return PREVIEW_WATCH_MS;
  return false;
}

export function useInsight(id: string, options: { enabled?: boolean; follow?: boolean } = {}) {
  return useQuery({
    ...getInsightQueryOptions(id),
    enabled: options.enabled ?? true,
    // Followed live: a starting app is looked at every 3 s until it serves or fails, a running
    // or failed one every 10 s (it may fail later, or its log may say more).
    refetchInterval: options.follow ? (query) => followInterval(query.state.data?.application.status) : false,
  });
}
