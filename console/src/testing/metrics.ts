import type { Figure, LoginSeries, LoginSeriesInfo, MetricsSummary } from '@/lib/api/types';

/** An overview answer as the API sends it: `metrics`, and the same numbers as labelled figures. */
export function makeOverview(
  metrics: Omit<MetricsSummary['metrics'], 'byEntity'> & Partial<Pick<MetricsSummary['metrics'], 'byEntity'>>,
  { allOrganizations = false } = {},
): MetricsSummary {
  const labels: [Figure['figure'], string][] = [
    ['logins', 'Logins'],
    ['failedLogins', 'Failed logins'],
    ['activeUsers', 'Active users'],
    ['totalUsers', 'Total users'],
    ['organizations', 'Organizations'],
    ['activities', 'Activities'],
  ];
  const figures = labels
    .filter(([f]) => allOrganizations || f !== 'organizations')
    .map(([figure, label]) => ({ figure, label, value: metrics[figure as keyof typeof metrics] as number, definition: `What ${label} counts.` }));
  return { success: true, period: 'week', from: 0, to: 0, metrics: { byEntity: [], ...metrics }, figures };
}

/** One organization's series of the Logins chart. */
export function orgSeries(key: string, name: string, logins: number): LoginSeriesInfo {
  return { key, name, kind: 'organization', logins, organizations: [name], organizationCount: 1 };
}

/** A Logins chart answer as the API sends it: series in order, points by date, their total. */
export function makeLoginSeries(points: { date: string; logins: number; series: string }[], series: LoginSeriesInfo[]): LoginSeries {
  const name = new Map(series.map((s) => [s.key, s.name]));
  return {
    success: true,
    period: 'week',
    from: 0,
    to: 0,
    total: points.reduce((n, p) => n + p.logins, 0),
    definition: 'Successful sign-ins during the period (the Logins figure).',
    series,
    logins: points.map((p) => ({ ...p, orgName: name.get(p.series) ?? '' })),
  };
}
