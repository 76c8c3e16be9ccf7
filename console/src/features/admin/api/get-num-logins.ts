import { queryOptions, useQuery } from '@tanstack/react-query';

import type { MetricPeriod } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

export type NumLoginsParams = { period: MetricPeriod; organization?: Id; limit?: number };

/** GET /v1/metrics/numLogins (organization, period, limit): a series of {date, logins, orgName}. */
export function getNumLogins(params: NumLoginsParams, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/metrics/numLogins', { params: { query: params }, signal }));
}

export function getNumLoginsQueryOptions(params: NumLoginsParams) {
  return queryOptions({ queryKey: [...METRICS_KEY, 'numLogins', params], queryFn: ({ signal }) => getNumLogins(params, signal) });
}

export function useNumLogins(params: NumLoginsParams) {
  return useQuery(getNumLoginsQueryOptions(params));
}
