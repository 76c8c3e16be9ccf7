import { Alert, Button, Code, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconList } from '@tabler/icons-react';

import type { PreviewState } from '@/lib/api/types';

type Props = {
  preview: PreviewState;
  /** A failed preview's last log lines (for execute access), else null. */
  failureLog: string[] | null | undefined;
  /** Opens the logs panel, when the caller may see logs. */
  onOpenLogs?: () => void;
};

/**
 * Why the preview is not running as asked, from what the cluster says: what it waits for
 * ("waiting for a node: 0/2 nodes are available: 1 Insufficient cpu"), or why it failed, with
 * the last lines it printed and a way to its full log.
 */
export function PreviewStatus({ preview, failureLog, onOpenLogs }: Props) {
  if (preview.status === 'starting' && preview.message) {
    return (
      <Alert color="yellow" variant="light" py={6} title="The preview is waiting" role="status">
        {preview.message}
      </Alert>
    );
  }
  if (preview.status !== 'failed') return null;
  return (
    <Alert color="red" variant="light" py={6} title="The preview failed" role="alert">
      <Stack gap={6}>
        <Text size="sm">{preview.message ?? 'The container stopped with an error. See its log.'}</Text>
        {failureLog && failureLog.length > 0 && (
          <ScrollArea.Autosize mah={180} type="auto">
            <Code block aria-label="Last log lines">
              {failureLog.join('\n')}
            </Code>
          </ScrollArea.Autosize>
        )}
        {onOpenLogs && (
          <Group>
            <Button size="xs" variant="light" color="red" leftSection={<IconList size={14} />} onClick={onOpenLogs}>
              Open the logs
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
