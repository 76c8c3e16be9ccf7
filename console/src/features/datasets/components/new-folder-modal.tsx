import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { useCreateFolder } from '@/features/datasets/api/create-folder';
import { ignoreBlank } from '@/features/datasets/utils/files';
import { DATASET_MESSAGES } from '@/features/datasets/utils/messages';
import { notify } from '@/lib/notify';

export const FOLDER_MESSAGES = {
  empty: 'Empty folder name not allowed',
  slash: 'A folder name cannot contain /',
} as const;

/**
 * Creates a folder in the current one (spec 001 §5): the current prefix plus the name plus a
 * slash. A name of only blanks is ignored.
 */
export function NewFolderModal({ datasetId, folder, onClose }: { datasetId: string; folder: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const create = useCreateFolder({
    onSuccess: (r) => {
      notify.success(r.message || DATASET_MESSAGES.folderCreated);
      onClose();
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(FOLDER_MESSAGES.empty);
    if (trimmed.includes('/')) return setError(FOLDER_MESSAGES.slash);
    create.mutate({ id: datasetId, path: folder, name: trimmed });
  }

  return (
    <Modal opened onClose={onClose} title="New folder" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput
            label="Folder name"
            required
            value={name}
            error={error}
            data-autofocus
            onChange={(e) => {
              setName(ignoreBlank(e.currentTarget.value));
              setError(undefined);
            }}
          />
          <Text size="xs" c="dimmed">
            Created in /{folder}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
