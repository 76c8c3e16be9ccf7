import {
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconGitBranch, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { QueryError } from '@/components/ui/query-error';
import { RowMenu } from '@/components/ui/row-menu';
import { PROJECT_FILTERS, ROW_DESCRIPTION_MAX } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDeleteProject } from '@/features/projects/api/delete-project';
import { useProjects } from '@/features/projects/api/get-projects';
import type { ProjectFilter } from '@/features/projects/api/keys';
import { CreateProjectModal } from '@/features/projects/components/create-project-modal';
import { EditProjectModal } from '@/features/projects/components/edit-project-modal';
import { ImportProjectModal } from '@/features/projects/components/import-project-modal';
import type { GitTokenPrompt, ImageField } from '@/features/projects/components/slots';
import { canEdit } from '@/features/projects/utils/access';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';
import type { ProjectView } from '@/lib/api/types';
import { useDates } from '@/lib/dates';
import { truncate } from '@/lib/text';
import { useListControls } from '@/lib/use-list-controls';
import { ListToolbar } from '@/components/ui/list-toolbar';

/** What an empty list says, per filter (and search). */
export function emptyProjectsMessage(filter: ProjectFilter, search: string): { title: string; hint?: string } {
  if (search) return { title: `No projects match “${search}”`, hint: 'Try another name or description.' };
  switch (filter) {
    case 'owned':
      return { title: 'You have not created any projects yet', hint: 'Create a project, or import one from a git repository.' };
    case 'shared':
      return { title: 'Nothing shared with you yet', hint: 'Projects your colleagues share with you appear here.' };
    default:
      return { title: 'No projects yet', hint: 'Create a project, or import one from a git repository.' };
  }
}

const ACCESS_COLORS: Record<string, string> = { edit: 'teal', execute: 'blue', view: 'gray' };
const STATUS_COLORS: Record<string, string> = { running: 'teal', starting: 'yellow', failed: 'red', stopped: 'gray' };

function ownerLabel(p: ProjectView) {
  if (p.is_owner) return 'You';
  const name = [p.user?.first_name, p.user?.last_name].filter(Boolean).join(' ');
  return name || p.author || 'Unknown';
}

