import { queryOptions, useQuery } from '@tanstack/react-query';

import type { MetricPeriod } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

/** GET /v1/metrics (period): totals for the overview. */
export function getMetrics(period: MetricPeriod, organizationId?: Id, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/metrics', { params: { query: { period, organizationId } }, signal }));
}

export function getMetricsQueryOptions(period: MetricPeriod, organizationId?: Id) {
  return queryOptions({
    queryKey: [...METRICS_KEY, { period, organizationId }],
    queryFn: ({ signal }) => getMetrics(period, organizationId, signal),
  });
}

export function useMetrics(period: MetricPeriod, organizationId?: Id) {
  return useQuery(getMetricsQueryOptions(period, organizationId));
}
