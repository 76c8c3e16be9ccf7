import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Envelope, GitDetailRequest } from '@/lib/api/types';

export type GitDetail = GitDetailRequest;

/** PUT /v1/git_detail with the source-control username and token. */
export function updateGitDetail(detail: GitDetail) {
  return api.put<Envelope>('/v1/git_detail', detail);
}

export function useUpdateGitDetail() {
  return useMutation({ mutationFn: updateGitDetail });
}
