import { BarChart, LineChart } from '@mantine/charts';
import { Box, Paper, Skeleton, Text, Title } from '@mantine/core';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { LOGIN_CHART_LIMIT, type MetricPeriod } from '@/config/constants';
import { useNumLogins } from '@/features/admin/api/get-num-logins';
import type { Id, LoginPoint } from '@/lib/api/types';

const COLORS = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'red.6'];

/** The API names the sign-ins of an organization removed since '(deleted)'. */
const DELETED_ORGANIZATION = '(deleted)';

/** A series' legend: the organization, 'Removed organization' for one that is gone. */
function seriesName(p: LoginPoint) {
  if (p.orgName === DELETED_ORGANIZATION) return 'Removed organization';
  return p.orgName || 'Logins';
}

/** One row per date and one series per organization, as the line chart wants them. */
export function pivotLogins(points: readonly LoginPoint[]) {
  const series = [...new Set(points.map(seriesName))];
  const byDate = new Map<string, Record<string, number | string>>();
  for (const p of points) {
    const row = byDate.get(p.date) ?? { date: p.date };
    const name = seriesName(p);
    row[name] = ((row[name] as number | undefined) ?? 0) + p.logins;
    byDate.set(p.date, row);
  }
  const rows = [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)));
  for (const row of rows) for (const s of series) row[s] ??= 0;
  return { rows, series: series.map((name, i) => ({ name, color: COLORS[i % COLORS.length] })) };
}

/** Logins over the chosen period; a superadmin sees the top 5 organizations. */
export function LoginsChart({ period, organization }: { period: MetricPeriod; organization?: Id }) {
  const logins = useNumLogins({ period, organization, limit: LOGIN_CHART_LIMIT });
  const { rows, series } = pivotLogins(logins.data?.logins ?? []);
  return (
    <Paper withBorder p="lg">
      <Title order={4} mb="sm">
        Logins
      </Title>
      {logins.isPending && <Skeleton h={240} />}
      {logins.isError && <QueryError error={logins.error} onRetry={() => logins.refetch()} />}
      {logins.isSuccess && rows.length === 0 && <EmptyState title="No logins in this period" />}
      {rows.length > 0 && (
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
            Total: {rows.reduce((n, r) => n + series.reduce((m, s) => m + Number(r[s.name] ?? 0), 0), 0)} logins
            {rows.length === 1 && ` on ${String(rows[0].date)}`}
            {/* Across organizations the chart keeps the busiest few; the Logins tile counts everyone. */}
            {organization === undefined && ` (the ${LOGIN_CHART_LIMIT} organizations with the most sign-ins; superadmins and smaller organizations are in the Logins tile only)`}
          </Text>
        </>
      )}
    </Paper>
  );
}
