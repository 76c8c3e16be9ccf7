import { Button, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconChartBubble, IconPlus, IconTopologyStar3 } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { COLLECTION_PICKER_SIZE } from '@/config/constants';
import { paths } from '@/config/paths';
import { useCollections } from '@/features/web3/api/get-collections';
import { CollectionNotice } from '@/features/web3/components/collection-notice';
import { CollectionPicker } from '@/features/web3/components/collection-picker';
import { OverlapPanel } from '@/features/web3/components/overlap-panel';
import { StarmapPanel } from '@/features/web3/components/starmap-panel';
import { pickCollection } from '@/features/web3/utils/pick';
import { isSuperadmin, useSession } from '@/lib/auth';

type Tab = 'transactions' | 'overlap';

/**
 * /crypto, the web3 page (spec 001 §2): a collection picker (kept in `?slug=`; the newest indexed
 * collection by default) and the collection's two graphs as tabs, each asked for only when open.
 */
export function Web3Explorer() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<Tab>('transactions');
  const collections = useCollections({ page: 1, pageSize: COLLECTION_PICKER_SIZE });
  const list = collections.data?.collections ?? [];
  const { slug, collection } = pickCollection(list, params.get('slug'));

  if (collections.isPending) return <Skeleton h={320} aria-label="Loading collections" />;
  if (collections.isError) return <QueryError error={collections.error} onRetry={() => collections.refetch()} />;
  if (!slug) {
    return (
      <EmptyState
        title="No collections yet"
        hint="The graphs appear here once a superadmin has added a collection."
        action={
          isSuperadmin(user) && (
            <Button component={Link} to={paths.collectionNew.getHref()} leftSection={<IconPlus size={16} />} variant="light">
              Add Collection
            </Button>
          )
        }
      />
    );
  }

  return (
    <Stack>
      <CollectionPicker collections={list} value={slug} onChange={(s) => setParams({ slug: s })} />
      {collection && <CollectionNotice collection={collection} />}
      <Tabs value={tab} onChange={(v) => setTab(v === 'overlap' ? 'overlap' : 'transactions')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="transactions" leftSection={<IconTopologyStar3 size={16} />}>
            Transaction Graph
          </Tabs.Tab>
          <Tabs.Tab value="overlap" leftSection={<IconChartBubble size={16} />}>
            Overlapping Collections Graph
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="transactions" pt="md">
          <StarmapPanel key={slug} slug={slug} />
        </Tabs.Panel>
        <Tabs.Panel value="overlap" pt="md">
          <OverlapPanel key={slug} slug={slug} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
