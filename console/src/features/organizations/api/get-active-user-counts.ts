import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v1/organizations/activeUserCounts: active users per organization. */
export function getActiveUserCounts(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/activeUserCounts', { signal }));
}

export function getActiveUserCountsQueryOptions() {
  return queryOptions({
    queryKey: ['organizations', 'activeUserCounts'],
    queryFn: ({ signal }) => getActiveUserCounts(signal),
    meta: { silent: true },
  });
}

export function useActiveUserCounts() {
  return useQuery(getActiveUserCountsQueryOptions());
}
