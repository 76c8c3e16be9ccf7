import '@xterm/xterm/css/xterm.css';

import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';

import { decodeOutput, encodeInput, encodeResize, TERMINAL_PATH } from '@/components/terminal/exec-protocol';
import { useStream } from '@/lib/use-stream';
import type { StreamState } from '@/lib/ws';

/** The terminal's status line for a stream state. */
export function terminalStatusLine(state: StreamState): string {
  switch (state.status) {
    case 'connecting':
    case 'retrying':
      return 'Connecting to the terminal…';
    case 'open':
      return 'Connected: a shell in the project’s container.';
    case 'ended':
      return 'The shell exited.';
    case 'revoked':
      return 'Your access to this project was revoked; what you started in its container was stopped.';
    case 'signedOut':
      return 'Your session ended (signed out, password changed or account deactivated): sign in again.';
    case 'refused':
      return `The server refused the terminal${state.reason ? `: ${state.reason}` : ` (code ${state.code})`}.`;
    case 'failed':
      return 'The terminal connection was lost.';
    case 'closed':
      return 'Not connected.';
  }
}

/** Fits the terminal to its box; a box with no size yet (hidden, or no layout) keeps the size. */
function fitTo(addon: FitAddon) {
  try {
    addon.fit();
  } catch {
    /* not laid out yet */
  }
}

type Props = {
  /** The project (or insight) whose container the shell runs in; the API finds the pod. */
  id: string;
  /** The caller's uid (the API accepts it for compatibility and ignores it). */
  uid: string;
};

/**
 * An interactive shell in a container over `/terminalConnection` (spec 001 §7): xterm with the fit
 * addon, keystrokes and output as binary frames, and a resize frame whenever the terminal's size
 * changes (it follows its box). A shell that exits or a dropped connection is not resumed on its
 * own: 'New session' / 'Reconnect' opens another shell.
 */
export function ExecTerminal({ id, uid }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | null>(null);
  const fit = useRef<FitAddon | null>(null);

  const { state, send, restart } = useStream({
    path: TERMINAL_PATH,
    query: { id, uid },
    binary: true,
    reconnect: false,
    onOpen: () => {
      const t = term.current;
      if (!t) return;
      if (fit.current) fitTo(fit.current);
      send(encodeResize(t.cols, t.rows));
      t.focus();
    },
    onMessage: (data) => term.current?.write(decodeOutput(data)),
  });

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const t = new Terminal({
      cursorBlink: true,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      scrollback: 2000,
    });
    const addon = new FitAddon();
    t.loadAddon(addon);
    t.open(box);
    fitTo(addon);
    term.current = t;
    fit.current = addon;
    const input = t.onData((data) => send(encodeInput(data)));
    const resize = t.onResize(({ cols, rows }) => send(encodeResize(cols, rows)));
    const refit = () => fitTo(addon);
    window.addEventListener('resize', refit);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(refit);
    observer?.observe(box);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', refit);
      input.dispose();
      resize.dispose();
      t.dispose();
      term.current = null;
      fit.current = null;
    };
  }, [send]);

  function again() {
    term.current?.reset();
    restart();
  }

  const over = state.status === 'ended' || state.status === 'failed' || state.status === 'refused';

  return (
    <Stack gap={6} h="100%" data-stream-status={state.status}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="xs" c={state.status === 'open' ? 'teal' : 'dimmed'} role="status" aria-label="Terminal status">
          {terminalStatusLine(state)}
        </Text>
        {over && (
          <Button size="compact-xs" variant="light" leftSection={<IconPlugConnected size={12} />} onClick={again}>
            {state.status === 'ended' ? 'New session' : 'Reconnect'}
          </Button>
        )}
      </Group>
      <Box
        ref={host}
        aria-label="Terminal"
        role="group"
        style={{ flex: 1, minHeight: 120, background: '#000', borderRadius: 4, padding: 4, overflow: 'hidden' }}
      />
    </Stack>
  );
}
