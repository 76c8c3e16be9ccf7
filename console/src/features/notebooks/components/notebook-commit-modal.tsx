import { Alert, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { NOT_OPEN_CODE, STALE_NOTEBOOK_CODE, useCommitNotebook } from '@/features/notebooks/api/commit-notebook';
import type { NotebookView } from '@/lib/api/types';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';

/**
 * The commit modal of an open notebook (spec 001 §2, §7): a message, then the notebook as
 * JupyterLab saved it is committed as the user ('Commit successful'). An unchanged notebook is
 * 'Nothing to commit', said here rather than as a failure; without a running JupyterLab the API
 * answers 409 'Open the notebook first: …', and a file changed in git since it was opened is refused
 * (409 `stale_file`), never overwritten.
 */
export function NotebookCommitModal({ notebook, onClose }: { notebook: Pick<NotebookView, 'id' | 'name' | 'path'>; onClose: () => void }) {
  const [message, setMessage] = useState(`Update ${notebook.name}`);
  const [unchanged, setUnchanged] = useState(false);
  const commit = useCommitNotebook({
    onSuccess: (r) => {
      if (r.commit === null) {
        setUnchanged(true);
        return;
      }
      notify.success(r.message || NOTEBOOK_MESSAGES.committed);
      onClose();
    },
  });
  const code = commit.error instanceof ApiError ? commit.error.code : undefined;
  const notOpen = code === NOT_OPEN_CODE;
  const stale = code === STALE_NOTEBOOK_CODE;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (commit.isPending) return;
    setUnchanged(false);
    commit.mutate({ id: notebook.id, message: message.trim() || `Update ${notebook.name}` });
  }

  return (
    <Modal opened onClose={onClose} title="Commit notebook" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <Text size="sm">
            Commits {notebook.path} as JupyterLab last saved it (save it there first: ctrl/cmd-S) to the project’s repository as you.
          </Text>
          <TextInput label="Commit message" data-autofocus value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
          {unchanged && (
            <Alert color="blue" variant="light" role="status" title={NOTEBOOK_MESSAGES.nothingToCommit}>
              The saved notebook is the same as the last commit.
            </Alert>
          )}
          {commit.isError && (
            <Alert
              color={notOpen || stale ? 'orange' : 'red'}
              variant="light"
              role="alert"
              title={notOpen ? NOTEBOOK_MESSAGES.openFirst : stale ? 'The notebook changed in git since it was opened' : undefined}
            >
              {commit.error.message}
              {notOpen && ' Open the notebook, save it, then commit.'}
              {stale && ' Open the notebook again to start from the latest version.'}
            </Alert>
          )}
          <ModalActions submitLabel="Commit" loading={commit.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
