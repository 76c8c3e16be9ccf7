import { Badge, Code, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';

import { useLogTools } from '@/components/log-viewer/log-tools';
import { QueryError } from '@/components/ui/query-error';
import { useTaskLog } from '@/features/workflows/api/get-task-log';
import type { TaskInstance } from '@/lib/api/types';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';

/**
 * A task's log, per try (the newest first shown); try 0 has none (spec 001 §8). The app layer's
 * log tools (the assistant's log summary of the workflow) sit above the log.
 */
export function TaskLogModal({ workflowId, task, onClose }: { workflowId: string; task: TaskInstance; onClose: () => void }) {
  const [tryNumber, setTryNumber] = useState(task.try_number);
  const log = useTaskLog(workflowId, task.dag_run_id, task.task_id, tryNumber, { enabled: true });
  const tries = Array.from({ length: task.try_number }, (_, i) => String(i + 1));
  const tools = useLogTools();
  return (
    <Modal opened onClose={onClose} title={`Logs: ${task.task_id}`} size="xl" centered>
      <Stack>
        {tries.length > 1 && (
          <SegmentedControl aria-label="Try" value={String(tryNumber)} onChange={(v) => setTryNumber(Number(v))} data={tries.map((t) => ({ value: t, label: `Try ${t}` }))} />
        )}
        {tryNumber === 0 ? (
          <Text c="dimmed">{WORKFLOW_MESSAGES.noLogs}</Text>
        ) : log.isPending ? (
          <Loader size="sm" aria-label="Loading log" />
        ) : log.isError ? (
          <QueryError error={log.error} onRetry={() => log.refetch()} />
        ) : !log.data.log ? (
          <Text c="dimmed">{log.data.message || WORKFLOW_MESSAGES.noLogs}</Text>
        ) : (
          <>
            <Group gap="xs">
              <Text size="sm">Try {log.data.log.try_number}</Text>
              {log.data.log.archived && (
                <Badge size="xs" variant="light">
                  archived
                </Badge>
              )}
            </Group>
            {tools?.({ id: workflowId, lines: (log.data.log.content ?? '').split('\n').filter(Boolean) })}
            <Code block data-testid="task-log" style={{ whiteSpace: 'pre-wrap', maxHeight: 480, overflow: 'auto' }}>
              {log.data.log.content || '(empty)'}
            </Code>
          </>
        )}
      </Stack>
    </Modal>
  );
}
