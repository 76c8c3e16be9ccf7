import { Alert, Button, Code, Group, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { IconList, IconPlayerPlay } from '@tabler/icons-react';

import type { InsightView } from '@/lib/api/types';

export const NOT_RUNNING = 'This application is not running';
export const STARTING = 'Starting your app…';

type Props = {
  app: InsightView;
  /** A failed app's last log lines (execute access), else null. */
  failureLog: string[] | null | undefined;
  /** Whether the caller may start it (execute access, not external). */
  runnable: boolean;
  starting: boolean;
  onStart: () => void;
  /** Opens the side console's logs (executors of an app with a container). */
  onOpenLogs?: () => void;
};

/**
 * What the app page shows in the frame's place while the app does not serve: it is starting (and
 * what it waits for, as the cluster says), it failed (why, its last log lines and a way to its
 * logs, and Start again), or it is stopped.
 */
export function AppStatePanel({ app, failureLog, runnable, starting, onStart, onOpenLogs }: Props) {
  if (app.status === 'starting' || app.status === 'rendering') {
    return (
      <Paper withBorder p="xl">
        <Stack align="center" gap="sm" role="status" aria-label={STARTING}>
          <Loader size="sm" />
          <Text fw={600}>{app.status === 'rendering' ? 'Rendering the report…' : STARTING}</Text>
          <Text size="sm" c="dimmed" ta="center" maw={520}>
            {app.status_message ?? 'It opens here by itself as soon as it answers.'}
          </Text>
        </Stack>
      </Paper>
    );
  }
  if (app.status === 'failed') {
    return (
      <Paper withBorder p="xl">
        <Alert color="red" variant="light" title={app.app_type === 'report' ? 'The report failed to render' : 'The app failed'} role="alert">
          <Stack gap="xs">
            <Text size="sm">{app.status_message ?? 'Its container stopped with an error. See its logs.'}</Text>
            {failureLog && failureLog.length > 0 && (
              <ScrollArea.Autosize mah={220} type="auto">
                <Code block aria-label="Last log lines">
                  {failureLog.join('\n')}
                </Code>
              </ScrollArea.Autosize>
            )}
            <Group gap="xs">
              {onOpenLogs && (
                <Button size="xs" variant="light" color="red" leftSection={<IconList size={14} />} onClick={onOpenLogs}>
                  Open the logs
                </Button>
              )}
              {runnable && (
                <Button size="xs" variant="default" leftSection={<IconPlayerPlay size={14} />} loading={starting} onClick={onStart}>
                  Start again
                </Button>
              )}
            </Group>
          </Stack>
        </Alert>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="sm">
        <Text fw={600}>{app.app_type === 'application' ? NOT_RUNNING : 'This report has no output yet'}</Text>
        {runnable && (
          <Button leftSection={<IconPlayerPlay size={16} />} loading={starting} onClick={onStart}>
            Start
          </Button>
        )}
        {!runnable && app.app_type === 'application' && (
          <Text size="sm" c="dimmed">
            Ask its owner or an executor to start it.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
