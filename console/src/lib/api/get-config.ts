import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ConfigResponse } from '@/lib/api/types';

/** GET /v1/config: support e-mail, documentation link and the roles the server knows. */
export function getConfig(signal?: AbortSignal): Promise<ConfigResponse> {
  return api.get<ConfigResponse>('/v1/config', undefined, signal);
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
