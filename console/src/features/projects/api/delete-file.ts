import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { DeleteFileRequest, MessageAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

/** POST /v2/projects/deletefile (edit access): removes a file in a commit; 409 `stale_file` as commitfile. */
export function deleteFile(request: DeleteFileRequest) {
  return untyped<MessageAnswer>('POST', '/v2/projects/deletefile', { body: request });
}

export function useDeleteFile(options: { onSuccess?: (r: MessageAnswer, request: DeleteFileRequest) => void } = {}) {
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
