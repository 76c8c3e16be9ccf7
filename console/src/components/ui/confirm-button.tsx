import { Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

type Props = ButtonProps & {
  children: ReactNode;
  question: string;
  confirmLabel?: string;
  onConfirm: () => void;
  loading?: boolean;
};

/** A button that asks first (the spec's confirm texts). */
export function ConfirmButton({ children, question, confirmLabel = 'Delete', onConfirm, loading, ...button }: Props) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button {...button} loading={loading} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title="Please confirm" centered>
        <Stack>
          <Text>{question}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                close();
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
