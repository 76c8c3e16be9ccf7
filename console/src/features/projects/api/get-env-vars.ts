import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/projects/envvar?id= (view access; values only for edit access). */
export function getEnvVars(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/projects/envvar', { params: { query: { id } }, signal }));
}

export function getEnvVarsQueryOptions(id: string) {
  return queryOptions({
    queryKey: projectKeys.envVars(id),
    queryFn: ({ signal }) => getEnvVars(id, signal),
    meta: { silent: true },
  });
}

export function useEnvVars(id: string) {
  return useQuery(getEnvVarsQueryOptions(id));
}
