import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError } from '@/lib/api-client';
import type { PinListResponse } from '@/lib/api/types';

/** GET /v1/applications/pin/list: the caller's pinned insights. */
export async function getPinnedInsights(signal?: AbortSignal): Promise<PinListResponse> {
  try {
    return await api.get<PinListResponse>('/v1/applications/pin/list', undefined, signal);
  } catch (e) {
    // Until the API serves insights, the route does not exist: nothing is pinned.
    if (e instanceof ApiError && e.code === 'route_not_found') return { success: true, applications: [] };
    throw e;
  }
}

export function getPinnedInsightsQueryOptions() {
  return queryOptions({
    queryKey: ['applications', 'pins'],
    queryFn: ({ signal }) => getPinnedInsights(signal),
    // The home page explains a failure in place; no toast on every visit.
    meta: { silent: true },
  });
}

export function usePinnedInsights(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getPinnedInsightsQueryOptions(), enabled: options.enabled ?? true });
}
