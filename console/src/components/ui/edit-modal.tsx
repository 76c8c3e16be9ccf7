import { Modal, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { UnsavedChangesDialog, UnsavedChangesGuard } from '@/components/ui/unsaved-changes';

type Props = {
  title: string;
  /** The form differs from what was loaded. */
  dirty: boolean;
  saving: boolean;
  /** Saved: leaving no longer asks. */
  saved: boolean;
  /** Save waits (an image upload runs). */
  waiting?: boolean;
  /** Why the last save failed, under `errorTitle`. */
  error: string | null;
  errorTitle: string;
  onSubmit: (e: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
};

/**
 * The frame of an entity's edit modal (spec 000 §2, §5): the fields, the failed update, Cancel and
 * Save. Closing it or leaving the page with unsaved changes asks 'You have unsaved changes' first.
 */
export function EditModal({ title, dirty, saving, saved, waiting, error, errorTitle, onSubmit, onClose, children }: Props) {
  const [confirmClose, setConfirmClose] = useState(false);

  function requestClose() {
    if (dirty && !saving) setConfirmClose(true);
    else onClose();
  }

  return (
    <>
      <Modal opened onClose={requestClose} title={title} size="lg" centered>
        <form noValidate onSubmit={onSubmit}>
          <Stack>
            {children}
            <ModalActions error={error} errorTitle={errorTitle} submitLabel="Save" loading={saving} disabled={waiting} onCancel={requestClose} />
          </Stack>
        </form>
      </Modal>
      <UnsavedChangesDialog
        opened={confirmClose}
        onStay={() => setConfirmClose(false)}
        onLeave={() => {
          setConfirmClose(false);
          onClose();
        }}
      />
      <UnsavedChangesGuard dirty={dirty && !saved} />
    </>
  );
}
