import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v2/cluster/sizes/list: the administrator's hardware sizes, with their defaults. */
export function getSizes(signal?: AbortSignal) {
  return unwrap(api.GET('/v2/cluster/sizes/list', { signal }));
}

export function getSizesQueryOptions() {
  return queryOptions({
    queryKey: ['cluster', 'sizes'] as const,
    queryFn: ({ signal }) => getSizes(signal),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
}

export function useSizes() {
  return useQuery(getSizesQueryOptions());
}
