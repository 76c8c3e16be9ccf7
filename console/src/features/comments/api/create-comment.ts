import { useMutation, useQueryClient } from '@tanstack/react-query';

import { commentKeys } from '@/features/comments/api/get-comments';
import type { CommentListResponse } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/comment/createComment with `comment: {content, reference_id}`. */
export function createComment(referenceId: string, content: string) {
  return unwrap(api.POST('/v1/comment/createComment', { body: { comment: { content, reference_id: referenceId } } }));
}

export function useCreateComment(referenceId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => createComment(referenceId, content),
    onSuccess: (r) => {
      // Shown at once; the next poll brings the server's list.
      queryClient.setQueryData<CommentListResponse>(commentKeys.list(referenceId), (data) =>
        data && r.comment && !data.conversation.some((c) => c.id === r.comment.id)
          ? { ...data, conversation: [...data.conversation, r.comment] }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: commentKeys.list(referenceId) });
      options.onSuccess?.();
    },
  });
}
