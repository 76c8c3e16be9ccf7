import { useMutation, useQueryClient } from '@tanstack/react-query';

import { invalidateDatasetFiles } from '@/features/datasets/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { DeleteObjectsResponse } from '@/lib/api/types';

/**
 * POST /v1/datasets/deletedatasetobject/{id} with `paths` (relative keys; one ending '/' deletes
 * the whole folder).
 */
export function deleteObjects(id: string, paths: string[]) {
  const body = paths.length === 1 ? { path: paths[0] } : { paths };
  return unwrap(api.POST('/v1/datasets/deletedatasetobject/{id}', { params: { path: { id } }, body }));
}

export function useDeleteObjects(id: string, options: { onSuccess?: (r: DeleteObjectsResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paths: string[]) => deleteObjects(id, paths),
    onSuccess: (r) => options.onSuccess?.(r),
    // Part of a folder may be gone even when the call failed.
    onSettled: () => invalidateDatasetFiles(queryClient, id),
  });
}
