import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v1/config: support e-mail, documentation link and the roles the server knows. */
export function getConfig(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/config', { signal }));
}

export function getConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => getConfig(signal),
    staleTime: Infinity,
    meta: { silent: true },
  });
}

export function useConfig() {
  return useQuery(getConfigQueryOptions());
}
