import { BarChart } from '@mantine/charts';
import { Paper, Skeleton, Title } from '@mantine/core';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import type { MetricPeriod } from '@/config/constants';
import { useEntityUsage } from '@/features/admin/api/get-entity-usage';
import type { Id } from '@/lib/api/types';

/** The 10 most used items of one kind in an organization. */
export function EntityUsageChart({ organizationId, entity, label, period }: { organizationId: Id; entity: string; label: string; period: MetricPeriod }) {
  const usage = useEntityUsage({ organizationId, entity, period });
  const rows = (usage.data?.usage ?? []).map((u) => ({ name: u.entity_name, count: u.count }));
  return (
    <Paper withBorder p="lg">
      <Title order={4} mb="sm">
        Most used {label.toLowerCase()}
      </Title>
      {usage.isPending && <Skeleton h={200} />}
      {usage.isError && <QueryError error={usage.error} onRetry={() => usage.refetch()} />}
      {usage.isSuccess && rows.length === 0 && <EmptyState title={`No ${label.toLowerCase()} were used in this period`} />}
      {rows.length > 0 && <BarChart h={240} data={rows} dataKey="name" series={[{ name: 'count', label: 'Activities', color: 'teal.6' }]} />}
    </Paper>
  );
}
