import { Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { Link } from 'react-router';

import { WORKFLOW_POLL_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useWorkflow } from '@/features/workflows/api/get-workflow';
import type { OnShare } from '@/features/workflows/components/slots';
import { StateBadge } from '@/features/workflows/components/workflow-cells';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';

/**
 * After publishing (spec 001 §4): 'View Details', disabled with 'Please wait for initialization'
 * until the operator has the workflow ready (the workflow is asked again meanwhile), and
 * 'Share With Team'.
 */
export function PublishConfirmation({ id, onShare, onClose }: { id: string; onShare?: OnShare; onClose: () => void }) {
  const workflow = useWorkflow(id, { pollMs: (w) => (w && (w.status === 'ready' || w.status === 'broken') ? false : WORKFLOW_POLL_MS) });
  const w = workflow.data;
  const ready = w?.status === 'ready';
  return (
    <Modal opened onClose={onClose} title={WORKFLOW_MESSAGES.published} centered>
      <Stack>
        <Group gap={6}>
          <Text size="sm">Status</Text>
          {w && <StateBadge state={w.status} />}
        </Group>
        {w?.status === 'broken' && <Text size="sm" c="red">{w.import_error}</Text>}
        <Group justify="flex-end">
          {onShare && w && (
            <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => onShare(w)}>
              Share With Team
            </Button>
          )}
          {ready ? (
            <Button component={Link} to={paths.workflow.getHref(id)}>
              View Details
            </Button>
          ) : (
            <Tooltip label={WORKFLOW_MESSAGES.waitInit}>
              <Button data-disabled aria-disabled="true" onClick={(e) => e.preventDefault()}>
                View Details
              </Button>
            </Tooltip>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
