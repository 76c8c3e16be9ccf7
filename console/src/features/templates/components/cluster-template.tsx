import { ScatterChart } from '@mantine/charts';
import { Alert, Group, Loader, NumberInput, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { lazy, Suspense, useCallback, useState } from 'react';

import { useTemplateGraph } from '@/features/templates/api/template-data';
import { CLUSTER_COLORS, CLUSTERS_DEFAULT, CLUSTERS_RANGE } from '@/features/templates/utils/constants';

type Mode = 'kmeans2d' | 'kmeans3d';

/** three.js is its own chunk, loaded when a 3D scatter is first drawn. */
const Scatter3d = lazy(() => import('@/features/templates/components/scatter-3d').then((m) => ({ default: m.Scatter3d })));

/** Two of three axes of the points, one series a cluster. */
function projection(points: number[][], dims: number, a: number, b: number, k: number) {
  return Array.from({ length: k }, (_, i) => ({
    name: `Cluster ${i + 1}`,
    color: CLUSTER_COLORS[i % CLUSTER_COLORS.length],
    data: points.filter((p) => p[dims] === i).map((p) => ({ x: p[a], y: p[b] })),
  }));
}

/**
 * The cluster template (spec 001 §2, §9): k-means over two columns (kmeans2d) or three
 * (kmeans3d: a 3D scatter to turn and zoom; its three pairwise projections where the browser has
 * no WebGL, saying so), 1 to 9 clusters (4 by default), nine colours, and each cluster's centre
 * and size.
 */
export function ClusterTemplate({ id, numeric, range = CLUSTERS_RANGE, compact = false }: { id: string; numeric: string[]; range?: { min: number; max: number }; compact?: boolean }) {
  const [mode, setMode] = useState<Mode>('kmeans2d');
  const [cols, setCols] = useState<(string | null)[]>([numeric[0] ?? null, numeric[1] ?? null, numeric[2] ?? null]);
  const [k, setK] = useState(CLUSTERS_DEFAULT);
  const dims = mode === 'kmeans3d' ? 3 : 2;
  const chosen = cols.slice(0, dims);
  const complete = chosen.every(Boolean) && new Set(chosen).size === dims;
  const graph = useTemplateGraph(id, complete ? { kind: 'kmeans', columns: chosen as string[], clusters: k } : null);
  // The answer kept while the next one comes (keepPreviousData) is drawn only if it has this
  // mode's dimensions: a 2D answer's points have no third axis to draw in 3D.
  const result = graph.data && 'clusters' in graph.data && graph.data.columns.length === dims ? graph.data : null;
  const axes = dims === 3 ? ([[0, 1], [0, 2], [1, 2]] as const) : ([[0, 1]] as const);
  const [noWebGl, setNoWebGl] = useState<string | null>(null);
  const onUnsupported = useCallback((why: string) => setNoWebGl(why), []);
  const threeD = dims === 3 && !noWebGl && !compact;

  if (numeric.length < 2) {
    return <Alert color="yellow" variant="light" title="Nothing to cluster">The data needs two numeric columns; its first rows have {numeric.length}.</Alert>;
  }
  return (
    <Stack>
      <Group align="flex-end" gap="sm">
        {!compact && <SegmentedControl value={mode} onChange={(v) => setMode(v as Mode)} data={[{ value: 'kmeans2d', label: '2D' }, { value: 'kmeans3d', label: '3D', disabled: numeric.length < 3 }]} aria-label="Mode" />}
        {chosen.map((c, i) => (
          <Select key={i} label={['X', 'Y', 'Z'][i]} data={numeric} value={c} onChange={(v) => setCols((old) => old.map((o, j) => (j === i ? v : o)))} w={150} allowDeselect={false} />
        ))}
        <NumberInput label="Clusters" min={range.min} max={range.max} value={k} onChange={(v) => setK(Math.min(range.max, Math.max(range.min, Number(v) || range.min)))} w={110} clampBehavior="strict" />
        {graph.isFetching && <Loader size="sm" aria-label="Clustering" />}
      </Group>
      {!complete && <Text c="dimmed">Choose {dims} different columns.</Text>}
      {graph.isError && (
        <Alert color="red" variant="light" role="alert">
          {graph.error.message}
        </Alert>
      )}
      {result && (
        <>
          {dims === 3 && noWebGl && (
            <Alert color="yellow" variant="light" title="This browser cannot draw 3D charts">
              WebGL is not available ({noWebGl}); here are the three pairwise views instead.
            </Alert>
          )}
          {threeD ? (
            <Suspense fallback={<Skeleton h={420} aria-label="Loading the 3D chart" />}>
              <Scatter3d points={result.points} columns={result.columns} clusters={result.clusters.length} height={420} onUnsupported={onUnsupported} />
            </Suspense>
          ) : (
          <SimpleGrid cols={{ base: 1, md: axes.length }}>
            {axes.map(([a, b]) => (
              <ScatterChart
                // Made anew when the number of clusters changes: the chart's legend keeps the old series otherwise.
                key={`${a}${b}-${result.clusters.length}`}
                h={compact ? 240 : 360}
                data={projection(result.points, dims, a, b, result.clusters.length)}
                dataKey={{ x: 'x', y: 'y' }}
                xAxisLabel={result.columns[a]}
                yAxisLabel={result.columns[b]}
                withLegend={!compact}
                aria-label={`${result.columns[a]} against ${result.columns[b]}`}
              />
            ))}
          </SimpleGrid>
          )}
          <Text size="sm" c="dimmed">
            {result.total.toLocaleString()} rows clustered{result.skipped ? `, ${result.skipped.toLocaleString()} left out (a cell that is not a number)` : ''}
            {result.points.length < result.total ? `; ${result.points.length.toLocaleString()} shown` : ''}.
          </Text>
          {!compact && (
            <Table withTableBorder aria-label="Clusters" maw={560}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Cluster</Table.Th>
                  {result.columns.map((c) => (
                    <Table.Th key={c}>Centre: {c}</Table.Th>
                  ))}
                  <Table.Th>Rows</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.clusters.map((c, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>Cluster {i + 1}</Table.Td>
                    {c.centroid.map((v, j) => (
                      <Table.Td key={j}>{v.toFixed(3)}</Table.Td>
                    ))}
                    <Table.Td>{c.size.toLocaleString()}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  );
}
