import { Badge, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCode, IconUpload } from '@tabler/icons-react';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';

import type { TaskNodeData } from '@/features/workflows/utils/design';
import { nodeProblem } from '@/features/workflows/utils/tasks';

export type TaskFlowNode = Node<TaskNodeData, 'taskNode'>;

/** A task on the canvas: its name, its kind (empty until configured) and why it is not ready. */
export function TaskNode({ id, data, selected }: NodeProps<TaskFlowNode>) {
  const problem = nodeProblem({ id, type: 'taskNode', position: { x: 0, y: 0 }, data });
  return (
    <Paper
      withBorder
      shadow={selected ? 'md' : 'xs'}
      p="xs"
      miw={160}
      data-testid="task-node"
      data-label={data.label}
      style={{ borderColor: selected ? 'var(--mantine-color-blue-6)' : undefined, borderWidth: selected ? 2 : 1 }}
    >
      <Handle type="target" position={Position.Left} />
      <Group gap={6} wrap="nowrap">
        {data.taskType === 'script' ? <IconCode size={14} /> : data.taskType === 'upload' ? <IconUpload size={14} /> : null}
        <Text size="sm" fw={600} truncate maw={140}>
          {data.label || id}
        </Text>
        {problem && (
          <Tooltip label={problem}>
            <IconAlertTriangle size={14} color="var(--mantine-color-orange-6)" aria-label={problem} />
          </Tooltip>
        )}
      </Group>
      <Badge size="xs" variant="light" color={data.taskType ? 'indigo' : 'gray'} mt={4}>
        {data.taskType ?? 'empty'}
      </Badge>
      <Handle type="source" position={Position.Right} />
    </Paper>
  );
}
