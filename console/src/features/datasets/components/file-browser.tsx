import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconDownload, IconEye, IconFile, IconFolder, IconFolderPlus, IconLink, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { invalidateDatasetFiles } from '@/features/datasets/api/cache';
import { useDeleteObjects } from '@/features/datasets/api/delete-objects';
import { useFolderPage } from '@/features/datasets/api/list-files';
import type { DatasetView, ListFilesResponse } from '@/lib/api/types';
import { AccessUrlModal } from '@/features/datasets/components/access-url-modal';
import { FilePicker, type FilePickerHandle, useFileDrop } from '@/features/datasets/components/file-drop-zone';
import { GatedButton } from '@/components/ui/gated-button';
import { downloadJobs, uploadJobs } from '@/features/datasets/components/jobs';
import { NewFolderModal } from '@/features/datasets/components/new-folder-modal';
import { Pager } from '@/components/ui/pager';
import { PreviewModal } from '@/features/datasets/components/preview-modal';
import { TRANSFER_TEXT, TransferModal } from '@/features/datasets/components/transfer-modal';
import { useTransfers } from '@/features/datasets/components/use-transfers';
import { canEdit, EDIT_ACCESS_NEEDED, hidesFileActions } from '@/features/datasets/utils/access';
import { baseName, formatBytes, isAcceptedFile, refusedMessage } from '@/features/datasets/utils/files';
import { DATASET_MESSAGES } from '@/features/datasets/utils/messages';
import { notify } from '@/lib/notify';
import { useDates } from '@/lib/dates';

export const FILE_DELETE_CONFIRM = 'Are you sure you want to delete the selected file(s)?';
const SELECT_FIRST = 'Select files or folders first';

export type Entry = { kind: 'folder'; path: string; name: string } | { kind: 'file'; path: string; name: string; size: number; modified: string | null };

/** A listing page as rows: its folders, then its files (markers and the folder itself left out). */
export function entriesOf(page: ListFilesResponse | undefined, folder: string): Entry[] {
  if (!page) return [];
  const folders: Entry[] = (page.CommonPrefixes ?? [])
    .filter((p) => p.Prefix && p.Prefix !== folder)
    .map((p) => ({ kind: 'folder', path: p.Prefix, name: baseName(p.Prefix) }));
  const files: Entry[] = (page.Contents ?? [])
    .filter((o) => o.Key && o.Key !== folder && !o.Key.endsWith('/'))
    .map((o) => ({ kind: 'file', path: o.Key, name: baseName(o.Key), size: o.Size, modified: o.LastModified ?? null }));
  return [...folders, ...files];
}


