import { ActionIcon, Anchor, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { IdleNote } from '@/components/ui/idle-note';
import { IconFileImport, IconFilePlus, IconPencil, IconSend, IconShare, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { GatedButton } from '@/components/ui/gated-button';
import { LoadingRows } from '@/components/ui/loading-rows';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import type { JupyterState, LegacyProjectView, NotebookView } from '@/lib/api/types';
import { useDeleteNotebook } from '@/features/notebooks/api/delete-notebook';
import { useLegacyProject } from '@/features/notebooks/api/get-legacy-project';
import { useProjectNotebooks } from '@/features/notebooks/api/get-project-notebooks';
import { LanguageAvatar } from '@/features/notebooks/components/language-avatar';
import type { PublishDialog } from '@/features/notebooks/components/slots';
import { canEdit, ownerName } from '@/features/notebooks/utils/access';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { useDates } from '@/lib/dates';
import { notify } from '@/lib/notify';

/** What the import passes in navigation state: the notebook to highlight. */
export type ImportedState = { notebookId?: string };

export const JUPYTER_STATUS_COLORS: Record<JupyterState['status'], string> = { running: 'teal', starting: 'yellow', failed: 'red', stopped: 'gray' };

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** Overview, created by, created date, status and tags (spec 001 §2). */
function Overview({ project, jupyter }: { project: LegacyProjectView; jupyter: JupyterState }) {
  const dates = useDates();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Overview">
      <Stack>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <LanguageAvatar language={project.language} size={44} />
          <Stack gap={2}>
            <Title order={4}>Overview</Title>
            <Text size="sm">{project.description || 'No description.'}</Text>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Fact label="Created by">
            <Text size="sm">{ownerName(project)}</Text>
            {project.author && project.author !== ownerName(project) && (
              <Text size="xs" c="dimmed">
                Author: {project.author}
              </Text>
            )}
          </Fact>
          <Fact label="Created">
            <Text size="sm">{dates.date(project.created_at)}</Text>
          </Fact>
          <Fact label="Status">
            <Badge variant="dot" color={JUPYTER_STATUS_COLORS[jupyter.status] ?? 'gray'} aria-label="JupyterLab status">
              {jupyter.status}
            </Badge>
            {jupyter.running && <IdleNote idle={jupyter.idle} kind="notebook" />}
            {project.status_message && (
              <Text size="xs" c="dimmed">
                {project.status_message}
              </Text>
            )}
          </Fact>
          <Fact label="Tags">
            {project.tags.length > 0 ? (
              <Group gap={4}>
                {project.tags.map((t) => (
                  <Badge key={t} size="sm" variant="light">
                    {t}
                  </Badge>
                ))}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                No tags
              </Text>
            )}
          </Fact>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

const HIGHLIGHT = 'var(--mantine-color-yellow-light)';
/** The sticky actions cell covers what scrolls under it: the highlight over the page's colour. */
const HIGHLIGHT_OPAQUE = `linear-gradient(${HIGHLIGHT}, ${HIGHLIGHT}), var(--mantine-color-body)`;

function NotebookRow({
  notebook,
  editable,
  highlighted,
  onDelete,
}: {
  notebook: NotebookView;
  editable: boolean;
  highlighted: boolean;
  onDelete: (n: NotebookView) => void;
}) {
  const dates = useDates();
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [highlighted]);
  return (
    <Table.Tr ref={ref} data-highlighted={highlighted || undefined} style={highlighted ? { background: HIGHLIGHT } : undefined}>
      <Table.Td>
        <Group gap="xs">
          <Anchor component={Link} to={paths.notebook.getHref(notebook.id)} fw={500}>
            {notebook.name}
          </Anchor>
          {highlighted && (
            <Badge size="xs" color="yellow">
              New
            </Badge>
          )}
        </Group>
        {notebook.description && (
          <Text size="xs" c="dimmed">
            {notebook.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {notebook.path}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {dates.relative(notebook.updated_at)}
        </Text>
      </Table.Td>
      <Table.Td data-row-actions style={highlighted ? { background: HIGHLIGHT_OPAQUE } : undefined}>
        {editable && (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" color="gray" component={Link} to={paths.notebookEdit.getHref(notebook.id)} aria-label={`Edit ${notebook.name}`}>
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${notebook.name}`} onClick={() => onDelete(notebook)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function DeleteNotebookDialog({ notebook, onClose }: { notebook: NotebookView; onClose: () => void }) {
  const del = useDeleteNotebook({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.notebookDeleted);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={NOTEBOOK_MESSAGES.deleteNotebookConfirm}
      detail={`${notebook.name} and its file ${notebook.path}.`}
      loading={del.isPending}
      onConfirm={() => del.mutate(notebook.id)}
      onClose={onClose}
    />
  );
}

/** The project's notebooks: each opens /notebooks/{id}; edit and delete with edit access. */
function NotebooksSection({ project, highlight }: { project: LegacyProjectView; highlight?: string }) {
  const navigate = useNavigate();
  const notebooks = useProjectNotebooks(project.id);
  const [deleting, setDeleting] = useState<NotebookView | null>(null);
  const editable = canEdit(project);
  const blocked = editable ? null : NOTEBOOK_MESSAGES.needEdit;
  const items = notebooks.data?.notebooks ?? [];
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Notebooks">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>Notebooks</Title>
          <Group gap="xs">
            <GatedButton
              size="xs"
              variant="default"
              leftSection={<IconFileImport size={14} />}
              blocked={blocked}
              onClick={() => navigate(paths.importNotebook.getHref(project.id))}
            >
              Import file
            </GatedButton>
            <GatedButton size="xs" leftSection={<IconFilePlus size={14} />} blocked={blocked} onClick={() => navigate(paths.addNotebook.getHref(project.id))}>
              Create file
            </GatedButton>
          </Group>
        </Group>
        {notebooks.isPending && <LoadingRows label="Loading notebooks" rows={3} />}
        {notebooks.isError && <QueryError error={notebooks.error} onRetry={() => notebooks.refetch()} />}
        {notebooks.isSuccess && items.length === 0 && (
          <EmptyState title="No notebooks yet" hint={editable ? 'Create a notebook, or import one from another project or from your computer.' : undefined} />
        )}
        {items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Notebooks" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th data-row-actions>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((n) => (
                  <NotebookRow key={n.id} notebook={n} editable={editable} highlighted={n.id === highlight} onDelete={setDeleting} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {deleting && <DeleteNotebookDialog notebook={deleting} onClose={() => setDeleting(null)} />}
    </Paper>
  );
}

/**
 * /projects/{id}, a legacy project (spec 001 §2): the overview (created by, created date, the
 * JupyterLab status, tags), its Notebooks (create file, import file; the one just imported,
 * named in navigation state, highlighted), the discussion side panel, Share and publish (edit
 * access, through the app layer).
 */
export function LegacyProjectDetail({
  id,
  discussion,
  onShare,
  publishDialog,
}: {
  id: string;
  discussion?: ReactNode;
  onShare?: (p: LegacyProjectView) => void;
  publishDialog?: PublishDialog;
}) {
  const detail = useLegacyProject(id);
  const location = useLocation();
  const highlight = (location.state as ImportedState | null)?.notebookId;
  const [publishing, setPublishing] = useState(false);
  const project = detail.data?.project;
  const editable = !!project && canEdit(project);

  return (
    <Stack>
      <PageHeader
        title={project?.name ?? 'Project'}
        crumbs={[{ label: 'Notebooks', href: paths.notebooks.getHref() }, { label: project?.name ?? 'Project' }]}
        actions={
          project && (
            <>
              {discussion}
              {editable && (
                <Button variant="default" leftSection={<IconPencil size={16} />} component={Link} to={paths.legacyProjectEdit.getHref(project.id)}>
                  Edit
                </Button>
              )}
              {onShare && (
                <GatedButton variant="default" leftSection={<IconShare size={16} />} blocked={editable ? null : NOTEBOOK_MESSAGES.needEdit} onClick={() => onShare(project)}>
                  Share
                </GatedButton>
              )}
              {publishDialog && (
                <GatedButton leftSection={<IconSend size={16} />} blocked={editable ? null : NOTEBOOK_MESSAGES.needEdit} onClick={() => setPublishing(true)}>
                  Publish
                </GatedButton>
              )}
            </>
          )
        }
      />
      {detail.isPending && (
        <Stack role="status" aria-label="Loading project">
          <Skeleton h={140} />
          <Skeleton h={200} />
        </Stack>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={{ label: 'Back to Notebooks', href: paths.notebooks.getHref() }} />}
      {project && detail.data && (
        <>
          <Overview project={project} jupyter={detail.data.jupyter} />
          <NotebooksSection project={project} highlight={highlight} />
        </>
      )}
      {publishing &&
        project &&
        publishDialog?.({
          projectId: project.id,
          language: project.language,
          files: project.notebooks.map((n) => n.path),
          onClose: () => setPublishing(false),
        })}
    </Stack>
  );
}
