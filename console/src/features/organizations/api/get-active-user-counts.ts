import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ActiveUserCountsResponse } from '@/lib/api/types';

/** GET /v1/organizations/activeUserCounts: active users per organization. */
export function getActiveUserCounts(signal?: AbortSignal) {
  return api.get<ActiveUserCountsResponse>('/v1/organizations/activeUserCounts', undefined, signal);
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
