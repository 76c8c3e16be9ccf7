import { Alert, Group, Loader, Radio, Skeleton, Stack, Text } from '@mantine/core';

import { useTemplateDataFiles, useTemplateFileRows } from '@/features/templates/api/template-data';

/** What keeps the dataset step from being done once a dataset is chosen. */
export const FILE_MESSAGE = 'Choose the data file the app reads';

type DataFiles = ReturnType<typeof useTemplateDataFiles>;

/**
 * The wizard's data file, under the dataset: the dataset's .csv, .xlsx and .xls files at its top
 * level with their sizes; `value` is the one chosen (the wizard starts from the API's default,
 * the first .csv), and whether it fits the row bound of template apps is said under the list.
 */
export function TemplateFileField({ datasetId, files, value, onChange }: { datasetId: string; files: DataFiles; value: string | null; onChange: (file: string) => void }) {
  if (files.isPending) return <Skeleton h={72} aria-label="Loading the dataset's files" />;
  if (files.isError) {
    return (
      <Alert color="red" variant="light" title="The dataset's files could not be listed">
        {files.error.message}
      </Alert>
    );
  }
  if (files.data.files.length === 0) {
    return (
      <Alert color="yellow" variant="light" title="No data file">
        This dataset has no .csv, .xlsx or .xls file at its top level: upload one, or choose another dataset.
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Radio.Group label="Data file" description="The file the app reads (every chart and the table beneath)." value={value} onChange={onChange}>
        <Stack gap={6} mt="xs">
          {files.data.files.map((f) => (
            <Radio key={f.file} value={f.file} label={`${f.file} (${f.size_text})`} />
          ))}
        </Stack>
      </Radio.Group>
      {value && <FileRowsNote datasetId={datasetId} file={value} />}
    </Stack>
  );
}

/** Whether `file` fits the row bound: its row count, or a warning naming the bound before Create. */
export function FileRowsNote({ datasetId, file }: { datasetId: string; file: string }) {
  const rows = useTemplateFileRows(datasetId, file);
  if (rows.isPending) {
    return (
      <Group gap="xs">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Counting the rows of {file}…
        </Text>
      </Group>
    );
  }
  if (rows.isError) {
    return (
      <Alert color="red" variant="light" title={`${file} could not be read`}>
        {rows.error.message}
      </Alert>
    );
  }
  if (!rows.data.fits) {
    return (
      <Alert color="yellow" variant="light" title="Too many rows for a template app">
        {rows.data.message}
      </Alert>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {file}: {(rows.data.rows ?? 0).toLocaleString()} rows (template apps read at most {rows.data.max_rows.toLocaleString()}).
    </Text>
  );
}
