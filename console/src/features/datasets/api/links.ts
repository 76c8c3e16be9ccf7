import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/datasets/links/{id}: the dataset's unexpired temporary links (edit access). */
export function getLinks(id: string) {
  return unwrap(api.GET('/v1/datasets/links/{id}', { params: { path: { id } } }));
}

export function useLinks(id: string, enabled: boolean) {
  return useQuery({ queryKey: datasetKeys.links(id), queryFn: () => getLinks(id), enabled });
}

/** DELETE /v1/datasets/links/{id}/{linkId}: the link stops working at once. */
export function useRevokeLink(id: string, options: { onSuccess?: (message: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => unwrap(api.DELETE('/v1/datasets/links/{id}/{linkId}', { params: { path: { id, linkId } } })),
    onSuccess: (r) => options.onSuccess?.(r.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: datasetKeys.links(id) }),
  });
}
