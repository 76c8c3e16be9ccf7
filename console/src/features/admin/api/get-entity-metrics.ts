import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { LIST_PAGE_SIZE, type MetricPeriod } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

/** The asset kinds of the Entity Usage tab. */
export const METRIC_ENTITIES = ['applications', 'projects', 'datasets', 'workflows'] as const;
export type MetricEntity = (typeof METRIC_ENTITIES)[number];
/** What an activity list shows: every kind (the User activities tab) or one asset kind. */
export type ActivitySubject = 'all' | MetricEntity;

export type EntityMetricsParams = {
  entity: ActivitySubject;
  period: MetricPeriod;
  organizationId?: Id;
  searchTerm?: string;
};

/**
 * The activity log, newest first: GET /v1/metrics/activities (every kind) or
 * GET /v1/metrics/{entity} (one), with period, page, limit, organizationId, searchTerm.
 */
export function getEntityMetrics({ entity, ...query }: EntityMetricsParams & { page: number }, signal?: AbortSignal) {
  const params = { query: { ...query, limit: LIST_PAGE_SIZE } };
  if (entity === 'all') return unwrap(api.GET('/v1/metrics/activities', { params, signal }));
  return unwrap(api.GET('/v1/metrics/{entity}', { params: { ...params, path: { entity } }, signal }));
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
