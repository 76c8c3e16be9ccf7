import { LineChart } from '@mantine/charts';
import { Alert, Badge, Group, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';

import { useTemplateForecast } from '@/features/templates/api/template-data';
import { ClusterTemplate } from '@/features/templates/components/cluster-template';
import { FORECAST_LINES, type ForecastLine, OPTIMAL_CLUSTERS, SIDEBAR_CLUSTERS_RANGE } from '@/features/templates/utils/constants';

/** The chart shows at most this many points of the history (evenly spaced); the forecast always whole. */
const CHART_POINTS = 1500;

type Row = { x: string; Actual?: number; 'Fitted Values'?: number; 'Moving Average'?: number | null; Forecast?: number };

/**
 * The optimization (campaign) template (spec 001 §2, §4, §9): a forecast of a numeric column over
 * a time column — its fitted values, moving average and forecast, one or ALL of them; a spinner
 * while the forecast is on and its data has not arrived — beside a segmentation sidebar with 2 to
 * 8 clusters (4 stated as optimal).
 */
export function ForecastTemplate({ id, columns, numeric }: { id: string; columns: string[]; numeric: string[] }) {
  const [x, setX] = useState<string | null>(columns.find((c) => !numeric.includes(c)) ?? columns[0] ?? null);
  const [y, setY] = useState<string | null>(numeric[0] ?? null);
  const [on, setOn] = useState(false);
  const [line, setLine] = useState<ForecastLine>('ALL');
  const [horizon, setHorizon] = useState(12);
  const forecast = useTemplateForecast(id, on && x && y ? { x, y, horizon, window: 3 } : null);
  const f = forecast.data;

  let rows: Row[] = [];
  if (f) {
    const step = Math.max(1, Math.ceil(f.x.length / CHART_POINTS));
    for (let i = 0; i < f.x.length; i += step) {
      rows.push({ x: f.x[i], Actual: f.y[i], 'Fitted Values': f.fitted[i], 'Moving Average': f.moving_average[i] });
    }
    rows = rows.concat(f.forecast.map((v, i) => ({ x: `+${i + 1}`, Forecast: v })));
  }
  // The data itself, always; then ALL the model's lines or the one chosen.
  const lines = [
    { name: 'Actual', color: 'gray.6' },
    ...(line === 'ALL' ? FORECAST_LINES.slice(1) : [line]).map((name) => ({
      name,
      color: name === 'Forecast' ? 'red.6' : name === 'Fitted Values' ? 'teal.6' : 'orange.6',
    })),
  ];

  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
      <Stack style={{ gridColumn: 'span 2' }}>
        <Group align="flex-end" gap="sm">
          <Select label="Time" data={columns} value={x} onChange={setX} w={150} allowDeselect={false} />
          <Select label="Value" data={numeric} value={y} onChange={setY} w={150} allowDeselect={false} />
          <NumberInput label="Steps ahead" min={1} max={1000} value={horizon} onChange={(v) => setHorizon(Math.max(1, Number(v) || 1))} w={110} clampBehavior="strict" />
          <Select label="Lines" data={[...FORECAST_LINES]} value={line} onChange={(v) => setLine((v as ForecastLine) ?? 'ALL')} w={170} allowDeselect={false} />
          <Switch label="Forecast" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} mb={8} />
        </Group>
        {!on && <Text c="dimmed">Waiting: turn on Forecast to fit a model to {y ?? 'a column'}.</Text>}
        {on && !f && !forecast.isError && (
          <Group gap="xs" role="status" aria-label="Forecasting">
            <Loader size="sm" />
            <Text c="dimmed">Forecasting…</Text>
          </Group>
        )}
        {forecast.isError && (
          <Alert color="red" variant="light" role="alert">
            {forecast.error.message}
          </Alert>
        )}
        {on && f && (
          <>
            <LineChart h={380} data={rows} dataKey="x" series={lines} withDots={false} connectNulls={false} aria-label="Forecast chart" />
            <Group gap="xs">
              <Badge variant="light">{f.model}</Badge>
              <Text size="sm" c="dimmed">
                Exponential smoothing chosen by AICc; {f.y.length.toLocaleString()} points
                {f.y.length > CHART_POINTS ? ` (${CHART_POINTS.toLocaleString()} shown)` : ''}; next value {f.forecast[0]?.toFixed(2)} (95 % between {f.lower[0]?.toFixed(2)} and {f.upper[0]?.toFixed(2)}).
              </Text>
            </Group>
          </>
        )}
      </Stack>
      <Paper withBorder p="md" component="aside" aria-label="Segments">
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={5}>Segments</Title>
            <Text size="sm" c="dimmed">
              Optimal: {OPTIMAL_CLUSTERS} clusters
            </Text>
          </Group>
          <ClusterTemplate id={id} numeric={numeric} range={SIDEBAR_CLUSTERS_RANGE} compact />
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
