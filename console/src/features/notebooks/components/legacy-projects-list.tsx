import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconNotebook, IconPlus, IconTemplate } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FilterTabs } from '@/components/ui/filter-tabs';
import { LoadingRows } from '@/components/ui/loading-rows';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { QueryError } from '@/components/ui/query-error';
import { RowMenu } from '@/components/ui/row-menu';
import {
  ACTIVE_NOTEBOOK_STATUS,
  LEGACY_LISTED_TYPE,
  LEGACY_PROJECT_TABS,
  type LegacyProjectTab,
  NOTEBOOKS_DEPRECATION,
  ROW_DESCRIPTION_MAX,
} from '@/config/constants';
import { paths } from '@/config/paths';
import type { LegacyProjectView } from '@/lib/api/types';
import { useDeleteLegacyProject } from '@/features/notebooks/api/delete-legacy-project';
import { useLegacyProjects } from '@/features/notebooks/api/get-legacy-projects';
import { LanguageAvatar } from '@/features/notebooks/components/language-avatar';
import type { GitTokenPrompt } from '@/features/notebooks/components/slots';
import { TemplateProjectModal } from '@/features/notebooks/components/template-project-modal';
import { canEdit, ownerName } from '@/features/notebooks/utils/access';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { useSession } from '@/lib/auth';
import { useDates } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { truncate } from '@/lib/text';
import { useListControls } from '@/lib/use-list-controls';

/** What an empty tab says. */
export function emptyLegacyMessage(tab: LegacyProjectTab): { title: string; hint: string } {
  return tab === 'shared'
    ? { title: 'Nothing shared with you yet', hint: 'Notebook projects your colleagues share with you appear here.' }
    : { title: 'You have no notebook projects yet', hint: 'Create a project, or start from a template with sample notebooks.' };
}

/** Only projects whose type includes 'report' are listed (spec 000 §2). */
export function isListed(p: Pick<LegacyProjectView, 'type'>): boolean {
  return (p.type ?? '').includes(LEGACY_LISTED_TYPE);
}

/** How many of the project's notebooks are active (spec 000 §2). */
export function activeNotebooks(p: Pick<LegacyProjectView, 'notebooks'>): number {
  return (p.notebooks ?? []).filter((n) => n.status === ACTIVE_NOTEBOOK_STATUS).length;
}

function DeleteLegacyProjectDialog({ project, onClose }: { project: LegacyProjectView; onClose: () => void }) {
  const del = useDeleteLegacyProject({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.projectDeleted);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={NOTEBOOK_MESSAGES.deleteProjectConfirm}
      detail={`${project.name}, its notebooks and its repository.`}
      loading={del.isPending}
      onConfirm={() => del.mutate(project.id)}
      onClose={onClose}
    />
  );
}

type RowActions = { onShare?: (p: LegacyProjectView) => void; onDelete: (p: LegacyProjectView) => void };

