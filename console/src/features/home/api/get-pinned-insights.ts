import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { PinListResponse } from '@/lib/api/types';

/** GET /v1/applications/pin/list: the caller's pinned insights. */
export function getPinnedInsights(signal?: AbortSignal) {
  return api.get<PinListResponse>('/v1/applications/pin/list', undefined, signal);
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
