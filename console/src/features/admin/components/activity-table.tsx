import { Skeleton, Stack, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { QueryError } from '@/components/ui/query-error';
import { type MetricPeriod, SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { type ActivitySubject, useEntityMetrics } from '@/features/admin/api/get-entity-metrics';
import type { Id } from '@/lib/api/types';
import { actorOf, describeActivity } from '@/features/admin/utils/activity';
import { useDates } from '@/lib/dates';

/** Rows of who did what (to items of every kind, or of one asset kind); search after 500 ms, load more. */
export function ActivityTable({ entity, period, organizationId }: { entity: ActivitySubject; period: MetricPeriod; organizationId?: Id }) {
  const dates = useDates();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const metrics = useEntityMetrics({ entity, period, organizationId, searchTerm: debounced || undefined });
  const rows = metrics.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <Stack>
      <TextInput
        placeholder="Search by name or e-mail"
        aria-label="Search activity"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={300}
      />
      {metrics.isPending && <Skeleton h={200} />}
      {metrics.isError && <QueryError error={metrics.error} onRetry={() => metrics.refetch()} />}
      {metrics.isSuccess && rows.length === 0 && <EmptyState title="Nothing recorded in this period" />}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table striped aria-label="Activity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Who</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={`${r.entity_id}-${r.action}-${r.date}-${i}`}>
                  <Table.Td>{actorOf(r)}</Table.Td>
                  <Table.Td>{r.email ?? ''}</Table.Td>
                  <Table.Td>{describeActivity(r)}</Table.Td>
                  <Table.Td>{dates.dateTime(r.date)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {metrics.hasNextPage && (
        <LoadMore onLoad={() => !metrics.isFetchingNextPage && metrics.fetchNextPage()} loading={metrics.isFetchingNextPage} />
      )}
    </Stack>
  );
}
