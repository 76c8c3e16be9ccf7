import { queryOptions, useQuery } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/datasets/getdatasetdetails/{id}: the dataset as the caller sees it (view access). */
export function getDataset(id: string) {
  return unwrap(api.POST('/v1/datasets/getdatasetdetails/{id}', { params: { path: { id } } }));
}

export function getDatasetQueryOptions(id: string) {
  return queryOptions({
    queryKey: datasetKeys.detail(id),
    queryFn: () => getDataset(id),
    // The page explains a failure ('Dataset not found') in place.
    meta: { silent: true },
  });
}

/** While the operator has not confirmed the storage (or is removing it), look again every 3 s. */
export function useDataset(id: string) {
  return useQuery({
    ...getDatasetQueryOptions(id),
    refetchInterval: (query) => {
      const status = query.state.data?.dataset.status;
      return status === 'pending' || status === 'deleting' ? 3000 : false;
    },
  });
}
