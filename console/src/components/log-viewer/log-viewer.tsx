import { Box, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { type ReactNode, useEffect, useEffectEvent, useRef, useState } from 'react';

import { keepLast, type LogStatus, parseLogFrame } from '@/components/log-viewer/log-protocol';
import { LOG_BUFFER_LINES, STREAM_BACKOFF } from '@/config/constants';
import { useStream } from '@/lib/use-stream';
import type { StreamState } from '@/lib/ws';

export const LOGS_PATH = '/containerLogs';

/** 'Something went wrong' when the container or user id is missing for logs (spec 001 §8). */
export const MISSING_IDS = 'Something went wrong';

/** The viewer's status line for a stream state and the last status frame. */
export function logStatusLine(state: StreamState, logStatus: LogStatus | null, maxAttempts: number = STREAM_BACKOFF.maxAttempts): string {
  switch (state.status) {
    case 'connecting':
      return state.attempt > 0 ? `Reconnecting to the log (try ${state.attempt} of ${maxAttempts})…` : 'Connecting to the log…';
    case 'open':
      if (logStatus === 'waiting') return 'Waiting for the container to start…';
      if (logStatus === 'ended') return 'The container has ended; showing its archived log.';
      return 'Live: following the container’s log.';
    case 'retrying':
      return `Connection lost. Reconnecting in ${Math.round(state.delayMs / 1000)} s (try ${state.attempt} of ${maxAttempts})…`;
    case 'ended':
      return logStatus === 'running' ? 'The log stream ended.' : 'The container has ended. This is its archived log.';
    case 'revoked':
      return 'Your access to this project was revoked.';
    case 'signedOut':
      return 'Your session ended (signed out, password changed or account deactivated): sign in again.';
    case 'refused':
      return `The server refused the log stream${state.reason ? `: ${state.reason}` : ` (code ${state.code})`}.`;
    case 'failed':
      return 'Could not reach the log. Check your connection and try again.';
    case 'closed':
      return 'Not connected.';
  }
}

type Props = {
  /** The project (or insight) whose container's log is shown; the API finds the pod. */
  id: string;
  /** The caller's uid (the API accepts it for compatibility and ignores it). */
  uid: string;
  /** The container runs now: a new run reconnects a viewer whose stream had finished. */
  running: boolean;
  /** Tools over the lines shown (the assistant's log summary), in a row above the log. */
  tools?: (lines: string[]) => ReactNode;
};

/**
 * A container's log over `/containerLogs` (spec 001 §7, STYLE §17): the last 100 lines, then new
 * ones as they come, with Follow; reconnects with backoff after a drop (the server sends the last
 * 100 lines again, so the buffer starts over), and once the container has ended shows the
 * archived log the server sends instead.
 */
export function LogViewer({ id, uid, running, tools }: Props) {
  const [lines, setLines] = useState<string[]>([]);
  const [logStatus, setLogStatus] = useState<LogStatus | null>(null);
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLDivElement>(null);

  const { state, restart } = useStream({
    path: LOGS_PATH,
    query: { id, uid },
    reconnect: STREAM_BACKOFF,
    onOpen: () => {
      setLines([]);
      setLogStatus(null);
    },
    onMessage: (data) => {
      const frame = parseLogFrame(data);
      if (frame.kind === 'status') setLogStatus(frame.status);
      else setLines((old) => keepLast(old, [frame.text], LOG_BUFFER_LINES));
    },
  });

  // A new run after the stream finished: follow the new container.
  const finished = state.status === 'ended' || state.status === 'failed';
  const onRunning = useEffectEvent(() => {
    if (finished) restart();
  });
  useEffect(() => {
    if (running) onRunning();
  }, [running]);

  useEffect(() => {
    const el = box.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [lines, follow]);

  const canRetry = state.status === 'failed' || state.status === 'refused';

  return (
    <Stack gap={6} h="100%" data-stream-status={state.status}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="xs" c={state.status === 'open' ? 'teal' : 'dimmed'} role="status" aria-label="Log status">
          {logStatusLine(state, logStatus)}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {canRetry && (
            <Button size="compact-xs" variant="light" leftSection={<IconRefresh size={12} />} onClick={restart}>
              Retry
            </Button>
          )}
          <Switch size="xs" label="Follow" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} />
        </Group>
      </Group>
      {tools?.(lines)}
      <Box
        ref={box}
        onWheel={(e) => {
          // Scrolling up to read stops following.
          if (e.deltaY < 0) setFollow(false);
        }}
        style={{ flex: 1, minHeight: 0, overflow: 'auto', background: 'var(--mantine-color-dark-8)', borderRadius: 4 }}
      >
        <Box
          component="pre"
          role="log"
          aria-label="Container log"
          m={0}
          p="xs"
          fz="xs"
          c="gray.2"
          style={{ fontFamily: 'var(--mantine-font-family-monospace)', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {lines.length > 0 ? lines.join('\n') : <Text span c="dimmed" fz="xs">No log lines yet.</Text>}
        </Box>
      </Box>
    </Stack>
  );
}
