import { useMutation, useQueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import type { MessageResponse } from '@/features/datasets/api/types';
import { api } from '@/lib/api-client';

/** DELETE /v1/datasets/{id} (edit access): the dataset and its files. */
export function deleteDataset(id: string) {
  return api.delete<MessageResponse>(`/v1/datasets/${encodeURIComponent(id)}`);
}

export function useDeleteDataset(options: { onSuccess?: (r: MessageResponse) => void } = {}) {
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
