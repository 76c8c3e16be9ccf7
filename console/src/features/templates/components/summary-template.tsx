import { BarChart, LineChart, RadarChart } from '@mantine/charts';
import { Alert, Group, Loader, MultiSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';

import { useTemplateSeries } from '@/features/templates/api/template-data';
import { AGGREGATIONS, CLUSTER_COLORS, GRAPH_TYPES, type GraphType, NO_AGGREGATION } from '@/features/templates/utils/constants';

/** Up to this many columns are charted side by side. */
const SERIES_MAX = 4;

/**
 * The summary (slice-and-dice) template (spec 001 §2, §9): numeric columns by a column, with an
 * aggregation (sum, mean, median, variance, count; 'No aggregation' by default) as a line, bar,
 * stacked bar or radar chart.
 */
export function SummaryTemplate({ id, columns, numeric }: { id: string; columns: string[]; numeric: string[] }) {
  const [x, setX] = useState<string | null>(columns.find((c) => !numeric.includes(c)) ?? columns[0] ?? null);
  const [ys, setYs] = useState<string[]>(numeric.slice(0, 1));
  const [aggregation, setAggregation] = useState<string>(NO_AGGREGATION);
  const [type, setType] = useState<GraphType>('bar');
  const results = useTemplateSeries(id, x, ys, aggregation);
  const failed = results.find((r) => r.isError);
  const ready = ys.length > 0 && results.every((r) => r.data && 'labels' in r.data);
  const series = ys.map((y, i) => ({ name: y, color: CLUSTER_COLORS[i % CLUSTER_COLORS.length] }));
  // One row a label, one key a column.
  const first = results[0]?.data;
  const labels = first && 'labels' in first ? first.labels : [];
  const data = ready
    ? labels.map((label, i) => ({
        label,
        ...Object.fromEntries(ys.map((y, j) => {
          const r = results[j].data;
          return [y, r && 'values' in r ? (r.values[i] ?? null) : null];
        })),
      }))
    : [];
  const total = first && 'total' in first ? first.total : 0;

  return (
    <Stack>
      <Group align="flex-end" gap="sm">
        <Select label="By" data={columns} value={x} onChange={setX} w={160} allowDeselect={false} />
        <MultiSelect label="Values" data={numeric} value={ys} onChange={(v) => setYs(v.slice(0, SERIES_MAX))} w={260} maxValues={SERIES_MAX} />
        <Select label="Aggregation" data={[...AGGREGATIONS]} value={aggregation} onChange={(v) => setAggregation(v ?? NO_AGGREGATION)} w={170} allowDeselect={false} />
        <SegmentedControl value={type} onChange={(v) => setType(v as GraphType)} data={GRAPH_TYPES.map((g) => ({ value: g.value, label: g.label }))} aria-label="Graph type" />
        {results.some((r) => r.isFetching) && <Loader size="sm" aria-label="Summarising" />}
      </Group>
      {ys.length === 0 && <Text c="dimmed">Choose a numeric column to chart.</Text>}
      {failed?.error && (
        <Alert color="red" variant="light" role="alert">
          {failed.error.message}
        </Alert>
      )}
      {ready && data.length === 0 && <Text c="dimmed">No row has a number in these columns.</Text>}
      {ready && data.length > 0 && (
        <>
          {type === 'line' && <LineChart h={360} data={data} dataKey="label" series={series} curveType="linear" withDots={data.length <= 60} aria-label="Summary chart" />}
          {(type === 'bar' || type === 'stacked') && (
            <BarChart h={360} data={data} dataKey="label" series={series} type={type === 'stacked' ? 'stacked' : 'default'} aria-label="Summary chart" />
          )}
          {type === 'radar' && <RadarChart h={360} data={data} dataKey="label" series={series.map((s) => ({ ...s, opacity: 0.2 }))} withPolarRadiusAxis aria-label="Summary chart" />}
          <Text size="sm" c="dimmed">
            {aggregation === NO_AGGREGATION
              ? `${total.toLocaleString()} rows${data.length < total ? `, ${data.length.toLocaleString()} evenly spaced shown` : ''}`
              : `${data.length.toLocaleString()} groups of ${x}`}
          </Text>
        </>
      )}
    </Stack>
  );
}
