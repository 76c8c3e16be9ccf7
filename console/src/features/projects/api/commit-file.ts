import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { CommitAnswer, CommitFileRequest } from '@/lib/api/types';

/** The stale-file refusal of commitfile and deletefile (HTTP 409). */
export const STALE_FILE_CODE = 'stale_file';

/**
 * POST /v2/projects/commitfile (edit access): one file as a commit by the caller. `sha` is the
 * blob the editor loaded (absent for a new file); a stale one is refused with 409 `stale_file`.
 */
export function commitFile(request: CommitFileRequest) {
  return unwrap(api.POST('/v2/projects/commitfile', { body: request }));
}

export function useCommitFile(options: { onSuccess?: (r: CommitAnswer, request: CommitFileRequest) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitFile,
    // The commit dialog shows the refusal (and the way to reload a stale file).
    meta: { silent: true },
    onSuccess: (r, request) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.repo(request.project) });
      options.onSuccess?.(r, request);
    },
  });
}
