import { Anchor, Badge, Box, Code, Modal, Switch, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconHierarchy2, IconFileCode } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useSetWorkflowPaused } from '@/features/workflows/api/toggle-workflow';
import type { RunState, TaskState, WorkflowStatus, WorkflowView } from '@/lib/api/types';
import { detailsBlocked, runBlocked } from '@/features/workflows/utils/access';

/** The colours of statuses and states, everywhere the same. */
export const STATE_COLORS: Record<WorkflowStatus | TaskState, string> = {
  unpublished: 'gray',
  initializing: 'yellow',
  ready: 'teal',
  broken: 'red',
  queued: 'gray',
  running: 'blue',
  success: 'green',
  failed: 'red',
  upstream_failed: 'orange',
  skipped: 'grape',
};

export function StateBadge({ state }: { state: WorkflowStatus | TaskState | RunState }) {
  return (
    <Badge size="sm" variant="light" color={STATE_COLORS[state]} data-state={state}>
      {state.replace('_', ' ')}
    </Badge>
  );
}

/** Type: designer (visual) or manual (a DAG file). */
export function TypeCell({ visual }: { visual: boolean }) {
  return (
    <Badge size="sm" variant="outline" color={visual ? 'indigo' : 'gray'} leftSection={visual ? <IconHierarchy2 size={12} /> : <IconFileCode size={12} />}>
      {visual ? 'designer' : 'manual'}
    </Badge>
  );
}

/** A broken workflow's import error, in full, in monospace (spec 001 §4). */
export function ImportError({ error }: { error: string | null }) {
  return (
    <Code block data-testid="import-error" style={{ whiteSpace: 'pre-wrap', maxHeight: 400, overflow: 'auto' }}>
      {error || 'The workflow could not be loaded, and the operator gave no reason.'}
    </Code>
  );
}

/** The status; 'broken' opens the import error. */
export function StatusCell({ workflow }: { workflow: Pick<WorkflowView, 'status' | 'import_error' | 'name'> }) {
  const [open, setOpen] = useState(false);
  if (workflow.status !== 'broken') return <StateBadge state={workflow.status} />;
  return (
    <>
      <UnstyledButton onClick={() => setOpen(true)} aria-label={`Why ${workflow.name} is broken`}>
        <StateBadge state="broken" />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} title={`${workflow.name} is broken`} size="xl" centered>
        <ImportError error={workflow.import_error} />
      </Modal>
    </>
  );
}

/**
 * The workflow's name, a link to its details once it is ready; while unpublished, initializing or
 * broken it is disabled with 'Please publish or wait for workflow to be initialized'.
 */
export function NameCell({ workflow }: { workflow: Pick<WorkflowView, 'id' | 'name' | 'status'> }) {
  const blocked = detailsBlocked(workflow.status);
  if (!blocked) {
    return (
      <Anchor component={Link} to={paths.workflow.getHref(workflow.id)} fw={500}>
        {workflow.name}
      </Anchor>
    );
  }
  return (
    <Tooltip label={blocked}>
      <Text fw={500} c="dimmed" aria-disabled="true" tabIndex={0} style={{ cursor: 'not-allowed' }}>
        {workflow.name}
      </Text>
    </Tooltip>
  );
}

/**
 * The Active toggle: on = not paused (spec 001 §4). Disabled while the update is pending, and
 * below execute with the spec's tooltip.
 */
export function ActiveToggle({ workflow, label }: { workflow: Pick<WorkflowView, 'id' | 'name' | 'is_paused' | 'access_level' | 'project_access_level'>; label?: string }) {
  const toggle = useSetWorkflowPaused();
  const blocked = runBlocked(workflow);
  const checked = toggle.isPending ? !toggle.variables.paused : !workflow.is_paused;
  const control = (
    <Switch
      checked={checked}
      disabled={!!blocked || toggle.isPending}
      label={label}
      aria-label={label ? undefined : `Active: ${workflow.name}`}
      onChange={(e) => toggle.mutate({ id: workflow.id, paused: !e.currentTarget.checked })}
    />
  );
  return blocked ? (
    <Tooltip label={blocked}>
      <Box w="fit-content">{control}</Box>
    </Tooltip>
  ) : (
    control
  );
}
