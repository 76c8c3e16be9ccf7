import { ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconProgress } from '@tabler/icons-react';

import type { CollectionView } from '@/features/web3/api/types';
import { indexingLabel } from '@/features/web3/utils/status';

type Status = Pick<CollectionView, 'status' | 'error' | 'indexed_block' | 'target_block'>;

/** What a collection's status icon says, in its tooltip and to assistive technology. */
export function statusLabel(c: Status): string {
  if (c.status === 'running') return indexingLabel(c);
  if (c.status === 'failed') return `Failed: ${c.error ?? 'the indexing job stopped'}`;
  return 'Indexed';
}

const LOOK = {
  running: { color: 'blue', Icon: IconProgress },
  success: { color: 'green', Icon: IconCircleCheck },
  failed: { color: 'red', Icon: IconAlertCircle },
} as const;

/**
 * A collection's status as an icon (spec 001 §3): in progress while its job runs (how far in the
 * tooltip), done, or failed (the reason in the tooltip).
 */
export function CollectionStatusIcon({ collection }: { collection: Status }) {
  const label = statusLabel(collection);
  const { color, Icon } = LOOK[collection.status];
  return (
    <Tooltip label={label} multiline maw={320} withArrow>
      <ThemeIcon variant="light" color={color} radius="xl" size="md" role="img" aria-label={label} data-status={collection.status} tabIndex={0}>
        <Icon size={16} />
      </ThemeIcon>
    </Tooltip>
  );
}
