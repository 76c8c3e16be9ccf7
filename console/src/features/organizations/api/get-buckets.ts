import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v1/organizations/buckets: the buckets an organization may use. */
export function getBuckets(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/buckets', { signal }));
}

export function getBucketsQueryOptions() {
  return queryOptions({ queryKey: ['organizations', 'buckets'], queryFn: ({ signal }) => getBuckets(signal), meta: { silent: true } });
}

export function useBuckets() {
  return useQuery(getBucketsQueryOptions());
}
