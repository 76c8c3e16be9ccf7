import { useMutation, useQueryClient } from '@tanstack/react-query';

import { invalidateDatasetFiles } from '@/features/datasets/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { CreateFolderRequest, CreateFolderResponse } from '@/lib/api/types';

/** POST /v1/datasets/createdatasetdirectory {id, path, name}: the folder `path + name + '/'`. */
export function createFolder(request: CreateFolderRequest & { id: string }) {
  return unwrap(api.POST('/v1/datasets/createdatasetdirectory', { body: request }));
}

export function useCreateFolder(options: { onSuccess?: (r: CreateFolderResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: (r, request) => {
      invalidateDatasetFiles(queryClient, request.id);
      options.onSuccess?.(r);
    },
  });
}
