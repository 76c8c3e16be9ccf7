import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * 'Please confirm' with the spec's question (spec 001 §8 "Confirm texts"), what it is about, and
 * why the last try failed; Cancel or the confirming button.
 */
export function ConfirmDialog({
  opened = true,
  question,
  detail,
  error,
  confirmLabel = 'Delete',
  loading,
  onConfirm,
  onClose,
}: {
  opened?: boolean;
  question: string;
  detail?: ReactNode;
  error?: string | null;
  confirmLabel?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Please confirm" centered>
      <Stack>
        <Text>{question}</Text>
        {detail && (
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
