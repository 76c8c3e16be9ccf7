import '@mantine/charts/styles.css';

import { Alert, Paper, Skeleton, Stack, Title } from '@mantine/core';

import { useTemplateColumns, useTemplatePage } from '@/features/templates/api/template-data';
import { ClusterTemplate } from '@/features/templates/components/cluster-template';
import { DataTable, numericColumns } from '@/features/templates/components/data-table';
import { ForecastTemplate } from '@/features/templates/components/forecast-template';
import { SummaryTemplate } from '@/features/templates/components/summary-template';
import { TABLE_ROWS, type TemplateKind } from '@/features/templates/utils/constants';

/**
 * A template app (spec 001 §2 /app/{id}): the cluster, summary or optimization template over its
 * dataset's file, and the data beneath. Numeric columns are those whose first rows hold numbers.
 */
export function TemplateView({ id, template }: { id: string; template: TemplateKind }) {
  const columns = useTemplateColumns(id);
  const first = useTemplatePage(id, 0, TABLE_ROWS);
  if (columns.isPending || first.isPending) return <Skeleton h={420} aria-label="Loading the app's data" />;
  const failed = columns.error ?? first.error;
  if (failed || !columns.data || !first.data) {
    return (
      <Alert color="red" variant="light" role="alert" title="The app's data could not be read">
        {failed?.message}
      </Alert>
    );
  }
  const names = columns.data.columns;
  const numeric = numericColumns(names, first.data.rows as Record<string, unknown>[]);
  return (
    <Stack>
      <Paper withBorder p="md">
        {template === 'cluster' && <ClusterTemplate id={id} numeric={numeric} />}
        {template === 'slice-and-dice' && <SummaryTemplate id={id} columns={names} numeric={numeric} />}
        {template === 'campaign' && <ForecastTemplate id={id} columns={names} numeric={numeric} />}
      </Paper>
      <Paper withBorder p="md">
        <Title order={5} mb="xs">
          Data: {columns.data.file}
        </Title>
        <DataTable id={id} columns={names} />
      </Paper>
    </Stack>
  );
}
