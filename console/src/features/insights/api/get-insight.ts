import { queryOptions, useQuery } from '@tanstack/react-query';

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

export function useInsight(id: string, options: { enabled?: boolean; pollWhileStarting?: boolean } = {}) {
  return useQuery({
    ...getInsightQueryOptions(id),
    enabled: options.enabled ?? true,
    // A starting app becomes reachable on its own: look again every 3 s until it is.
    refetchInterval: options.pollWhileStarting
      ? (query) => (query.state.data?.application.status === 'starting' ? 3000 : false)
      : false,
  });
}
