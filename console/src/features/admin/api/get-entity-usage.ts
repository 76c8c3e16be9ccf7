import { queryOptions, useQuery } from '@tanstack/react-query';

import { type MetricPeriod, PROJECT_METRICS_LIMIT } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

export type EntityUsageParams = { organizationId: Id; entity: string; period: MetricPeriod; limit?: number };

/** GET /v1/metrics/{orgId}/{entity} (period, limit): the most used items of one kind. */
export function getEntityUsage({ organizationId, entity, period, limit = PROJECT_METRICS_LIMIT }: EntityUsageParams, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/metrics/{org_id}/{entity}', {
      params: { path: { org_id: organizationId, entity }, query: { period, limit } },
      signal,
    }),
  );
}

export function getEntityUsageQueryOptions(params: EntityUsageParams) {
  return queryOptions({ queryKey: [...METRICS_KEY, 'usage', params], queryFn: ({ signal }) => getEntityUsage(params, signal) });
}

export function useEntityUsage(params: EntityUsageParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getEntityUsageQueryOptions(params), enabled: options.enabled ?? true });
}
