import { Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
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

/**
 * Rows of who did what (to items of every kind, or of one asset kind), each one sentence — 'Ada
 * Lovelace deleted dataset Q3 sales' with the e-mail under it — so a phone shows it whole, beside
 * the date; search after 500 ms, load more.
 */
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
        maw={300}
      />
      {metrics.isPending && <Skeleton h={200} />}
      {metrics.isError && <QueryError error={metrics.error} onRetry={() => metrics.refetch()} />}
      {metrics.isSuccess && rows.length === 0 && <EmptyState title="Nothing recorded in this period" />}
      {rows.length > 0 && (
        <Table striped aria-label="Activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>What happened</Table.Th>
              <Table.Th>Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={`${r.entity_id}-${r.action}-${r.date}-${i}`}>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Text span fw={600} inherit>
                      {actorOf(r)}
                    </Text>{' '}
                    {describeActivity(r)}
                  </Text>
                  {r.email && (
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {r.email}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{dates.dateTime(r.date)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {metrics.hasNextPage && (
        <LoadMore onLoad={() => !metrics.isFetchingNextPage && metrics.fetchNextPage()} loading={metrics.isFetchingNextPage} />
      )}
    </Stack>
  );
}