function DeleteFilesDialog({ entries, pending, onConfirm, onClose }: { entries: Entry[]; pending: boolean; onConfirm: () => void; onClose: () => void }) {
  const folders = entries.some((e) => e.kind === 'folder');
  return (
    <Modal opened onClose={onClose} title="Please confirm" centered>
      <Stack>
        <Text>{FILE_DELETE_CONFIRM}</Text>
        <List size="sm" spacing={2}>
          {entries.map((e) => (
            <List.Item key={e.path}>{e.kind === 'folder' ? `${e.name}/` : e.name}</List.Item>
          ))}
        </List>
        {folders && (
          <Text size="sm" c="dimmed">
            A folder is deleted with everything in it.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RowAction({ label, icon, onClick, color }: { label: string; icon: React.ReactNode; onClick: () => void; color?: string }) {
  const [verb] = label.split(' ');
  return (
    <Tooltip label={verb === 'Access' ? 'Access URL' : verb}>
      <ActionIcon variant="subtle" color={color ?? 'gray'} aria-label={label} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

type Dialog = { kind: 'preview' | 'access'; key: string } | { kind: 'folder' } | { kind: 'delete'; entries: Entry[] } | null;

/**
 * The files and folders of one folder of a dataset (spec 001 §2): pages of the listing (Next and
 * Prev keep the continuation tokens), open a folder, upload into it, new folder, delete the
 * selected entries, and per file preview, download and the access URLs.
 * View access: upload, new folder and delete are disabled ('You need edit access'). Shared and
 * sample datasets hide download, delete and access-URL actions on the rows (spec 001 §6).
 */
export function FileBrowser({ dataset, folder }: { dataset: DatasetView; folder: string }) {
  const dates = useDates();
  const queryClient = useQueryClient();
  const id = dataset.id;
  const editable = canEdit(dataset);
  const hideActions = hidesFileActions(dataset);
  const [tokens, setTokens] = useState<(string | null)[]>([null]);
  const token = tokens.at(-1) ?? null;
  const listing = useFolderPage(id, folder, token);
  const entries = entriesOf(listing.data, folder);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const transfers = useTransfers();
  const picker = useRef<FilePickerHandle>(null);

  const del = useDeleteObjects(id, {
    onSuccess: () => {
      notify.success(DATASET_MESSAGES.filesDeleted);
      setSelected(new Set());
      setDialog(null);
    },
  });

  const selectedEntries = entries.filter((e) => selected.has(e.path));
  const allSelected = entries.length > 0 && selectedEntries.length === entries.length;

  function toggle(path: string, on: boolean) {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });
  }

  function goPage(next: (string | null)[]) {
    setTokens(next);
    setSelected(new Set());
  }

  async function upload(files: File[]) {
    if (!editable || files.length === 0) return;
    const outcome = await transfers.start('upload', uploadJobs(id, folder, files));
    invalidateDatasetFiles(queryClient, id);
    if (outcome.ok) {
      notify.success(TRANSFER_TEXT.uploaded);
      transfers.close();
    }
  }

  async function download(entry: Extract<Entry, { kind: 'file' }>) {
    const outcome = await transfers.start('download', downloadJobs(id, [{ key: entry.path, size: entry.size }]));
    if (outcome.ok) {
      notify.success(TRANSFER_TEXT.downloaded);
      transfers.close();
    }
  }

  const refused = (names: string[]) => notify.error(refusedMessage(names));
  const { over, handlers } = useFileDrop((f) => void upload(f), refused, editable && !transfers.batch);
  const editBlock = editable ? null : EDIT_ACCESS_NEEDED;
  const busy = !!transfers.batch?.running;

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      {...handlers}
      style={over ? { outline: '2px dashed var(--mantine-color-indigo-5)', background: 'var(--mantine-color-indigo-0)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>Files</Text>
          <Group gap="xs">
            <GatedButton blocked={editBlock} size="xs" leftSection={<IconUpload size={14} />} loading={busy} onClick={() => picker.current?.open()}>
              Upload files
            </GatedButton>
            <GatedButton blocked={editBlock} size="xs" variant="default" leftSection={<IconFolderPlus size={14} />} onClick={() => setDialog({ kind: 'folder' })}>
              New folder
            </GatedButton>
            <GatedButton
              blocked={editBlock ?? (selectedEntries.length === 0 ? SELECT_FIRST : null)}
              size="xs"
              variant="default"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={() => setDialog({ kind: 'delete', entries: selectedEntries })}
            >
              Delete
            </GatedButton>
          </Group>
          <FilePicker ref={picker} label="Files to upload" onFiles={(f) => void upload(f)} onRefused={refused} />
        </Group>

        {listing.isPending && (
          <Stack gap={6} role="status" aria-label="Loading files">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} h={32} />
            ))}
          </Stack>
        )}
        {listing.isError && <QueryError error={listing.error} onRetry={() => listing.refetch()} />}
        {listing.isSuccess && entries.length === 0 && (
          <EmptyState
            title={tokens.length > 1 ? 'No more files' : 'This folder is empty'}
            hint={editable ? 'Upload files (or drop them here), or create a folder.' : undefined}
          />
        )}
        {entries.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover aria-label="Files and folders" verticalSpacing={6} style={{ opacity: listing.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={36}>
                    <Checkbox
                      aria-label="Select all"
                      checked={allSelected}
                      indeterminate={selectedEntries.length > 0 && !allSelected}
                      onChange={(e) => setSelected(e.currentTarget.checked ? new Set(entries.map((x) => x.path)) : new Set())}
                    />
                  </Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th>Last modified</Table.Th>
                  <Table.Th data-row-actions>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((e) => (
                  <Table.Tr key={e.path} data-testid="file-row" data-kind={e.kind} data-name={e.name} bg={selected.has(e.path) ? 'var(--mantine-color-indigo-light)' : undefined}>
                    <Table.Td>
                      <Checkbox aria-label={`Select ${e.name}`} checked={selected.has(e.path)} onChange={(ev) => toggle(e.path, ev.currentTarget.checked)} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        {e.kind === 'folder' ? (
                          <>
                            <IconFolder size={16} color="var(--mantine-color-yellow-7)" aria-hidden />
                            <Anchor component={Link} to={paths.dataset.getHref(id, e.path)} size="sm" fw={500}>
                              {e.name}
                            </Anchor>
                          </>
                        ) : (
                          <>
                            <IconFile size={16} color="var(--mantine-color-dimmed)" aria-hidden />
                            <Text size="sm">{e.name}</Text>
                          </>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {e.kind === 'file' ? formatBytes(e.size) : 'Folder'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {e.kind === 'file' ? dates.dateTime(e.modified) : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td data-row-actions>
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        {e.kind === 'file' && isAcceptedFile(e.name) && (
                          <RowAction label={`Preview ${e.name}`} icon={<IconEye size={16} />} onClick={() => setDialog({ kind: 'preview', key: e.path })} />
                        )}
                        {e.kind === 'file' && !hideActions && (
                          <>
                            <RowAction label={`Download ${e.name}`} icon={<IconDownload size={16} />} onClick={() => void download(e)} />
                            <RowAction label={`Access URL for ${e.name}`} icon={<IconLink size={16} />} onClick={() => setDialog({ kind: 'access', key: e.path })} />
                          </>
                        )}
                        {!hideActions && editable && (
                          <RowAction label={`Delete ${e.name}`} color="red" icon={<IconTrash size={16} />} onClick={() => setDialog({ kind: 'delete', entries: [e] })} />
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {listing.isSuccess && (tokens.length > 1 || listing.data.IsTruncated) && (
          <Pager
            label="File pages"
            page={tokens.length}
            hasPrev={tokens.length > 1}
            hasNext={!!listing.data.IsTruncated && !!listing.data.NextContinuationToken}
            loading={listing.isPlaceholderData}
            onPrev={() => goPage(tokens.slice(0, -1))}
            onNext={() => goPage([...tokens, listing.data.NextContinuationToken ?? null])}
          />
        )}
      </Stack>

      {dialog?.kind === 'preview' && <PreviewModal datasetId={id} fileKey={dialog.key} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'access' && <AccessUrlModal datasetId={id} fileKey={dialog.key} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'folder' && <NewFolderModal datasetId={id} folder={folder} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && (
        <DeleteFilesDialog
          entries={dialog.entries}
          pending={del.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() => del.mutate(dialog.entries.map((e) => e.path))}
        />
      )}
      <TransferModal
        batch={transfers.batch}
        onCancel={transfers.cancel}
        onClose={() => {
          transfers.close();
          invalidateDatasetFiles(queryClient, id);
        }}
      />
    </Paper>
  );
}
