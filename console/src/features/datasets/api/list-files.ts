import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { DATASET_FILES_PAGE_SIZE } from '@/config/constants';
import { datasetKeys } from '@/features/datasets/api/keys';
import type { ListFilesRequest, ListFilesResponse } from '@/features/datasets/api/types';
import { api } from '@/lib/api-client';

/**
 * POST /v1/datasets/listfiles/{id}: one page of the folder `path` ('' is the dataset's root);
 * `token` is the previous page's NextContinuationToken.
 */
export function listFiles(id: string, path: string, token: string | null, limit = DATASET_FILES_PAGE_SIZE) {
  const body: ListFilesRequest = { path, limit };
  if (token) body.continuationToken = token;
  return api.post<ListFilesResponse>(`/v1/datasets/listfiles/${encodeURIComponent(id)}`, body);
}

export function listFilesQueryOptions(id: string, path: string, token: string | null) {
  return queryOptions({
    queryKey: datasetKeys.folderPage(id, path, token),
    queryFn: () => listFiles(id, path, token),
    meta: { silent: true },
  });
}

export function useFolderPage(id: string, path: string, token: string | null) {
  return useQuery({ ...listFilesQueryOptions(id, path, token), placeholderData: keepPreviousData });
}
