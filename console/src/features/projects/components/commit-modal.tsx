import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { STALE_FILE_CODE, useCommitFile } from '@/features/projects/api/commit-file';
import type { OpenFile } from '@/features/projects/components/open-files';
import { baseName, checkFilePath, encodeText, joinPath } from '@/features/projects/utils/files';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';

/** What is committed: an open file's text, or a new empty file in a folder. */
export type CommitTarget = { kind: 'file'; file: OpenFile } | { kind: 'new'; folder: string };

type Props = {
  projectId: string;
  target: CommitTarget;
  onClose: () => void;
  /** The commit went in: `path` is at blob `sha` with `text`. */
  onCommitted: (commit: { path: string; sha: string; text: string; isNew: boolean }) => void;
  /** Load the file again from the branch head (after the stale refusal). */
  onReload: (path: string) => void;
};

/**
 * The commit modal (spec 001 §4): a message for the open file's changes, or a new file with a
 * typed name (Enter submits). A file that changed since it was opened is refused (409
 * `stale_file`); the modal says so and offers to load the latest version.
 */
export function CommitModal({ projectId, target, onClose, onCommitted, onReload }: Props) {
  const isNew = target.kind === 'new';
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [message, setMessage] = useState(isNew ? '' : `Update ${baseName(target.file.path)}`);
  const commit = useCommitFile();
  const stale = commit.error instanceof ApiError && commit.error.code === STALE_FILE_CODE;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (commit.isPending) return;
    let path: string;
    let text: string;
    if (target.kind === 'new') {
      const checked = checkFilePath(joinPath(target.folder, name.trim()));
      if ('error' in checked || !name.trim()) {
        setNameError('error' in checked ? checked.error : PROJECT_MESSAGES.emptyFileName);
        return;
      }
      path = checked.path;
      text = '';
    } else {
      path = target.file.path;
      text = target.file.text;
    }
    const summary = message.trim() || `${isNew ? 'Add' : 'Update'} ${baseName(path)}`;
    commit.mutate(
      { project: projectId, filePath: path, contents: encodeText(text), message: summary, ...(target.kind === 'file' ? { sha: target.file.sha } : {}) },
      {
        onSuccess: (r) => {
          notify.success(r.message || PROJECT_MESSAGES.committed);
          onCommitted({ path, sha: r.content.sha, text, isNew });
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title={isNew ? 'New file' : 'Commit changes'} centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          {target.kind === 'new' ? (
            <TextInput
              label="File name"
              description={target.folder ? `In ${target.folder}/` : 'In the repository root'}
              placeholder="app.py"
              required
              data-autofocus
              value={name}
              error={nameError}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setNameError(null);
              }}
            />
          ) : (
            <Text size="sm">
              Commits <Code>{target.file.path}</Code> to the project’s repository as you.
            </Text>
          )}
          <TextInput
            label="Commit message"
            placeholder={isNew ? 'Add a file' : undefined}
            data-autofocus={!isNew || undefined}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
          />
          {commit.isError && (
            <Alert color={stale ? 'orange' : 'red'} variant="light" role="alert" title={stale ? 'The file changed' : undefined}>
              <Stack gap="xs">
                <Text size="sm">{commit.error.message}</Text>
                {stale && target.kind === 'file' && (
                  <Group>
                    <Button
                      size="xs"
                      color="orange"
                      variant="light"
                      onClick={() => {
                        onReload(target.file.path);
                        onClose();
                      }}
                    >
                      Reload the latest version (drops your changes)
                    </Button>
                  </Group>
                )}
              </Stack>
            </Alert>
          )}
          <ModalActions submitLabel={isNew ? 'Create file' : 'Commit'} loading={commit.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
