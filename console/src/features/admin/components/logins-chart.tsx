import { BarChart, LineChart } from '@mantine/charts';
import { Box, Group, Paper, Skeleton, Text, Title } from '@mantine/core';

import { DefinitionHint } from '@/components/ui/definition-hint';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { LOGIN_CHART_LIMIT, type MetricPeriod } from '@/config/constants';
import { useNumLogins } from '@/features/admin/api/get-num-logins';
import type { Id, LoginSeries, LoginSeriesInfo } from '@/lib/api/types';

const COLORS = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'red.6'];
/** The folded series are grey: they stand for several organizations. */
const FOLDED_COLORS: Record<LoginSeriesInfo['kind'], string | null> = { organization: null, other: 'gray.6', deleted: 'gray.4' };

/**
 * One row per date with a value per series, as the charts want them; the series are the API's, in
 * its order (the busiest organizations, 'Other organizations', 'Deleted organizations'), keyed by
 * their key and labelled by their name.
 */
export function pivotLogins({ series, logins }: Pick<LoginSeries, 'series' | 'logins'>) {
  const byDate = new Map<string, Record<string, number | string>>();
  for (const p of logins) {
    const row = byDate.get(p.date) ?? { date: p.date };
    row[p.series] = ((row[p.series] as number | undefined) ?? 0) + p.logins;
    byDate.set(p.date, row);
  }
  const rows = [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)));
  for (const row of rows) for (const s of series) row[s.key] ??= 0;
  return {
    rows,
    series: series.map((s, i) => ({ name: s.key, label: s.name, color: FOLDED_COLORS[s.kind] ?? COLORS[i % COLORS.length] })),
  };
}

/** Which organizations a folded series stands for, in words under the chart. */
function foldedLine(s: LoginSeriesInfo) {
  if (s.kind === 'other') return `${s.name}: ${s.organizations.join(', ')}`;
  if (s.kind === 'deleted') return `${s.name}: ${s.organizationCount} deleted since, ${s.logins} sign-in${s.logins === 1 ? '' : 's'}`;
  return null;
}

/**
 * Logins over the chosen period: the same sign-ins as the Logins tile, so its total is the tile's.
 * Across organizations the 5 busiest each have a line; the others and the deleted ones are one
 * line each, named under the chart.
 */
export function LoginsChart({ period, organization }: { period: MetricPeriod; organization?: Id }) {
  const logins = useNumLogins({ period, organization, limit: LOGIN_CHART_LIMIT });
  const { rows, series } = pivotLogins(logins.data ?? { series: [], logins: [] });
  const folded = (logins.data?.series ?? []).map(foldedLine).filter((l) => l !== null);
  return (
    <Paper withBorder p="lg">
      <Group gap={4} mb="sm" wrap="nowrap">
        <Title order={4}>Logins</Title>
        {logins.data && <DefinitionHint label="the Logins chart" definition={logins.data.definition} />}
      </Group>
      {logins.isPending && <Skeleton h={240} />}
      {logins.isError && <QueryError error={logins.error} onRetry={() => logins.refetch()} />}
      {logins.isSuccess && rows.length === 0 && <EmptyState title="No logins in this period" />}
      {logins.data && rows.length > 0 && (
        <>
          {/* A line needs two days: one day is bars (one per organization), not a lone dot. */}
          <Box data-testid="logins-chart" data-kind={rows.length > 1 ? 'line' : 'bar'}>
            {rows.length > 1 ? (
              <LineChart h={260} data={rows} dataKey="date" series={series} curveType="monotone" withLegend={series.length > 1} />
            ) : (
              <BarChart h={260} data={rows} dataKey="date" series={series} withLegend={series.length > 1} maxBarWidth={80} />
            )}
          </Box>
          <Text size="xs" c="dimmed" mt="xs">
            Total: {logins.data.total} login{logins.data.total === 1 ? '' : 's'}{rows.length === 1 && ` on ${String(rows[0].date)}`}
          </Text>
          {folded.map((line) => (
            <Text key={line} size="xs" c="dimmed">
              {line}
            </Text>
          ))}
        </>
      )}
    </Paper>
  );
}
