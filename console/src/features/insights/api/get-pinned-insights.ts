import { queryOptions, useQuery } from '@tanstack/react-query';

import { insightKeys } from '@/features/insights/api/keys';
import { api, ApiError, unwrap } from '@/lib/api-client';
import type { PinListResponse } from '@/lib/api/types';

/** GET /v1/applications/pin/list: the caller's pinned insights, newest pin first. */
export async function getPinnedInsights(signal?: AbortSignal): Promise<PinListResponse> {
  try {
    return await unwrap(api.GET('/v1/applications/pin/list', { signal }));
  } catch (e) {
    // An API without insights (older server) has no such route: nothing is pinned.
    if (e instanceof ApiError && e.code === 'route_not_found') return { success: true, applications: [] };
    throw e;
  }
}

export function getPinnedInsightsQueryOptions() {
  return queryOptions({
    queryKey: insightKeys.pins(),
    queryFn: ({ signal }) => getPinnedInsights(signal),
    // The home page explains a failure in place; no toast on every visit.
    meta: { silent: true },
  });
}

export function usePinnedInsights(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getPinnedInsightsQueryOptions(), enabled: options.enabled ?? true });
}
