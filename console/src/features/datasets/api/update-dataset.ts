import { useMutation, useQueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { DatasetFields, DatasetMessageResponse } from '@/lib/api/types';

/** PUT /v1/datasets/updatedataset/{id} with `dataset` {name, description} (edit access). */
export function updateDataset(id: string, dataset: DatasetFields) {
  return unwrap(
    api.PUT('/v1/datasets/updatedataset/{id}', { params: { path: { id } }, body: { dataset } }),
  );
}

export function useUpdateDataset(options: { onSuccess?: (r: DatasetMessageResponse) => void; onError?: (e: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, dataset }: { id: string; dataset: DatasetFields }) => updateDataset(id, dataset),
    // The form says 'Update Dataset failed' and shows the server's reason itself.
    meta: { silent: true },
    onError: options.onError,
    onSuccess: (r) => {
      queryClient.setQueryData(datasetKeys.detail(r.dataset.id), { success: true, dataset: r.dataset });
      void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
