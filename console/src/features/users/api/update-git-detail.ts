import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { GitDetailRequest } from '@/lib/api/types';

export type GitDetail = GitDetailRequest;

/** PUT /v1/git_detail with the source-control username and token. */
export function updateGitDetail(detail: GitDetail) {
  return unwrap(api.PUT('/v1/git_detail', { body: detail }));
}

export function useUpdateGitDetail() {
  return useMutation({ mutationFn: updateGitDetail });
}
