import { queryOptions, useQuery } from '@tanstack/react-query';

import type { MetricPeriod } from '@/config/constants';
import { api } from '@/lib/api-client';
import type { MetricsSummary } from '@/lib/api/types';

/** GET /v1/metrics (period): totals for the overview. */
export function getMetrics(period: MetricPeriod, signal?: AbortSignal) {
  return api.get<MetricsSummary>('/v1/metrics', { period }, signal);
}

export function getMetricsQueryOptions(period: MetricPeriod) {
  return queryOptions({ queryKey: ['metrics', { period }], queryFn: ({ signal }) => getMetrics(period, signal) });
}

export function useMetrics(period: MetricPeriod) {
  return useQuery(getMetricsQueryOptions(period));
}
