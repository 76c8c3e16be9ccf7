import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { DockerImagesAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

/** GET /v2/cluster/dockerimages/list: the administrator's image list. */
export function getDockerImages(signal?: AbortSignal) {
  return untyped<DockerImagesAnswer>('GET', '/v2/cluster/dockerimages/list', { signal });
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
