import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';

import { QueryError } from '@/components/ui/query-error';
import type { MetricPeriod } from '@/config/constants';
import { useMetrics } from '@/features/admin/api/get-metrics';

const LABELS: Record<string, string> = {
  users: 'Users',
  activeUsers: 'Active users',
  logins: 'Logins',
  applications: 'Insights',
  projects: 'Projects',
  workflows: 'Workflows',
  datasets: 'Datasets',
};

/** Totals for the period as tiles, and the usage per asset kind as a bar chart. */
export function UsageSummary({ period }: { period: MetricPeriod }) {
  const metrics = useMetrics(period);
  if (metrics.isPending) return <Skeleton h={120} />;
  if (metrics.isError) return <QueryError error={metrics.error} onRetry={() => metrics.refetch()} />;
  const entries = Object.entries(metrics.data.metrics ?? {});
  const usage = entries
    .filter(([k]) => ['applications', 'projects', 'workflows', 'datasets'].includes(k))
    .map(([k, v]) => ({ entity: LABELS[k] ?? k, count: v }));
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, md: Math.min(6, Math.max(entries.length, 1)) }} role="list" aria-label="Totals">
        {entries.map(([k, v]) => (
          <Paper key={k} withBorder p="md" role="listitem">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {LABELS[k] ?? k}
            </Text>
            <Text fw={700} size="xl">
              {v}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {usage.length > 0 && (
        <Paper withBorder p="lg">
          <Title order={4} mb="sm">
            Usage
          </Title>
          <BarChart h={220} data={usage} dataKey="entity" series={[{ name: 'count', label: 'Uses', color: 'indigo.6' }]} />
        </Paper>
      )}
    </>
  );
}
