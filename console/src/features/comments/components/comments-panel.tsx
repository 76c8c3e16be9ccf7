import { Alert, Avatar, Group, Paper, ScrollArea, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

import { MAX_COMMENT_LENGTH } from '@/config/constants';
import { useCreateComment } from '@/features/comments/api/create-comment';
import { useComments } from '@/features/comments/api/get-comments';
import { useDates } from '@/lib/dates';

export const EMPTY_COMMENT = 'Empty comment not allowed';

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
}

/**
 * The discussion beside an asset (spec 001 §7): the conversation, polled every 5 s, and an input
 * that posts on Enter (Shift+Enter for a new line).
 */
export function CommentsPanel({ referenceId }: { referenceId: string }) {
  const dates = useDates();
  const comments = useComments(referenceId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateComment(referenceId, { onSuccess: () => setText('') });
  const list = comments.data?.conversation ?? [];
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [list.length]);

  function send() {
    if (create.isPending) return;
    const content = text.trim();
    if (!content) {
      setError(EMPTY_COMMENT);
      return;
    }
    if (content.length > MAX_COMMENT_LENGTH) {
      setError(`A comment has at most ${MAX_COMMENT_LENGTH} characters`);
      return;
    }
    setError(null);
    create.mutate(content);
  }

  return (
    <Paper withBorder p="md" h="100%" component="section" aria-label="Comments">
      <Stack gap="sm" h="100%">
        <Group gap={6}>
          <IconMessageCircle size={18} />
          <Title order={4}>Comments</Title>
        </Group>
        {comments.isPending && (
          <Stack gap="xs" aria-label="Loading comments">
            <Skeleton h={40} />
            <Skeleton h={40} />
          </Stack>
        )}
        {comments.isError && !comments.data && (
          <Alert color="yellow" variant="light" title="Comments are unavailable">
            {comments.error.message}
          </Alert>
        )}
        {comments.isSuccess && list.length === 0 && (
          <Text size="sm" c="dimmed">
            No comments yet. Start the discussion.
          </Text>
        )}
        {list.length > 0 && (
          <ScrollArea.Autosize mah={480} type="auto">
            <Stack gap="sm" role="list" aria-label="Conversation">
              {list.map((c) => (
                <Group key={c.id} gap="sm" align="flex-start" wrap="nowrap" role="listitem">
                  <Avatar radius="xl" size={28} color="indigo">
                    {initials(c.author_display_name || '?')}
                  </Avatar>
                  <div style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text size="sm" fw={600}>
                        {c.author_display_name || 'Unknown'}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {dates.relative(c.created_at)}
                      </Text>
                    </Group>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {c.content}
                    </Text>
                  </div>
                </Group>
              ))}
              <div ref={bottom} />
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Textarea
          mt="auto"
          aria-label="Add a comment"
          placeholder="Add a comment and press Enter"
          autosize
          minRows={1}
          maxRows={4}
          value={text}
          error={error}
          onChange={(e) => {
            setText(e.currentTarget.value);
            if (error) setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
      </Stack>
    </Paper>
  );
}
