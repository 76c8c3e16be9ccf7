import { useMutation, useQueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { Done } from '@/lib/api/types';

/** DELETE /v1/datasets/{id} (edit access): the dataset and its files. */
export function deleteDataset(id: string) {
  return unwrap(api.DELETE('/v1/datasets/{id}', { params: { path: { id } } }));
}

export function useDeleteDataset(options: { onSuccess?: (r: Done) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDataset,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: datasetKeys.detail(id) });
      queryClient.removeQueries({ queryKey: datasetKeys.files(id) });
      void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
