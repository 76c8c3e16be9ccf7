/** Wire types of the comment calls, written from the issue-5 contract until api/openapi.json has them. */
export type Comment = {
  id: string;
  content: string;
  reference_id: string;
  author_uid?: string | null;
  author_display_name: string;
  created_at: number;
};

export type CommentListResponse = { success: boolean; conversation: Comment[] };
export type CreateCommentResponse = { success: boolean; comment: Comment };
