import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { DATASETS_PAGE_SIZE } from '@/config/constants';
import { datasetKeys, type DatasetsQuery } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/datasets/listdatasets with filter, page, pageSize and search (newest change first). */
export function getDatasets(q: DatasetsQuery, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/datasets/listdatasets', {
      params: { query: { filter: q.filter, page: q.page, pageSize: DATASETS_PAGE_SIZE, search: q.search } },
      signal,
    }),
  );
}

export function getDatasetsQueryOptions(q: DatasetsQuery) {
  return queryOptions({
    queryKey: datasetKeys.list(q),
    queryFn: ({ signal }) => getDatasets(q, signal),
    // The list explains a failure in place.
    meta: { silent: true },
  });
}

/** One page; the previous page stays on screen while the next one loads. */
export function useDatasets(q: DatasetsQuery) {
  return useQuery({ ...getDatasetsQueryOptions(q), placeholderData: keepPreviousData });
}
