import { queryOptions, useQuery } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import type { FilePreviewResponse } from '@/features/datasets/api/types';
import { api } from '@/lib/api-client';

/** POST /v1/datasets/getfilepreview/{id} {path}: the file's first rows or lines. */
export function getFilePreview(id: string, path: string) {
  return api.post<FilePreviewResponse>(`/v1/datasets/getfilepreview/${encodeURIComponent(id)}`, { path });
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
