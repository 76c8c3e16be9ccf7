import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v1/organizations/{id}/quota: what the organization's pods use of its quota. */
export function getQuota(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/{id}/quota', { params: { path: { id } }, signal }));
}

export function getQuotaQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['organizations', id, 'quota'] as const,
    queryFn: ({ signal }) => getQuota(id, signal),
    // What is in use changes as people start and stop things.
    refetchInterval: 30_000,
  });
}

export function useQuota(id: string) {
  return useQuery(getQuotaQueryOptions(id));
}
