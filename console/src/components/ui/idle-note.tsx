import { Group, Text, Tooltip } from '@mantine/core';
import { IconZzz } from '@tabler/icons-react';

import type { components } from '@/lib/api/schema';

type Shutdown = components['schemas']['Shutdown'];

/** `stops_at` (Unix seconds) as the local time of day, e.g. 16:42. */
export function clockTime(stopsAt: number): string {
  return new Date(stopsAt * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

const WHAT = {
  preview: {
    line: (at: string) => `Stops at ${at} if unused`,
    why: (minutes: number) =>
      `Your organization stops previews after ${minutes} minutes without use (a request to the web view, an open terminal). Run starts it again.`,
  },
  notebook: {
    line: (at: string) => `JupyterLab stops at ${at} if unused`,
    why: (minutes: number) =>
      `Your organization stops notebook servers after ${minutes} minutes without use (an open notebook counts). What JupyterLab saved stays for the next open.`,
  },
  app: {
    line: (at: string) => `Sleeps at ${at} if unused`,
    why: (minutes: number) =>
      `Your organization puts apps to sleep after ${minutes} minutes without a visit. The next visit wakes it: it starts while the visitor waits.`,
  },
} as const;

/**
 * When a running preview or app stops if nobody uses it (the organization's idle shutdown), with
 * what counts as use on hover; nothing without an idle time.
 */
export function IdleNote({ idle, kind }: { idle: Shutdown | null | undefined; kind: keyof typeof WHAT }) {
  if (!idle) return null;
  const what = WHAT[kind];
  const line = what.line(clockTime(idle.stops_at));
  return (
    <Tooltip label={what.why(idle.idle_minutes)} multiline w={300}>
      <Group gap={4} wrap="nowrap" aria-label={line} tabIndex={0}>
        <IconZzz size={14} aria-hidden />
        <Text size="xs" c="dimmed">
          {line}
        </Text>
      </Group>
    </Tooltip>
  );
}
