import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/cluster/dockerimages/list: the administrator's image list. */
export function getDockerImages(signal?: AbortSignal) {
  return unwrap(api.GET('/v2/cluster/dockerimages/list', { signal }));
}

export function getDockerImagesQueryOptions() {
  return queryOptions({
    queryKey: projectKeys.dockerImages(),
    queryFn: ({ signal }) => getDockerImages(signal),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
}

export function useDockerImages() {
  return useQuery(getDockerImagesQueryOptions());
}
