import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconExternalLink, IconHierarchy2, IconPlayerPlay, IconShare } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { GatedButton } from '@/components/ui/gated-button';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { WORKFLOW_POLL_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useWorkflow } from '@/features/workflows/api/get-workflow';
import { useRunWorkflow } from '@/features/workflows/api/run-workflow';
import type { WorkflowView } from '@/lib/api/types';
import { LatestLogs } from '@/features/workflows/components/latest-logs';
import { RunsPanel } from '@/features/workflows/components/runs-panel';
import { ScheduleEditor } from '@/features/workflows/components/schedule-editor';
import type { OnShare } from '@/features/workflows/components/slots';
import { ActiveToggle, ImportError, StateBadge, TypeCell } from '@/features/workflows/components/workflow-cells';
import { canEditWorkflow, projectLinkBlocked, runBlocked, taskControlBlocked } from '@/features/workflows/utils/access';
import { formatDuration } from '@/features/workflows/utils/duration';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { useDates } from '@/lib/dates';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';

/** Ask again while the operator is still setting the workflow up. */
export function initializingPoll(w: Pick<WorkflowView, 'status'> | undefined): number | false {
  return w?.status === 'initializing' ? WORKFLOW_POLL_MS : false;
}

function ProjectLink({ workflow }: { workflow: WorkflowView }) {
  const blocked = projectLinkBlocked(workflow);
  const label = workflow.project_name ? `Project: ${workflow.project_name}` : 'Project';
  if (blocked) {
    return (
      <Tooltip label={blocked}>
        <Text size="sm" c="dimmed" aria-disabled="true" tabIndex={0}>
          {label}
        </Text>
      </Tooltip>
    );
  }
  return (
    <Anchor component={Link} to={paths.project.getHref(workflow.project_id)} size="sm">
      <Group gap={4} component="span">
        <IconExternalLink size={14} />
        {label}
      </Group>
    </Anchor>
  );
}

function Header({ workflow, onShare, discussion }: { workflow: WorkflowView; onShare?: OnShare; discussion?: ReactNode }) {
  const run = useRunWorkflow({
    onSuccess: () => notify.success(WORKFLOW_MESSAGES.runOk),
    // The API's reason when it says why (409: 'Please publish or wait for workflow to be initialized').
    onError: (e) => notify.error(e instanceof ApiError && e.status === 409 ? e.message : WORKFLOW_MESSAGES.runFailed),
  });
  const notReady = workflow.status !== 'ready' ? WORKFLOW_MESSAGES.notReady : null;
  return (
    <PageHeader
      title={workflow.name}
      crumbs={[{ label: 'Workflows', href: paths.workflows.getHref() }, { label: workflow.name }]}
      actions={
        <>
          {workflow.visual && (
            <Button component={Link} to={paths.visualWorkflow.getHref(workflow.id)} variant="default" leftSection={<IconHierarchy2 size={16} />}>
              Designer
            </Button>
          )}
          {discussion}
          {onShare && canEditWorkflow(workflow) && (
            <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => onShare(workflow)}>
              Share
            </Button>
          )}
          <GatedButton leftSection={<IconPlayerPlay size={16} />} blocked={runBlocked(workflow) ?? notReady} loading={run.isPending} onClick={() => run.mutate(workflow.id)}>
            Run now
          </GatedButton>
        </>
      }
    />
  );
}

function Summary({ workflow }: { workflow: WorkflowView }) {
  const dates = useDates();
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group gap="lg">
          <TypeCell visual={workflow.visual} />
          <Group gap={6}>
            <Text size="sm">Status</Text>
            <StateBadge state={workflow.status} />
          </Group>
          <ActiveToggle workflow={workflow} label="Active" />
          <ProjectLink workflow={workflow} />
          {workflow.last_run && (
            <Text size="sm" c="dimmed">
              Last run {dates.relative(workflow.last_run)} ({formatDuration(workflow.last_run_duration)})
            </Text>
          )}
          {workflow.dag_file && (
            <Text size="sm" c="dimmed" ff="monospace">
              {workflow.dag_file}
            </Text>
          )}
        </Group>
        <ScheduleEditor key={workflow.schedule} workflow={workflow} />
      </Stack>
    </Card>
  );
}

/**
 * /workflows/{id} (spec 001 §2, §4): the header with the project and (visual) designer links, the
 * status, the schedule editor, Run now, the Active toggle, the run history with the task grid of
 * the chosen run, and the logs. A broken workflow shows its import error in full. `discussion`
 * (the comments feature, through the app layer) sits in the header for everyone who can see it.
 */
export function WorkflowDetail({ id, onShare, discussion }: { id: string; onShare?: OnShare; discussion?: ReactNode }) {
  const workflow = useWorkflow(id, { pollMs: initializingPoll });
  if (workflow.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading workflow" />
      </Group>
    );
  }
  if (workflow.isError) {
    return <QueryError error={workflow.error} onRetry={() => workflow.refetch()} back={{ label: 'Back to Workflows', href: paths.workflows.getHref() }} />;
  }
  const w = workflow.data;
  return (
    <Stack>
      <Header workflow={w} onShare={onShare} discussion={discussion} />
      <Summary workflow={w} />
      {w.status === 'broken' && (
        <Alert color="red" variant="light" title="This workflow is broken" role="alert">
          <ImportError error={w.import_error} />
        </Alert>
      )}
      {(w.status === 'unpublished' || w.status === 'initializing') && (
        <Alert color="yellow" variant="light" role="status">
          {WORKFLOW_MESSAGES.notReady}
        </Alert>
      )}
      <Group justify="space-between">
        <Title order={4}>Runs</Title>
        <LatestLogs workflowId={w.id} workflowName={w.name} blocked={taskControlBlocked(w)} />
      </Group>
      <RunsPanel workflow={w} />
    </Stack>
  );
}
