import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/projects/getprojectapps/{id}: the insights published from the project that the caller may see. */
export function getProjectApps(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/projects/getprojectapps/{id}', { params: { path: { id } }, signal }));
}

export function getProjectAppsQueryOptions(id: string) {
  return queryOptions({
    queryKey: projectKeys.apps(id),
    queryFn: ({ signal }) => getProjectApps(id, signal),
    meta: { silent: true },
  });
}

export function useProjectApps(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getProjectAppsQueryOptions(id), enabled: options.enabled ?? true });
}
