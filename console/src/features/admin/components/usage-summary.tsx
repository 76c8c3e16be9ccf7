import { BarChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';

import { DefinitionHint } from '@/components/ui/definition-hint';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import type { MetricPeriod } from '@/config/constants';
import { useMetrics } from '@/features/admin/api/get-metrics';
import type { ActivityEntity, Id } from '@/lib/api/types';

const ENTITY_LABELS: Record<ActivityEntity, string> = {
  applications: 'Insights',
  projects: 'Projects',
  workflows: 'Workflows',
  datasets: 'Datasets',
  notebooks: 'Notebooks',
  users: 'Users',
  organizations: 'Organizations',
  flighting: 'Flighting',
};

/**
 * The period's figures as tiles — which, in what order, their labels and what each counts all come
 * from the API (api/src/domain/metrics.rs, Figure), so a tooltip says exactly what the number is —
 * and activity per asset kind as a bar chart.
 */
export function UsageSummary({ period, organizationId }: { period: MetricPeriod; organizationId?: Id }) {
  const metrics = useMetrics(period, organizationId);
  if (metrics.isPending) return <Skeleton h={120} />;
  if (metrics.isError) return <QueryError error={metrics.error} onRetry={() => metrics.refetch()} />;
  const tiles = metrics.data.figures;
  const usage = metrics.data.metrics.byEntity.map((e) => ({ entity: ENTITY_LABELS[e.entity], count: e.count }));
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, md: tiles.length }} role="list" aria-label="Totals">
        {tiles.map((t) => (
          <Paper key={t.figure} withBorder p="md" role="listitem" aria-label={t.label}>
            <Group gap={4} wrap="nowrap">
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t.label}
              </Text>
              <DefinitionHint label={t.label} definition={t.definition} />
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
