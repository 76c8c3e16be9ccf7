import { queryOptions, useQuery } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/datasets/get/ludisurl/{id} {path}: a 7-day address and the permanent (API key) one. */
export function getAccessUrl(id: string, path: string) {
  return unwrap(api.POST('/v1/datasets/get/ludisurl/{id}', { params: { path: { id } }, body: { path } }));
}

export function getAccessUrlQueryOptions(id: string, path: string) {
  return queryOptions({
    queryKey: datasetKeys.accessUrl(id, path),
    queryFn: () => getAccessUrl(id, path),
    // Each opening signs a fresh temporary address.
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
  });
}

export function useAccessUrl(id: string, path: string) {
  return useQuery(getAccessUrlQueryOptions(id, path));
}
