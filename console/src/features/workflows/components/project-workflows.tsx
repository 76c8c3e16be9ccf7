import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useWorkflows } from '@/features/workflows/api/get-workflows';
import type { WorkflowView } from '@/lib/api/types';
import { CreateWorkflowModal } from '@/features/workflows/components/create-workflow-modal';
import { StateBadge } from '@/features/workflows/components/workflow-cells';
import { detailsBlocked } from '@/features/workflows/utils/access';

/** Where a linked workflow opens: its details once ready, else the designer (visual) or nothing. */
function hrefOf(w: WorkflowView): string | null {
  if (!detailsBlocked(w.status)) return paths.workflow.getHref(w.id);
  return w.visual ? paths.visualWorkflow.getHref(w.id) : null;
}

/**
 * A project's linked workflows (spec 001 §2 "Left panel"): the workflows living in it, and
 * creating one (hidden for view access, spec 001 §6).
 */
export function ProjectWorkflows({ projectId, canCreate }: { projectId: string; canCreate: boolean }) {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const workflows = useWorkflows({ filter: 'all', page: 1, search: '', projectId });
  const items = workflows.data?.workflows ?? [];
  return (
    <Stack gap={6} px={4} data-testid="linked-workflows">
      {canCreate && (
        <Button size="compact-xs" variant="light" leftSection={<IconPlus size={12} />} onClick={() => setCreating(true)}>
          Create workflow
        </Button>
      )}
      {workflows.isPending && <Skeleton h={24} />}
      {workflows.isError && <QueryError error={workflows.error} onRetry={() => workflows.refetch()} />}
      {workflows.isSuccess && items.length === 0 && (
        <Text size="xs" c="dimmed">
          No linked workflows
        </Text>
      )}
      {items.map((w) => {
        const href = hrefOf(w);
        return (
          <Group key={w.id} gap={4} justify="space-between" wrap="nowrap">
            {href ? (
              <Anchor component={Link} to={href} size="xs" truncate>
                {w.name}
              </Anchor>
            ) : (
              <Text size="xs" truncate>
                {w.name}
              </Text>
            )}
            <StateBadge state={w.status} />
          </Group>
        );
      })}
      {creating && (
        <CreateWorkflowModal
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(w) => {
            setCreating(false);
            if (w.visual) navigate(paths.visualWorkflow.getHref(w.id));
          }}
        />
      )}
    </Stack>
  );
}
