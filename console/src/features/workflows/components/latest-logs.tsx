import { Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileText } from '@tabler/icons-react';
import { useState } from 'react';

import { GatedButton } from '@/components/ui/gated-button';
import { QueryError } from '@/components/ui/query-error';
import { getLatestLogs, logsAsText, useLatestLogs } from '@/features/workflows/api/get-latest-logs';
import { LATEST_LOGS_LIMIT } from '@/config/constants';
import { notify, messageOf } from '@/lib/notify';

/** Saves `text` as a file through the browser. */
function saveText(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * The latest logs (every try of the newest 5 runs, spec 001 §9) in a dialog, and "download all"
 * (limit 'all') as a text file. Logs need execute access: `blocked` says why they may not be read.
 */
export function LatestLogs({ workflowId, workflowName, blocked }: { workflowId: string; workflowName: string; blocked?: string | null }) {
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const logs = useLatestLogs(workflowId, { enabled: open });

  async function downloadAll() {
    setDownloading(true);
    try {
      saveText(logsAsText(await getLatestLogs(workflowId, 'all')), `${workflowName}-logs.txt`);
    } catch (e) {
      notify.error(messageOf(e));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <>
      <Group gap="xs">
        <GatedButton variant="default" size="xs" leftSection={<IconFileText size={14} />} blocked={blocked} onClick={() => setOpen(true)}>
          Latest logs
        </GatedButton>
        <GatedButton variant="default" size="xs" leftSection={<IconDownload size={14} />} blocked={blocked} loading={downloading} onClick={() => void downloadAll()}>
          Download all
        </GatedButton>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Logs of the latest ${LATEST_LOGS_LIMIT} runs`} size="xl" centered>
        {logs.isPending ? (
          <Loader size="sm" aria-label="Loading logs" />
        ) : logs.isError ? (
          <QueryError error={logs.error} onRetry={() => logs.refetch()} />
        ) : logs.data.length === 0 ? (
          <Text c="dimmed">No logs yet: run the workflow first.</Text>
        ) : (
          <Stack>
            <Code block data-testid="latest-logs" style={{ whiteSpace: 'pre-wrap', maxHeight: 520, overflow: 'auto' }}>
              {logsAsText(logs.data)}
            </Code>
          </Stack>
        )}
      </Modal>
    </>
  );
}
