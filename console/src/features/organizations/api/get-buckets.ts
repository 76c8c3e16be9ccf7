import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BucketsResponse } from '@/lib/api/types';

/** GET /v1/organizations/buckets: the buckets an organization may use. */
export function getBuckets(signal?: AbortSignal) {
  return api.get<BucketsResponse>('/v1/organizations/buckets', undefined, signal);
}

export function getBucketsQueryOptions() {
  return queryOptions({ queryKey: ['organizations', 'buckets'], queryFn: ({ signal }) => getBuckets(signal), meta: { silent: true } });
}

export function useBuckets() {
  return useQuery(getBucketsQueryOptions());
}
