import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

export const UNSAVED_CHANGES_TITLE = 'You have unsaved changes';
export const STAY_LABEL = 'Stay on this page';
export const LEAVE_LABEL = 'Leave the page';

const DEFAULT_MESSAGE = 'Your changes are not saved yet. If you leave now they are lost.';

/**
 * The spec's confirm dialog 'You have unsaved changes' (spec 000 §2); `message` words the
 * question where a screen has its own (the project workspace, spec 001 §2).
 */
export function UnsavedChangesDialog({
  opened,
  onStay,
  onLeave,
  message = DEFAULT_MESSAGE,
}: {
  opened: boolean;
  onStay: () => void;
  onLeave: () => void;
  message?: string;
}) {
  return (
    <Modal opened={opened} onClose={onStay} title={UNSAVED_CHANGES_TITLE} centered zIndex={400}>
      <Stack>
        <Text size="sm">{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onStay}>
            {STAY_LABEL}
          </Button>
          <Button color="red" onClick={onLeave}>
            {LEAVE_LABEL}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * While `dirty`, navigation inside the console is held (react-router's blocker) until the user
 * answers the dialog, and closing or reloading the tab asks the browser's own question.
 * Render the returned element once.
 */
export function UnsavedChangesGuard({ dirty, message }: { dirty: boolean; message?: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return (
    <UnsavedChangesDialog
      message={message}
      opened={blocker.state === 'blocked'}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}
