import { Alert, Button, Group, ScrollArea, Skeleton, Table, Text } from '@mantine/core';
import { useState } from 'react';

import { useTemplatePage } from '@/features/templates/api/template-data';
import { TABLE_ROWS } from '@/features/templates/utils/constants';

function show(v: unknown) {
  if (v === null || v === undefined) return '';
  return typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 6 }) : String(v);
}

/** The data file's rows, 10 at a time from row 0 (spec 001 §9), with the file's row count; why not, when they cannot be read. */
export function DataTable({ id, columns }: { id: string; columns: string[] }) {
  const [start, setStart] = useState(0);
  const page = useTemplatePage(id, start, TABLE_ROWS);
  const count = page.data?.count ?? 0;
  const rows = page.data?.rows ?? [];
  return (
    <div>
      {page.isError && (
        <Alert color="red" variant="light" mb="xs" title="These rows could not be read">
          {page.error.message}
        </Alert>
      )}
      {page.isPending ? (
        <Skeleton h={240} aria-label="Loading rows" />
      ) : (
        <ScrollArea type="auto">
          <Table striped withTableBorder aria-label="Data" miw={columns.length * 110}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={start + i}>
                  {columns.map((c) => (
                    <Table.Td key={c}>{show((r as Record<string, unknown>)[c])}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <Group justify="space-between" mt="xs">
        <Text size="sm" c="dimmed">
          {count > 0 ? `Rows ${start + 1}–${Math.min(start + TABLE_ROWS, count)} of ${count.toLocaleString()}` : page.isSuccess ? 'The file has no rows' : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={start === 0} onClick={() => setStart(Math.max(0, start - TABLE_ROWS))}>
            Previous
          </Button>
          <Button size="xs" variant="default" disabled={start + TABLE_ROWS >= count} onClick={() => setStart(start + TABLE_ROWS)}>
            Next
          </Button>
        </Group>
      </Group>
    </div>
  );
}

/** The columns whose cells in the first rows are all numbers (what k-means and forecasts take). */
export function numericColumns(columns: string[], rows: Record<string, unknown>[]) {
  return columns.filter((c) => rows.length > 0 && rows.every((r) => typeof r[c] === 'number' || r[c] === null));
}
