import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { LIST_PAGE_SIZE, type MetricPeriod } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

/** The metrics entities: `users` is the user-activities tab; the others are asset kinds. */
export const METRIC_ENTITIES = ['users', 'applications', 'projects', 'datasets', 'workflows'] as const;
export type MetricEntity = (typeof METRIC_ENTITIES)[number];

export type EntityMetricsParams = {
  entity: MetricEntity;
  period: MetricPeriod;
  organizationId?: Id;
  searchTerm?: string;
};

/** GET /v1/metrics/{entity} (period, page, limit, organizationId, searchTerm). */
export function getEntityMetrics({ entity, ...query }: EntityMetricsParams & { page: number }, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/metrics/{entity}', {
      params: { path: { entity }, query: { ...query, limit: LIST_PAGE_SIZE } },
      signal,
    }),
  );
}

export function getEntityMetricsQueryOptions(params: EntityMetricsParams) {
  return infiniteQueryOptions({
    queryKey: [...METRICS_KEY, params.entity, params],
    queryFn: ({ pageParam, signal }) => getEntityMetrics({ ...params, page: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.rows.length < LIST_PAGE_SIZE ? undefined : all.length + 1),
  });
}

export function useEntityMetrics(params: EntityMetricsParams) {
  return useInfiniteQuery(getEntityMetricsQueryOptions(params));
}