function LegacyProjectRow({ project, onShare, onDelete }: RowActions & { project: LegacyProjectView }) {
  const dates = useDates();
  const navigate = useNavigate();
  const href = paths.legacyProject.getHref(project.id);
  const notebooks = activeNotebooks(project);
  return (
    <Table.Tr data-testid="legacy-project-row">
      <Table.Td w={52}>
        <LanguageAvatar language={project.language} />
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={href} fw={500}>
          {project.name}
        </Anchor>
        {project.description && (
          <Text size="xs" c="dimmed" title={project.description}>
            {truncate(project.description, ROW_DESCRIPTION_MAX)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{ownerName(project)}</Table.Td>
      <Table.Td>{dates.date(project.created_at)}</Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color="gray" leftSection={<IconNotebook size={12} />} aria-label={`${notebooks} active notebooks`}>
          {notebooks}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {dates.relative(project.updated_at)}
        </Text>
      </Table.Td>
      <Table.Td data-row-actions>
        <Group justify="flex-end">
          {/* Edit / Share / Delete: the owner or edit access (spec 000 §6). */}
          {canEdit(project) && (
            <RowMenu
              name={project.name}
              onEdit={() => navigate(paths.legacyProjectEdit.getHref(project.id))}
              onShare={onShare && (() => onShare(project))}
              onDelete={() => onDelete(project)}
            />
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

type Dialog = { kind: 'git-token' } | { kind: 'template' } | { kind: 'delete'; project: LegacyProjectView } | null;

/**
 * /projects, the legacy (notebook) projects (spec 000 §2, 001 §2): 'My Projects' / 'Shared With
 * Me' (kept in the address), rows with the image, name, description cut to 75 characters, owner
 * or 'Unknown', created date, active notebooks and last update; only types including 'report';
 * Prev / page / Next; the row menu for the owner or edit access. 'Create project' goes to
 * /projects/new once a git token is saved (the git dialog asks first otherwise); 'Create from
 * template' makes a project with a template's notebooks.
 */
export function LegacyProjectsList({ onShare, gitTokenPrompt }: { onShare?: (p: LegacyProjectView) => void; gitTokenPrompt?: GitTokenPrompt }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { filter: tab, chooseFilter, page, setPage } = useListControls(LEGACY_PROJECT_TABS, 'mine');
  const [dialog, setDialog] = useState<Dialog>(null);

  const projects = useLegacyProjects({ tab, page });
  const data = projects.data;
  const items = (data?.projects ?? []).filter(isListed);
  const totalPages = Math.max(1, data?.total_pages ?? 1);
  const empty = emptyLegacyMessage(tab);
  const close = () => setDialog(null);

  function startCreate() {
    if (user?.has_git_token || !gitTokenPrompt) navigate(paths.legacyProjectNew.getHref());
    else setDialog({ kind: 'git-token' });
  }

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={startCreate}>
      Create project
    </Button>
  );

  return (
    <Stack>
      <PageHeader
        title="Notebooks"
        actions={
          <>
            <Button variant="default" leftSection={<IconTemplate size={16} />} onClick={() => setDialog({ kind: 'template' })}>
              Create from template
            </Button>
            {createButton}
          </>
        }
      />
      <Alert color="orange" variant="light" p="xs" icon={<IconAlertTriangle size={16} />}>
        {NOTEBOOKS_DEPRECATION}
      </Alert>

      <FilterTabs label="Project lists" filters={LEGACY_PROJECT_TABS} value={tab} onChange={chooseFilter} />

      {projects.isPending && <LoadingRows label="Loading projects" />}
      {projects.isError && <QueryError error={projects.error} onRetry={() => projects.refetch()} />}
      {projects.isSuccess && items.length === 0 && (
        <EmptyState
          title={empty.title}
          hint={empty.hint}
          action={
            tab === 'mine' ? (
              <Button variant="light" size="xs" onClick={startCreate}>
                Create a project
              </Button>
            ) : undefined
          }
        />
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table highlightOnHover aria-label="Notebook projects" style={{ opacity: projects.isPlaceholderData ? 0.6 : 1 }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>Image</VisuallyHidden>
                </Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Notebooks</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th data-row-actions>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((p) => (
                <LegacyProjectRow key={p.id} project={p} onShare={onShare} onDelete={(project) => setDialog({ kind: 'delete', project })} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {projects.isSuccess && (items.length > 0 || page > 1 || totalPages > 1) && (
        <Pager
          label="Project pages"
          page={page}
          hasPrev={page > 1}
          hasNext={page < totalPages}
          loading={projects.isPlaceholderData}
          onPrev={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}

      {gitTokenPrompt?.({
        opened: dialog?.kind === 'git-token',
        onClose: close,
        onSaved: () => {
          close();
          navigate(paths.legacyProjectNew.getHref());
        },
      })}
      {dialog?.kind === 'template' && <TemplateProjectModal onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteLegacyProjectDialog project={dialog.project} onClose={close} />}
    </Stack>
  );
}
