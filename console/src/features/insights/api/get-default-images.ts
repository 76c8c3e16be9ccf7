import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { DefaultImagesResponse } from '@/lib/api/types';

/** GET /v1/images/defaults: the 15 default insight images (each `url` is a valid `img_path`). */
export function getDefaultImages(signal?: AbortSignal) {
  return api.get<DefaultImagesResponse>('/v1/images/defaults', undefined, signal);
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
