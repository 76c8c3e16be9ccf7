import { useMutation, useQueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { DatasetFields, DatasetMessageResponse } from '@/lib/api/types';

/** POST /v1/datasets/createdataset with `dataset` {name, description}: 201 and the new dataset. */
export function createDataset(dataset: DatasetFields) {
  return unwrap(api.POST('/v1/datasets/createdataset', { body: { dataset } }));
}

export function useCreateDataset(options: { onSuccess?: (r: DatasetMessageResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDataset,
    onSuccess: (r) => {
      queryClient.setQueryData(datasetKeys.detail(r.dataset.id), { success: true, dataset: r.dataset });
      void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
