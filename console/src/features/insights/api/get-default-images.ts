import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** GET /v1/images/defaults: the 15 default insight images (each `url` is a valid `img_path`). */
export function getDefaultImages(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/images/defaults', { signal }));
}

export function getDefaultImagesQueryOptions() {
  return queryOptions({
    queryKey: ['images', 'defaults'],
    queryFn: ({ signal }) => getDefaultImages(signal),
    staleTime: Infinity,
    meta: { silent: true },
  });
}

export function useDefaultImages() {
  return useQuery(getDefaultImagesQueryOptions());
}
