import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';

import { type LogEntity, useSummarizeLog } from '@/features/assistant/api/summarize-log';
import { messageOf, notify } from '@/lib/notify';

/** Spec 001 §8. */
export const SUMMARY_ERROR = 'Could not retrieve log summary.';

type Props = {
  /** The project or application the log is of. */
  id: string;
  entity: LogEntity;
  /** The log lines shown now. */
  lines: string[];
};

/**
 * Log summary (spec 001 §4): the button reads 'Loading...' while the summary is written, and the
 * summary appears in a closable box above the log (the log viewer's tools row); a failure says 'Could not retrieve log summary.'
 * with the server's reason under the button.
 */
export function LogSummaryButton({ id, entity, lines }: Props) {
  const summarize = useSummarizeLog(id, entity);
  const [summary, setSummary] = useState<string | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const empty = lines.length === 0;

  function run() {
    setReason(null);
    summarize.mutate(lines.join('\n'), {
      onSuccess: (r) => setSummary(r.summary),
      onError: (e) => {
        setReason(messageOf(e));
        notify.error(SUMMARY_ERROR);
      },
    });
  }

  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        leftSection={<IconSparkles size={12} />}
        disabled={empty || summarize.isPending}
        title={empty ? 'No log lines to summarise yet' : 'Summarise the log with Ludis AI'}
        onClick={run}
      >
        {summarize.isPending ? 'Loading...' : 'Summarize'}
      </Button>
      {reason && (
        <Text size="xs" c="red" role="alert" aria-label="Why there is no summary" lineClamp={2}>
          {reason}
        </Text>
      )}
      </Group>
      {summary !== null && (
        <Alert
          color="indigo"
          variant="light"
          title="Log summary"
          withCloseButton
          closeButtonLabel="Close the summary"
          onClose={() => setSummary(null)}
          aria-label="Log summary"
          py={6}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {summary}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
