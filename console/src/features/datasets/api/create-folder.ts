import { useMutation, useQueryClient } from '@tanstack/react-query';

import { invalidateDatasetFiles } from '@/features/datasets/api/cache';
import type { CreateFolderRequest, CreateFolderResponse } from '@/features/datasets/api/types';
import { api } from '@/lib/api-client';

/** POST /v1/datasets/createdatasetdirectory {id, path, name}: the folder `path + name + '/'`. */
export function createFolder(request: CreateFolderRequest) {
  return api.post<CreateFolderResponse>('/v1/datasets/createdatasetdirectory', request);
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
