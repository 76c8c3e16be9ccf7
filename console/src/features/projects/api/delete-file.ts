import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { DeleteFileRequest, Done } from '@/lib/api/types';

/** POST /v2/projects/deletefile (edit access): removes a file in a commit; 409 `stale_file` as commitfile. */
export function deleteFile(request: DeleteFileRequest) {
  return unwrap(api.POST('/v2/projects/deletefile', { body: request }));
}

export function useDeleteFile(options: { onSuccess?: (r: Done, request: DeleteFileRequest) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    meta: { silent: true },
    onSuccess: (r, request) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.repo(request.project) });
      options.onSuccess?.(r, request);
    },
  });
}
