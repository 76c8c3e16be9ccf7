import { Skeleton, Stack, Text } from '@mantine/core';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { useStarmap } from '@/features/web3/api/get-starmap';
import { TransactionGraph } from '@/features/web3/components/transaction-graph';
import { WEB3_MESSAGES } from '@/features/web3/utils/messages';

/** The 'Transaction Graph' tab: the starmap of `slug`, said plainly when empty or cut. */
export function StarmapPanel({ slug }: { slug: string }) {
  const starmap = useStarmap(slug);
  if (starmap.isPending) return <Skeleton h={560} aria-label="Loading the transaction graph" />;
  if (starmap.isError) return <QueryError error={starmap.error} onRetry={() => starmap.refetch()} />;
  const { nodes, links, truncated } = starmap.data;
  if (links.length === 0) return <EmptyState title={WEB3_MESSAGES.noTransfers} hint="Each transfer of a token between two wallets draws a line here." />;
  return (
    <Stack gap="xs">
      {truncated && (
        <Text size="sm" c="dimmed" role="note">
          Only the 2,000 busiest links (and their wallets) are drawn.
        </Text>
      )}
      <TransactionGraph nodes={nodes} links={links} />
    </Stack>
  );
}
