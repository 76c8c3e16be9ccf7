import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Envelope } from '@/lib/api/types';

export type GitDetail = { git_username: string; git_token: string };

/** PUT /v1/git_detail with the source-control username and token. */
export function updateGitDetail(detail: GitDetail) {
  return api.put<Envelope>('/v1/git_detail', detail);
}

export function useUpdateGitDetail() {
  return useMutation({ mutationFn: updateGitDetail });
}
