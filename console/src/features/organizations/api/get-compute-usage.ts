import { queryOptions, useQuery } from '@tanstack/react-query';

import type { MetricPeriod } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/organizations/{id}/compute?period=: CPU- and memory-hours its workloads set aside. */
export function getComputeUsage(id: string, period: MetricPeriod, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/{id}/compute', { params: { path: { id }, query: { period } }, signal }));
}

export function getComputeUsageQueryOptions(id: string, period: MetricPeriod) {
  return queryOptions({
    queryKey: ['organizations', id, 'compute', period] as const,
    queryFn: ({ signal }) => getComputeUsage(id, period, signal),
    // The sampler records every minute.
    refetchInterval: 60_000,
  });
}

export function useComputeUsage(id: string, period: MetricPeriod) {
  return useQuery(getComputeUsageQueryOptions(id, period));
}
