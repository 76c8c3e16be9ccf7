import { ActionIcon, Anchor, Box, Breadcrumbs, Button, Group, Paper, Stack, Table, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { invalidateDatasetFiles } from '@/features/datasets/api/cache';
import { useCreateDataset } from '@/features/datasets/api/create-dataset';
import { FileDropZone } from '@/features/datasets/components/file-drop-zone';
import { uploadJobs } from '@/features/datasets/components/jobs';
import { TRANSFER_TEXT, TransferModal } from '@/features/datasets/components/transfer-modal';
import { useTransfers } from '@/features/datasets/components/use-transfers';
import { formatBytes, ignoreBlank, refusedMessage } from '@/features/datasets/utils/files';
import { DATASET_MESSAGES } from '@/features/datasets/utils/messages';
import { notify } from '@/lib/notify';

/** Adds picked files to the list; a file with the same name replaces the earlier one. */
export function mergeFiles(current: File[], picked: File[]): File[] {
  const byName = new Map(current.map((f) => [f.name, f]));
  for (const f of picked) byName.set(f.name, f);
  return [...byName.values()];
}

/**
 * /datasets/new (spec 001 §2, §5): name (required) and description, files picked or dropped
 * (.csv .json .xml .txt .xlsx .xls). Creates the dataset, uploads each file straight to object
 * storage with the progress dialog, then opens /datasets/{id}.
 */
export function DatasetCreateForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [nameError, setNameError] = useState<string>();
  const [fileError, setFileError] = useState<string>();
  const [createdId, setCreatedId] = useState<string | null>(null);
  const transfers = useTransfers();

  const open = (id: string) => navigate(paths.dataset.getHref(id));

  const create = useCreateDataset();

  async function afterCreate(id: string, message: string, picked: File[]) {
    setCreatedId(id);
    notify.success(message || DATASET_MESSAGES.created);
    if (picked.length === 0) {
      open(id);
      return;
    }
    const outcome = await transfers.start('upload', uploadJobs(id, '', picked));
    // The created dataset's cached details say 0 files.
    invalidateDatasetFiles(queryClient, id);
    if (outcome.ok) {
      notify.success(TRANSFER_TEXT.uploaded);
      transfers.close();
      open(id);
    }
    // Otherwise the dialog stays with what failed; closing it opens the dataset.
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (createdId) {
      open(createdId);
      return;
    }
    if (!name.trim()) {
      setNameError(DATASET_MESSAGES.emptyName);
      return;
    }
    const picked = files;
    create.mutate(
      { name: name.trim(), description: description.trim() },
      { onSuccess: (r) => void afterCreate(r.dataset.id, r.message, picked) },
    );
  }

  const busy = create.isPending || !!transfers.batch?.running;

  return (
    <Stack maw={720}>
      <Stack gap={6}>
        <Box component="nav" aria-label="Breadcrumb">
      <Breadcrumbs>
          <Anchor component={Link} to={paths.datasets.getHref()} size="sm">
            Datasets
          </Anchor>
          <span>Import dataset</span>
        </Breadcrumbs>
      </Box>
        <Title order={2}>Import dataset</Title>
      </Stack>

      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              required
              value={name}
              error={nameError}
              disabled={!!createdId}
              onChange={(e) => {
                setName(ignoreBlank(e.currentTarget.value));
                setNameError(undefined);
              }}
              data-autofocus
            />
            <Textarea
              label="Description"
              description={DATASET_MESSAGES.descriptionOnCreate}
              autosize
              minRows={2}
              value={description}
              disabled={!!createdId}
              onChange={(e) => setDescription(ignoreBlank(e.currentTarget.value))}
            />
            <FileDropZone
              error={fileError}
              onFiles={(picked) => {
                setFiles((f) => mergeFiles(f, picked));
                setFileError(undefined);
              }}
              onRefused={(names) => setFileError(refusedMessage(names))}
            />
            {files.length > 0 && (
              <Table aria-label="Files to upload" verticalSpacing={4}>
                <Table.Tbody>
                  {files.map((f) => (
                    <Table.Tr key={f.name}>
                      <Table.Td>
                        <Text size="sm">{f.name}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {formatBytes(f.size)}
                        </Text>
                      </Table.Td>
                      <Table.Td w={40}>
                        <Tooltip label="Remove">
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label={`Remove ${f.name}`}
                            disabled={busy || !!createdId}
                            onClick={() => setFiles((all) => all.filter((x) => x !== f))}
                          >
                            <IconX size={14} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={paths.datasets.getHref()}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                {createdId ? 'Open dataset' : 'Create dataset'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <TransferModal
        batch={transfers.batch}
        onCancel={transfers.cancel}
        onClose={() => {
          transfers.close();
          if (createdId) open(createdId);
        }}
      />
    </Stack>
  );
}
