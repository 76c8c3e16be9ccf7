import { Alert, Button, Checkbox, Group, Menu, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconFileText, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';

import { GatedButton } from '@/components/ui/gated-button';
import { LoadingRows } from '@/components/ui/loading-rows';
import { WORKFLOW_FOLLOW_MS, WORKFLOW_POLL_MS } from '@/config/constants';
import { useClearTasks } from '@/features/workflows/api/clear-tasks';
import { useTaskInstances } from '@/features/workflows/api/get-task-instances';
import { useMarkTask } from '@/features/workflows/api/mark-task';
import type { MarkState, TaskInstance, WorkflowView } from '@/lib/api/types';
import { TaskLogModal } from '@/features/workflows/components/task-log-modal';
import { StateBadge } from '@/features/workflows/components/workflow-cells';
import { taskControlBlocked } from '@/features/workflows/utils/access';
import { formatDuration } from '@/features/workflows/utils/duration';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { useDates } from '@/lib/dates';
import { notify } from '@/lib/notify';

/** 'Mark State As' Success / Failed, each disabled when the task is already in that state (spec 001 §4). */
function MarkStateMenu({ task, blocked, onMark }: { task: TaskInstance; blocked: string | null; onMark: (s: MarkState) => void }) {
  if (blocked) {
    return (
      <Tooltip label={blocked}>
        <Button size="compact-xs" variant="default" data-disabled aria-disabled="true" rightSection={<IconChevronDown size={12} />}>
          Mark State As
        </Button>
      </Tooltip>
    );
  }
  return (
    <Menu withinPortal position="bottom-end">
      <Menu.Target>
        <Button size="compact-xs" variant="default" rightSection={<IconChevronDown size={12} />} aria-label={`Mark State As: ${task.task_id}`}>
          Mark State As
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item color="green" disabled={task.state === 'success'} onClick={() => onMark('success')}>
          Success
        </Menu.Item>
        <Menu.Item color="red" disabled={task.state === 'failed'} onClick={() => onMark('failed')}>
          Failed
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The task grid of one run (spec 001 §2, §4): each task's state coloured, its try, start and
 * duration; its logs per try; 'Mark State As'; and re-run of the selected tasks with everything
 * downstream. Refreshed until every task has finished.
 */
export function TaskGrid({ workflow, dagRunId }: { workflow: Pick<WorkflowView, 'id' | 'access_level' | 'project_access_level'>; dagRunId: string }) {
  const dates = useDates();
  // After a mark or a re-run, the grid follows the run for a while.
  const [followUntil, setFollowUntil] = useState(0);
  const tasks = useTaskInstances(workflow.id, dagRunId, WORKFLOW_POLL_MS, followUntil);
  const [selected, setSelected] = useState<string[]>([]);
  const [logsOf, setLogsOf] = useState<TaskInstance | null>(null);
  const blocked = taskControlBlocked(workflow);
  const mark = useMarkTask({
    onSuccess: (m) => {
      notify.success(m || WORKFLOW_MESSAGES.taskUpdated);
      setFollowUntil(Date.now() + WORKFLOW_FOLLOW_MS);
    },
  });
  const clear = useClearTasks({
    onSuccess: (m) => {
      notify.success(m || WORKFLOW_MESSAGES.taskCleared);
      setSelected([]);
      setFollowUntil(Date.now() + WORKFLOW_FOLLOW_MS);
    },
  });

  function rerun() {
    if (selected.length === 0) return notify.error(WORKFLOW_MESSAGES.selectTask);
    clear.mutate({ id: workflow.id, task_ids: selected, dag_run_id: dagRunId, include_downstream: true });
  }

  if (tasks.isPending) {
    return (
      <LoadingRows label="Loading tasks" rows={3} height={30} />
    );
  }
  if (tasks.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={WORKFLOW_MESSAGES.tasksFailed}>
        {tasks.error.message}
      </Alert>
    );
  }
  const items = tasks.data.task_instances;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={600}>Tasks of {dagRunId}</Text>
        <GatedButton size="xs" variant="light" leftSection={<IconRefresh size={14} />} blocked={blocked} loading={clear.isPending} onClick={rerun}>
          Re-run with downstream
        </GatedButton>
      </Group>
      <Table aria-label="Tasks" data-testid="task-grid">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={32} />
            <Table.Th>Task</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Try</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((t) => (
            <Table.Tr key={t.task_id} data-testid="task-row" data-task={t.task_id} data-state={t.state}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${t.task_id}`}
                  disabled={!!taskControlBlocked(workflow)}
                  title={taskControlBlocked(workflow) ?? undefined}
                  checked={selected.includes(t.task_id)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setSelected((s) => (on ? [...s, t.task_id] : s.filter((x) => x !== t.task_id)));
                  }}
                />
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {t.task_id}
                </Text>
              </Table.Td>
              <Table.Td>
                <StateBadge state={t.state} />
              </Table.Td>
              <Table.Td>{t.try_number}</Table.Td>
              <Table.Td>{t.start_date ? dates.dateTime(t.start_date) : '-'}</Table.Td>
              <Table.Td>{formatDuration(t.duration)}</Table.Td>
              <Table.Td>
                <Group gap={6} justify="flex-end" wrap="nowrap">
                  <GatedButton size="compact-xs" variant="subtle" leftSection={<IconFileText size={12} />} blocked={blocked} onClick={() => setLogsOf(t)} aria-label={`Logs of ${t.task_id}`}>
                    Logs
                  </GatedButton>
                  <MarkStateMenu
                    task={t}
                    blocked={taskControlBlocked(workflow)}
                    onMark={(state) => mark.mutate({ id: workflow.id, state, dagRunId, taskId: t.task_id })}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          No tasks have started in this run yet.
        </Text>
      )}
      {logsOf && <TaskLogModal workflowId={workflow.id} task={logsOf} onClose={() => setLogsOf(null)} />}
    </Stack>
  );
}
