import { Box, Group, NavLink, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconFile, IconFilePlus, IconFolder, IconPhoto, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { GatedActionIcon } from '@/components/ui/gated-button';
import { QueryError } from '@/components/ui/query-error';
import { useDeleteFile } from '@/features/projects/api/delete-file';
import { useRepoFolder } from '@/features/projects/api/repo-contents';
import type { Gate } from '@/features/projects/utils/access';
import { isImageFile, parentFolder } from '@/features/projects/utils/files';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import type { RepoContentItem } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/** Folders first, then files, each by name. */
export function sortItems(items: readonly RepoContentItem[]): RepoContentItem[] {
  return [...items].sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'dir' ? -1 : 1));
}

function DeleteFileDialog({ projectId, item, onClose, onDeleted }: { projectId: string; item: RepoContentItem; onClose: () => void; onDeleted: (path: string) => void }) {
  const del = useDeleteFile({
    onSuccess: (r) => {
      notify.success(r.message || PROJECT_MESSAGES.fileDeleted);
      onDeleted(item.path);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={`Are you sure you want to delete ${item.name}?`}
      detail="The file is removed in a commit to the project’s repository."
      error={del.error?.message}
      loading={del.isPending}
      onConfirm={() => del.mutate({ project: projectId, filePath: item.path, sha: item.sha, message: `Delete ${item.path}` })}
      onClose={onClose}
    />
  );
}

type Props = {
  projectId: string;
  /** The folder shown ('' is the root). */
  folder: string;
  onFolder: (folder: string) => void;
  onOpen: (item: RepoContentItem) => void;
  onAdd: () => void;
  onDeleted: (path: string) => void;
  activePath: string | null;
  /** Adding and deleting files need edit access. */
  filesGate: Gate;
};

/**
 * The project's files (spec 001 §2 "Left panel"): one folder of the repository at its branch head,
 * with back (to the parent folder), refresh, add (a new file through the commit modal) and delete
 * per file. Images open in a new tab.
 */
export function FileNavigator({ projectId, folder, onFolder, onOpen, onAdd, onDeleted, activePath, filesGate }: Props) {
  const listing = useRepoFolder(projectId, folder);
  const [deleting, setDeleting] = useState<RepoContentItem | null>(null);
  const items = sortItems(listing.data ?? []);

  return (
    <Stack gap={4} h="100%" miw={0}>
      <Group gap={4} justify="space-between" wrap="nowrap">
        <Text size="xs" fw={600} tt="uppercase" c="dimmed" truncate title={folder || '/'}>
          {folder ? `/${folder}` : 'Files'}
        </Text>
        <Group gap={2} wrap="nowrap">
          <GatedActionIcon
            label="Back"
            variant="subtle"
            size="sm"
            blocked={folder ? null : 'You are at the top folder'}
            onClick={() => onFolder(parentFolder(folder))}
          >
            <IconArrowLeft size={15} />
          </GatedActionIcon>
          <GatedActionIcon label="Refresh" variant="subtle" size="sm" loading={listing.isFetching} onClick={() => void listing.refetch()}>
            <IconRefresh size={15} />
          </GatedActionIcon>
          <GatedActionIcon label="Add file" variant="subtle" size="sm" blocked={filesGate} onClick={onAdd}>
            <IconFilePlus size={15} />
          </GatedActionIcon>
        </Group>
      </Group>
      {listing.isPending && (
        <Stack gap={4} role="status" aria-label="Loading files">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} h={22} />
          ))}
        </Stack>
      )}
      {listing.isError && <QueryError error={listing.error} onRetry={() => void listing.refetch()} />}
      {listing.isSuccess && items.length === 0 && (
        <Text size="xs" c="dimmed" p="xs">
          This folder is empty.
        </Text>
      )}
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Box component="ul" aria-label="Project files" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => {
            const Icon = item.type === 'dir' ? IconFolder : isImageFile(item.path) ? IconPhoto : IconFile;
            return (
              <Group component="li" key={item.path} gap={0} wrap="nowrap">
                <NavLink
                  component="button"
                  type="button"
                  label={item.name}
                  active={item.path === activePath}
                  leftSection={<Icon size={15} />}
                  onClick={() => (item.type === 'dir' ? onFolder(item.path) : onOpen(item))}
                  py={3}
                  style={{ flex: 1, minWidth: 0 }}
                />
                {item.type === 'file' && (
                  <GatedActionIcon label={`Delete ${item.name}`} variant="subtle" color="red" size="xs" blocked={filesGate} onClick={() => setDeleting(item)}>
                    <IconTrash size={13} />
                  </GatedActionIcon>
                )}
              </Group>
            );
          })}
        </Box>
      </ScrollArea>
      {deleting && <DeleteFileDialog projectId={projectId} item={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />}
    </Stack>
  );
}
