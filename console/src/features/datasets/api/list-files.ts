import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { DATASET_FILES_PAGE_SIZE } from '@/config/constants';
import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v1/datasets/listfiles/{id}: one page of the folder `path` ('' is the dataset's root);
 * `token` is the previous page's NextContinuationToken.
 */
export function listFiles(id: string, path: string, token: string | null, limit = DATASET_FILES_PAGE_SIZE) {
  const body = token ? { path, limit, continuationToken: token } : { path, limit };
  return unwrap(api.POST('/v1/datasets/listfiles/{id}', { params: { path: { id } }, body }));
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
