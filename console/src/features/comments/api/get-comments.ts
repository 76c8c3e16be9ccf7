import { queryOptions, useQuery } from '@tanstack/react-query';

import { COMMENTS_POLL_MS } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';

export const commentKeys = { list: (referenceId: string) => ['comments', referenceId] as const };

/** POST /v1/comment/list with `comments: {reference_id}`: the conversation, oldest first. */
export function getComments(referenceId: string) {
  return unwrap(api.POST('/v1/comment/list', { body: { comments: { reference_id: referenceId } } }));
}

/**
 * Polled every 5 s (spec 001 §9). The poll is quiet: no loading indicator after the first load
 * (spec 000 §9) and no toast for a failed poll; the panel says it in place.
 */
export function getCommentsQueryOptions(referenceId: string) {
  return queryOptions({
    queryKey: commentKeys.list(referenceId),
    queryFn: () => getComments(referenceId),
    refetchInterval: COMMENTS_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useComments(referenceId: string) {
  return useQuery(getCommentsQueryOptions(referenceId));
}
