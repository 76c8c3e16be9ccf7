import { queryOptions, useQuery } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { FilePreviewResponse } from '@/lib/api/types';

/** POST /v1/datasets/getfilepreview/{id} {path}: the file's first rows or lines. */
export function getFilePreview(id: string, path: string): Promise<FilePreviewResponse> {
  return unwrap(api.POST('/v1/datasets/getfilepreview/{id}', { params: { path: { id } }, body: { path } }));
}

export function getFilePreviewQueryOptions(id: string, path: string) {
  return queryOptions({
    queryKey: datasetKeys.preview(id, path),
    queryFn: () => getFilePreview(id, path),
    staleTime: 0,
    // The dialog shows why there is no preview.
    meta: { silent: true },
  });
}

export function useFilePreview(id: string, path: string) {
  return useQuery(getFilePreviewQueryOptions(id, path));
}