function DeleteProjectDialog({ project, onClose }: { project: ProjectView; onClose: () => void }) {
  const del = useDeleteProject({
    onSuccess: (r) => {
      notify.success(r.message || PROJECT_MESSAGES.deleted);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={PROJECT_MESSAGES.deleteConfirm}
      detail={`${project.name}${project.hosted ? ' and its repository.' : '. Its remote repository stays as it is.'}`}
      loading={del.isPending}
      onConfirm={() => del.mutate(project.id)}
      onClose={onClose}
    />
  );
}

type RowActions = { onEdit: (p: ProjectView) => void; onShare?: (p: ProjectView) => void; onDelete: (p: ProjectView) => void };

function ProjectRow({ project, ...actions }: RowActions & { project: ProjectView }) {
  const dates = useDates();
  const navigate = useNavigate();
  const href = paths.project.getHref(project.id);
  return (
    <Table.Tr data-testid="project-row" onClick={() => navigate(href)} style={{ cursor: 'pointer' }}>
      <Table.Td>
        <Anchor component={Link} to={href} fw={500} onClick={(e) => e.stopPropagation()}>
          {project.name}
        </Anchor>
        {project.description && (
          <Text size="xs" c="dimmed" title={project.description}>
            {truncate(project.description, ROW_DESCRIPTION_MAX)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{project.language === 'r' ? 'R' : 'Python'}</Table.Td>
      <Table.Td>{ownerLabel(project)}</Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color={ACCESS_COLORS[project.access_level] ?? 'gray'}>
          {project.is_owner ? 'owner' : project.access_level}
        </Badge>
      </Table.Td>
      <Table.Td>
        {/* Why it waits or failed, as the cluster says, on hover. */}
        <Tooltip label={project.status_message} disabled={!project.status_message} multiline maw={360}>
          <Badge
            size="sm"
            variant="dot"
            color={STATUS_COLORS[project.status] ?? 'gray'}
            aria-label={project.status_message ? `${project.status}: ${project.status_message}` : project.status}
          >
            {project.status}
          </Badge>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {dates.relative(project.updated_at)}
        </Text>
      </Table.Td>
      <Table.Td data-row-actions onClick={(e) => e.stopPropagation()}>
        <Group justify="flex-end">
          {/* Edit / Share / Delete: only with edit access (spec 001 §6). */}
          {canEdit(project.access_level) && (
            <RowMenu
              name={project.name}
              onEdit={() => actions.onEdit(project)}
              onShare={actions.onShare && (() => actions.onShare?.(project))}
              onDelete={() => actions.onDelete(project)}
            />
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'import' }
  | { kind: 'git-token' }
  | { kind: 'edit'; project: ProjectView }
  | { kind: 'delete'; project: ProjectView }
  | null;

/**
 * /projectsv2 (spec 001 §2 "Listing pages"): All / Created by me / Shared with me (kept in the
 * address), a search after a 500 ms pause, pages, an empty state per filter, 'import project'
 * (asks for a git token first when none is saved) and 'create project', and the row menu for
 * editors. A row opens the project's workspace.
 */
export function ProjectsList({
  onShare,
  gitTokenPrompt,
  imageField,
}: {
  onShare?: (p: ProjectView) => void;
  gitTokenPrompt?: GitTokenPrompt;
  imageField?: ImageField;
}) {
  const { user } = useSession();
  const { filter, chooseFilter, search, setSearch, debounced, page, setPage } = useListControls(PROJECT_FILTERS, 'all');
  const [dialog, setDialog] = useState<Dialog>(null);

  const projects = useProjects({ filter, page, search: debounced });
  const data = projects.data;
  const items = data?.projects ?? [];
  const totalPages = Math.max(1, data?.total_pages ?? 1);

  /** Importing clones an external remote with the user's token: ask for one first if none is saved. */
  function startImport() {
    setDialog({ kind: user?.has_git_token || !gitTokenPrompt ? 'import' : 'git-token' });
  }

  const empty = emptyProjectsMessage(filter, debounced);
  const rowActions: RowActions = {
    onEdit: (project) => setDialog({ kind: 'edit', project }),
    onShare,
    onDelete: (project) => setDialog({ kind: 'delete', project }),
  };
  const close = () => setDialog(null);

  return (
    <Stack>
      <PageHeader
        title="Projects"
        actions={
          <>
            <Button variant="default" leftSection={<IconGitBranch size={16} />} onClick={startImport}>
              Import project
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'create' })}>
              Create project
            </Button>
          </>
        }
      />

      <Tabs value={filter} onChange={chooseFilter}>
        <Tabs.List aria-label="Project filter">
          {PROJECT_FILTERS.map((f) => (
            <Tabs.Tab key={f.value} value={f.value}>
              {f.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      <ListToolbar
        search={{ label: 'Search projects', value: search, onChange: setSearch }}
        end={
          data && (
            <Text size="sm" c="dimmed">
              {data.total} {data.total === 1 ? 'project' : 'projects'}
            </Text>
          )
        }
      />

      {projects.isPending && (
        <Stack gap={6} role="status" aria-label="Loading projects">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      )}
      {projects.isError && <QueryError error={projects.error} onRetry={() => projects.refetch()} />}
      {projects.isSuccess && items.length === 0 && (
        <EmptyState
          title={empty.title}
          hint={empty.hint}
          action={
            filter !== 'shared' && !debounced ? (
              <Button variant="light" size="xs" onClick={() => setDialog({ kind: 'create' })}>
                Create a project
              </Button>
            ) : undefined
          }
        />
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table highlightOnHover aria-label="Projects" style={{ opacity: projects.isPlaceholderData ? 0.6 : 1 }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Language</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Access</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th data-row-actions>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((p) => (
                <ProjectRow key={p.id} project={p} {...rowActions} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {projects.isSuccess && (items.length > 0 || page > 1) && (
        <Pager
          label="Project pages"
          page={page}
          pages={totalPages}
          hasPrev={page > 1}
          hasNext={page < totalPages}
          loading={projects.isPlaceholderData}
          onPrev={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}

      {dialog?.kind === 'create' && <CreateProjectModal onClose={close} />}
      {dialog?.kind === 'import' && <ImportProjectModal onClose={close} />}
      {gitTokenPrompt?.({
        opened: dialog?.kind === 'git-token',
        onClose: close,
        onSaved: () => setDialog({ kind: 'import' }),
      })}
      {dialog?.kind === 'edit' && <EditProjectModal project={dialog.project} onClose={close} imageField={imageField} />}
      {dialog?.kind === 'delete' && <DeleteProjectDialog project={dialog.project} onClose={close} />}
    </Stack>
  );
}
