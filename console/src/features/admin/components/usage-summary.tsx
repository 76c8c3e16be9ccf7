import { BarChart } from '@mantine/charts';
import { ActionIcon, Group, Paper, SimpleGrid, Skeleton, Text, Title, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import type { MetricPeriod } from '@/config/constants';
import { useMetrics } from '@/features/admin/api/get-metrics';
import type { Id, MetricsSummary } from '@/lib/api/types';

const ENTITY_LABELS: Record<string, string> = {
  applications: 'Insights',
  projects: 'Projects',
  workflows: 'Workflows',
  datasets: 'Datasets',
  users: 'Users',
  organizations: 'Organizations',
  flighting: 'Flighting',
};

/** The overview's tiles, in the order people read them. */
export function summaryTiles(m: MetricsSummary['metrics'], superadmin: boolean) {
  return [
    { label: 'Logins', value: m.logins, definition: TILE_DEFINITIONS.logins },
    { label: 'Failed logins', value: m.failedLogins, definition: TILE_DEFINITIONS.failedLogins },
    { label: 'Active users', value: m.activeUsers, definition: TILE_DEFINITIONS.activeUsers },
    { label: 'Total users', value: m.totalUsers, definition: TILE_DEFINITIONS.totalUsers },
    ...(superadmin ? [{ label: 'Organizations', value: m.organizations, definition: TILE_DEFINITIONS.organizations }] : []),
    { label: 'Activities', value: m.activities, definition: TILE_DEFINITIONS.activities },
  ];
}

/**
 * What each tile counts, as the API computes it (api/src/routes/metrics.rs, overview), in the
 * chosen period and organization (every organization for a superadmin): said on the tile, so two
 * figures that differ say why.
 */
export const TILE_DEFINITIONS = {
  logins: 'Successful sign-ins in the period, by everyone (superadmins included).',
  failedLogins: 'Refused sign-in attempts in the period.',
  activeUsers: 'People who signed in at least once in the period, including accounts removed since.',
  totalUsers: 'Accounts that exist now.',
  organizations: 'Organizations that exist now.',
  activities: 'Creations, changes, shares and deletions recorded in the period.',
} as const;

/** Totals for the period as tiles, and activity per asset kind as a bar chart. */
export function UsageSummary({ period, organizationId, superadmin }: { period: MetricPeriod; organizationId?: Id; superadmin: boolean }) {
  const metrics = useMetrics(period, organizationId);
  if (metrics.isPending) return <Skeleton h={120} />;
  if (metrics.isError) return <QueryError error={metrics.error} onRetry={() => metrics.refetch()} />;
  const m = metrics.data.metrics;
  const tiles = summaryTiles(m, superadmin);
  const usage = m.byEntity.map((e) => ({ entity: ENTITY_LABELS[e.entity] ?? e.entity, count: e.count }));
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, md: tiles.length }} role="list" aria-label="Totals">
        {tiles.map((t) => (
          <Paper key={t.label} withBorder p="md" role="listitem" aria-label={t.label}>
            <Group gap={4} wrap="nowrap">
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t.label}
              </Text>
              <Tooltip label={t.definition} multiline w={240}>
                <ActionIcon variant="subtle" color="gray" size="xs" aria-label={`What ${t.label} counts`}>
                  <IconInfoCircle size={14} />
                </ActionIcon>
              </Tooltip>
            </Group>
            <Text fw={700} size="xl">
              {t.value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Paper withBorder p="lg">
        <Title order={4} mb="sm">
          Activity by kind
        </Title>
        {usage.length === 0 ? (
          <EmptyState title="No activity in this period" />
        ) : (
          <BarChart h={220} data={usage} dataKey="entity" series={[{ name: 'count', label: 'Activities', color: 'indigo.6' }]} />
        )}
      </Paper>
    </>
  );
}
