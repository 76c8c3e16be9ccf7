import { ActionIcon, Button, Group, Menu, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconDots, IconFolder, IconHierarchy2, IconPencil, IconPlus, IconShare, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FilterTabs } from '@/components/ui/filter-tabs';
import { ListToolbar } from '@/components/ui/list-toolbar';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { LoadingRows } from '@/components/ui/loading-rows';
import { QueryError } from '@/components/ui/query-error';
import { ACCESS_LEVEL_LABELS, WORKFLOW_FILTERS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDeleteWorkflow } from '@/features/workflows/api/delete-workflow';
import { useWorkflows } from '@/features/workflows/api/get-workflows';
import type { WorkflowFilter } from '@/config/constants';
import type { WorkflowView } from '@/lib/api/types';
import { CreateWorkflowModal } from '@/features/workflows/components/create-workflow-modal';
import { RenameWorkflowModal } from '@/features/workflows/components/rename-workflow-modal';
import type { OnShare, ProjectPicker } from '@/features/workflows/components/slots';
import { ActiveToggle, NameCell, StateBadge, StatusCell, TypeCell } from '@/features/workflows/components/workflow-cells';
import { canEditWorkflow, projectLinkBlocked } from '@/features/workflows/utils/access';
import { formatDuration } from '@/features/workflows/utils/duration';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { useDates } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { useListControls } from '@/lib/use-list-controls';

/** What an empty list says, per filter (and search). */
export function emptyWorkflowsMessage(filter: WorkflowFilter, search: string): { title: string; hint?: string } {
  if (search) return { title: `No workflows match “${search}”`, hint: 'Try another name.' };
  switch (filter) {
    case 'owned':
      return { title: 'You have not created any workflows yet', hint: 'Create one to run your project’s scripts on a schedule.' };
    case 'shared':
      return { title: 'Nothing shared with you yet', hint: 'Workflows your colleagues share with you appear here.' };
    default:
      return { title: 'No workflows yet', hint: 'Create one to run your project’s scripts on a schedule.' };
  }
}

/** The creator column: 'You' for the caller's own. */
export function creatorLabel(w: Pick<WorkflowView, 'is_owner' | 'user'>): string {
  if (w.is_owner) return 'You';
  return [w.user?.first_name, w.user?.last_name].filter(Boolean).join(' ') || 'Unknown';
}

/** The access level a row shows: owner, or the level. */
export function accessText(w: Pick<WorkflowView, 'is_owner' | 'access_level'>): string {
  return w.is_owner ? 'Owner' : ACCESS_LEVEL_LABELS[w.access_level];
}

type RowAction = 'rename' | 'delete';

