import { Skeleton, Stack, Text } from '@mantine/core';

import { QueryError } from '@/components/ui/query-error';
import { useBubblewrap } from '@/features/web3/api/get-bubblewrap';
import { OverlapGraph } from '@/features/web3/components/overlap-graph';
import { OverlapTable } from '@/features/web3/components/overlap-table';
import { WEB3_MESSAGES } from '@/features/web3/utils/messages';

/** The 'Overlapping Collections Graph' tab: the bubbles of `slug` and their numbers. */
export function OverlapPanel({ slug }: { slug: string }) {
  const bubblewrap = useBubblewrap(slug);
  if (bubblewrap.isPending) return <Skeleton h={520} aria-label="Loading the overlapping collections" />;
  if (bubblewrap.isError) return <QueryError error={bubblewrap.error} onRetry={() => bubblewrap.refetch()} />;
  const { bubbles } = bubblewrap.data;
  return (
    <Stack gap="sm">
      {bubbles.length <= 1 && (
        <Text size="sm" c="dimmed" role="note">
          {WEB3_MESSAGES.noOverlap}
        </Text>
      )}
      {bubbles.length > 0 && <OverlapGraph bubbles={bubbles} />}
      {bubbles.length > 0 && <OverlapTable bubbles={bubbles} />}
    </Stack>
  );
}
