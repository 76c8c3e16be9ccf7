import { Alert, Badge, Box, Button, Group, Loader, ScrollArea, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { IconSparkles, IconTrash } from '@tabler/icons-react';
import { useEffect, useReducer, useRef, useState } from 'react';

import { STREAM_BACKOFF } from '@/config/constants';
import { useAssistantStatus } from '@/features/assistant/api/assistant-status';
import {
  CHAT_CONNECT_ERROR,
  CHAT_PATH,
  type ChatMessage,
  chatReducer,
  conversationOf,
  initialChat,
  parseChatFrame,
} from '@/features/assistant/chat-protocol';
import { useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';
import { useStream } from '@/lib/use-stream';

type Props = {
  /** The item the chat is about (a project): the server adds what the caller may read of it. */
  entityId?: string;
  /** The file the editor shows, for the assistant to read. */
  file?: string | null;
};

function Bubble({ message }: { message: ChatMessage }) {
  const mine = message.role === 'user';
  return (
    <Box
      role="listitem"
      aria-label={mine ? 'Your message' : 'Ludis AI'}
      data-role={message.role}
      maw="90%"
      px="sm"
      py={6}
      style={{
        alignSelf: mine ? 'flex-end' : 'flex-start',
        borderRadius: 8,
        background: mine ? 'var(--mantine-color-indigo-light)' : 'var(--mantine-color-default-hover)',
      }}
    >
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {message.content}
      </Text>
    </Box>
  );
}

/**
 * The assistant's chat (spec 001 §4 "Chat"): a welcome message, the answer streamed in as it is
 * written over `/aiChatResponse`, 'complete' ends it; Clear starts the conversation again. A
 * socket error or an answer the server could not give says 'Could not connect to Ludis AI.' and
 * removes the pending reply (§8), with the server's reason under the conversation. Without a
 * configured assistant, says how an administrator configures one.
 */
export function AiChat({ entityId, file }: Props) {
  const { user } = useSession();
  const status = useAssistantStatus();
  const configured = status.data?.configured === true;
  const [chat, dispatch] = useReducer(chatReducer, null, () => initialChat(Date.now()));
  const [text, setText] = useState('');
  const bottom = useRef<HTMLDivElement>(null);

  const fail = (reason: string) => {
    dispatch({ type: 'failed', reason });
    notify.error(CHAT_CONNECT_ERROR);
  };

  const { state, send, restart } = useStream({
    path: CHAT_PATH,
    query: { uid: user?.uid ?? '', entityId: entityId ?? '' },
    reconnect: STREAM_BACKOFF,
    enabled: configured,
    onMessage: (data) => {
      const frame = parseChatFrame(data);
      if (frame?.type === 'token') dispatch({ type: 'token', content: frame.content });
      else if (frame?.type === 'complete') dispatch({ type: 'completed' });
      else if (frame?.type === 'error') fail(frame.content);
    },
  });

  // The connection dropped while an answer was awaited: that answer will not come.
  const down = state.status !== 'open' && state.status !== 'connecting';
  const pending = chat.pending !== null;
  useEffect(() => {
    if (down && pending) fail(`The connection to the assistant was lost (${state.status}).`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of connection state decides
  }, [down]);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [chat]);

  if (status.isPending) return <Skeleton h={120} aria-label="Loading the assistant" />;
  if (!configured) {
    return (
      <Alert color="gray" variant="light" icon={<IconSparkles size={16} />} title="Ludis AI is not set up">
        {status.data?.help ?? 'The assistant could not be reached. Try again later.'}
      </Alert>
    );
  }

  function ask() {
    const question = text.trim();
    if (!question || pending) return;
    const messages = [...conversationOf(chat.messages), { role: 'user' as const, content: question }];
    dispatch({ type: 'asked', text: question, now: Date.now() });
    setText('');
    if (!send(JSON.stringify(file ? { messages, file } : { messages }))) fail('Not connected to the assistant.');
  }

  function clear() {
    dispatch({ type: 'cleared', now: Date.now() });
    // A new connection: an answer still streaming on the old one is dropped with it.
    if (pending) restart();
  }

  return (
    <Stack gap={6} h="100%" data-chat-status={state.status}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={6} wrap="nowrap">
          <Badge size="xs" variant="light" color={state.status === 'open' ? 'teal' : 'gray'} leftSection={<IconSparkles size={10} />}>
            Ludis AI
          </Badge>
          {status.data?.model && (
            <Text size="xs" c="dimmed" truncate>
              {status.data.model}
            </Text>
          )}
        </Group>
        <Button size="compact-xs" variant="subtle" color="gray" leftSection={<IconTrash size={12} />} onClick={clear}>
          Clear
        </Button>
      </Group>
      <ScrollArea style={{ flex: 1, minHeight: 0 }} type="auto">
        <Stack gap={6} role="list" aria-label="Chat with Ludis AI" aria-busy={pending}>
          {chat.messages.map((m) => (
            <Bubble key={m.id} message={m} />
          ))}
          {chat.pending &&
            (chat.pending.content ? (
              <Bubble message={chat.pending} />
            ) : (
              <Group gap={6} role="status" aria-label="Ludis AI is writing">
                <Loader size="xs" type="dots" />
                <Text size="xs" c="dimmed">
                  Thinking…
                </Text>
              </Group>
            ))}
          <div ref={bottom} />
        </Stack>
      </ScrollArea>
      {chat.lastError && (
        <Text size="xs" c="red" role="alert" aria-label="Why there is no answer">
          {chat.lastError}
        </Text>
      )}
      <Textarea
        aria-label="Ask Ludis AI"
        placeholder={file ? `Ask about ${file}… (Enter sends)` : 'Ask Ludis AI… (Enter sends)'}
        autosize
        minRows={1}
        maxRows={5}
        value={text}
        disabled={pending}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            ask();
          }
        }}
      />
    </Stack>
  );
}