function WorkflowMenu({ workflow, onShare, onAction }: { workflow: WorkflowView; onShare?: OnShare; onAction: (a: RowAction) => void }) {
  const navigate = useNavigate();
  const edit = canEditWorkflow(workflow);
  const projectBlocked = projectLinkBlocked(workflow);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${workflow.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {edit && (
          <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => onAction('rename')}>
            Edit
          </Menu.Item>
        )}
        {workflow.visual && (
          <Menu.Item leftSection={<IconHierarchy2 size={14} />} onClick={() => navigate(paths.visualWorkflow.getHref(workflow.id))}>
            Edit in Designer
          </Menu.Item>
        )}
        <Tooltip label={projectBlocked} disabled={!projectBlocked} position="left">
          <Menu.Item
            leftSection={<IconFolder size={14} />}
            disabled={!!projectBlocked}
            onClick={() => navigate(paths.project.getHref(workflow.project_id))}
          >
            Project
          </Menu.Item>
        </Tooltip>
        {edit && onShare && (
          <Menu.Item leftSection={<IconShare size={14} />} onClick={() => onShare(workflow)}>
            Share
          </Menu.Item>
        )}
        {edit && (
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onAction('delete')}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function DeleteWorkflowDialog({ workflow, onClose }: { workflow: WorkflowView; onClose: () => void }) {
  const del = useDeleteWorkflow({
    onSuccess: (message) => {
      notify.success(message || WORKFLOW_MESSAGES.deleted);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={WORKFLOW_MESSAGES.deleteConfirm}
      detail={`${workflow.name}, its schedule and its runs.`}
      loading={del.isPending}
      onConfirm={() => del.mutate(workflow.id)}
      onClose={onClose}
    />
  );
}

function WorkflowRow({ workflow, onShare }: { workflow: WorkflowView; onShare?: OnShare }) {
  const dates = useDates();
  const [action, setAction] = useState<RowAction | null>(null);
  return (
    <Table.Tr data-testid="workflow-row" data-name={workflow.name}>
      <Table.Td>
        <TypeCell visual={workflow.visual} />
      </Table.Td>
      <Table.Td>
        <ActiveToggle workflow={workflow} />
      </Table.Td>
      <Table.Td>
        <NameCell workflow={workflow} />
      </Table.Td>
      <Table.Td>
        <StatusCell workflow={workflow} />
      </Table.Td>
      <Table.Td>
        {workflow.last_run ? (
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{dates.relative(workflow.last_run)}</Text>
            {workflow.last_run_state && <StateBadge state={workflow.last_run_state} />}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Never
          </Text>
        )}
      </Table.Td>
      <Table.Td>{formatDuration(workflow.last_run_duration)}</Table.Td>
      <Table.Td>{accessText(workflow)}</Table.Td>
      <Table.Td>{creatorLabel(workflow)}</Table.Td>
      <Table.Td data-row-actions>
        <Group justify="flex-end">
          <WorkflowMenu workflow={workflow} onShare={onShare} onAction={setAction} />
        </Group>
        {action === 'rename' && <RenameWorkflowModal workflow={workflow} onClose={() => setAction(null)} />}
        {action === 'delete' && <DeleteWorkflowDialog workflow={workflow} onClose={() => setAction(null)} />}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /workflows (spec 001 §2): All / Created by me / Shared with me, a search after a 500 ms pause,
 * pages, the table with every column of the spec, refreshed every 60 s, and 'create new', which
 * first asks for a project.
 */
export function WorkflowsList({ onShare, projectPicker }: { onShare?: OnShare; projectPicker: ProjectPicker }) {
  const navigate = useNavigate();
  const { filter, chooseFilter, search, setSearch, debounced, page, setPage } = useListControls(WORKFLOW_FILTERS, 'all');
  const [creating, setCreating] = useState(false);
  const workflows = useWorkflows({ filter, page, search: debounced });
  const data = workflows.data;
  const items = data?.workflows ?? [];
  const totalPages = Math.max(1, data?.total_pages ?? 1);
  const empty = emptyWorkflowsMessage(filter, debounced);

  return (
    <Stack>
      <PageHeader
        title="Workflows"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create new
          </Button>
        }
      />
      <FilterTabs label="Workflow filter" filters={WORKFLOW_FILTERS} value={filter} onChange={chooseFilter} />
      <ListToolbar
        search={{ label: 'Search workflows', value: search, onChange: setSearch }}
        end={
          data && (
            <Text size="sm" c="dimmed">
              {data.total} {data.total === 1 ? 'workflow' : 'workflows'}
            </Text>
          )
        }
      />
      {workflows.isPending && (
        <LoadingRows label="Loading workflows" />
      )}
      {workflows.isError && <QueryError error={workflows.error} onRetry={() => workflows.refetch()} />}
      {workflows.isSuccess && items.length === 0 && (
        <EmptyState
          title={empty.title}
          hint={empty.hint}
          action={
            filter !== 'shared' && !debounced ? (
              <Button variant="light" size="xs" onClick={() => setCreating(true)}>
                Create a workflow
              </Button>
            ) : undefined
          }
        />
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={980}>
          <Table highlightOnHover aria-label="Workflows" style={{ opacity: workflows.isPlaceholderData ? 0.6 : 1 }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Active</Table.Th>
                <Table.Th>Workflow name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last Run</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Access Level</Table.Th>
                <Table.Th>Creator</Table.Th>
                <Table.Th data-row-actions>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((w) => (
                <WorkflowRow key={w.id} workflow={w} onShare={onShare} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {workflows.isSuccess && (items.length > 0 || page > 1) && (
        <Pager
          label="Workflow pages"
          page={page}
          pages={totalPages}
          hasPrev={page > 1}
          hasNext={page < totalPages}
          loading={workflows.isPlaceholderData}
          onPrev={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}
      {creating && (
        <CreateWorkflowModal
          projectPicker={projectPicker}
          onClose={() => setCreating(false)}
          onCreated={(w) => navigate(w.visual ? paths.visualWorkflow.getHref(w.id) : paths.project.getHref(w.project_id))}
        />
      )}
    </Stack>
  );
}
