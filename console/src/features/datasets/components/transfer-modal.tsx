import { Alert, Badge, Button, Group, List, Modal, Progress, ScrollArea, Stack, Text } from '@mantine/core';

import { formatBytes } from '@/features/datasets/utils/files';
import {
  overallPercent,
  percentOf,
  type TransferBatch,
  type TransferItem,
  type TransferStatus,
} from '@/features/datasets/components/use-transfers';

/** The dialog's texts (spec 001 §8). */
export const TRANSFER_TEXT = {
  uploaded: 'Data Uploaded Successfully!',
  uploadFailed: 'File(s) had an error while uploading.',
  downloaded: 'Download complete',
  downloadFailed: 'File(s) had an error while downloading.',
  cancelled: 'Cancelled: the files that had not finished were not transferred.',
} as const;

const STATUS_LABELS: Record<TransferStatus, string> = {
  queued: 'Waiting',
  running: 'In progress',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const STATUS_COLORS: Record<TransferStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};

function Row({ item }: { item: TransferItem }) {
  const percent = percentOf(item);
  return (
    <Stack gap={4} role="listitem" aria-label={item.name} data-testid="transfer-item" data-status={item.status}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} truncate title={item.name}>
          {item.name}
        </Text>
        <Group gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed">
            {formatBytes(item.total)}
          </Text>
          <Badge size="xs" variant="light" color={STATUS_COLORS[item.status]}>
            {STATUS_LABELS[item.status]}
          </Badge>
          <Text size="xs" w={36} ta="right">
            {percent}%
          </Text>
        </Group>
      </Group>
      <Progress
        value={percent}
        color={STATUS_COLORS[item.status]}
        size="sm"
        animated={item.status === 'running'}
        aria-label={`${item.name} progress`}
      />
    </Stack>
  );
}

/**
 * The upload/download progress dialog (spec 001 §2, §4): one row per file with its bar and
 * percentage, and the whole batch's. While bytes move it cannot be dismissed, only cancelled
 * (which aborts the requests). A batch that completes is closed by its owner; one with failures
 * stays, with 'File(s) had an error while uploading.' and the failed files.
 */
export function TransferModal({ batch, onCancel, onClose }: { batch: TransferBatch | null; onCancel: () => void; onClose: () => void }) {
  const running = !!batch?.running;
  const upload = batch?.kind !== 'download';
  const items = batch?.items ?? [];
  const done = items.filter((i) => i.status === 'done').length;
  const failed = items.filter((i) => i.status === 'failed');
  const overall = overallPercent(items);
  const title = upload ? 'Uploading files' : 'Downloading files';

  return (
    <Modal
      opened={!!batch}
      onClose={() => {
        if (!running) onClose();
      }}
      title={title}
      centered
      size="lg"
      withCloseButton={!running}
      closeOnEscape={!running}
      closeOnClickOutside={!running}
    >
      <Stack gap="md">
        <div>
          <Group justify="space-between" mb={4}>
            <Text size="sm" role="status" aria-live="polite">
              {running
                ? `${done} of ${items.length} ${items.length === 1 ? 'file' : 'files'} done`
                : batch?.cancelled
                  ? TRANSFER_TEXT.cancelled
                  : failed.length === 0
                    ? upload
                      ? TRANSFER_TEXT.uploaded
                      : TRANSFER_TEXT.downloaded
                    : `${done} of ${items.length} ${items.length === 1 ? 'file' : 'files'} done`}
            </Text>
            <Text size="sm" fw={600}>
              {overall}%
            </Text>
          </Group>
          <Progress value={overall} size="lg" aria-label="Overall progress" />
        </div>

        {failed.length > 0 && !running && (
          <Alert color="red" variant="light" title={upload ? TRANSFER_TEXT.uploadFailed : TRANSFER_TEXT.downloadFailed} role="alert">
            <List size="sm" spacing={2} aria-label="Failed files">
              {failed.map((f) => (
                <List.Item key={f.id}>
                  <Text span fw={500} size="sm">
                    {f.name}
                  </Text>
                  {f.error ? `: ${f.error}` : ''}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}

        <ScrollArea.Autosize mah={320}>
          <Stack gap="sm" role="list" aria-label="Files">
            {items.map((i) => (
              <Row key={i.id} item={i} />
            ))}
          </Stack>
        </ScrollArea.Autosize>

        <Group justify="flex-end">
          {running ? (
            <Button variant="default" color="red" onClick={onCancel}>
              Cancel
            </Button>
          ) : (
            <Button onClick={onClose}>Close</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
