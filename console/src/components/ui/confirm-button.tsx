import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';

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
      <ConfirmDialog
        opened={opened}
        question={question}
        confirmLabel={confirmLabel}
        onClose={close}
        onConfirm={() => {
          close();
          onConfirm();
        }}
      />
    </>
  );
}
