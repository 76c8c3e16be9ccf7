import { Alert, Code, Modal, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';

import { useFilePreview } from '@/features/datasets/api/get-file-preview';
import type { FilePreview } from '@/lib/api/types';
import { baseName } from '@/features/datasets/utils/files';

/** The note under a preview that does not show the whole file. */
export function truncationNote(p: FilePreview): string | null {
  if (!p.truncated) return null;
  if (p.columns.length > 0) return `Showing the first ${p.rows.length} ${p.rows.length === 1 ? 'row' : 'rows'}.`;
  const lines = p.text ? p.text.split('\n').length : 0;
  return `Showing the first ${lines} ${lines === 1 ? 'line' : 'lines'}.`;
}

function PreviewBody({ preview, name }: { preview: FilePreview; name: string }) {
  const note = truncationNote(preview);
  return (
    <Stack gap="sm">
      {preview.sheet && (
        <Text size="sm">
          Sheet: <b>{preview.sheet}</b>
        </Text>
      )}
      {preview.columns.length > 0 ? (
        <ScrollArea type="auto" mah={480}>
          <Table striped withTableBorder withColumnBorders stickyHeader aria-label={`Preview of ${name}`} fz="xs">
            <Table.Thead>
              <Table.Tr>
                {preview.columns.map((c, i) => (
                  <Table.Th key={i}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.rows.map((row, r) => (
                <Table.Tr key={r}>
                  {preview.columns.map((_, c) => (
                    <Table.Td key={c}>{row[c] ?? ''}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      ) : preview.text !== null ? (
        <ScrollArea type="auto" mah={480}>
          <Code block aria-label={`Preview of ${name}`}>
            {preview.text}
          </Code>
        </ScrollArea>
      ) : (
        <Text size="sm" c="dimmed">
          This file is empty.
        </Text>
      )}
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}

/** A file's first rows (a table) or lines (text), from getfilepreview. */
export function PreviewModal({ datasetId, fileKey, onClose }: { datasetId: string; fileKey: string; onClose: () => void }) {
  const name = baseName(fileKey);
  const preview = useFilePreview(datasetId, fileKey);
  return (
    <Modal opened onClose={onClose} title={`Preview: ${name}`} size="xl" centered>
      {preview.isPending && (
        <Stack gap={6} role="status" aria-label="Loading preview">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} h={24} />
          ))}
        </Stack>
      )}
      {preview.isError && (
        <Alert color="yellow" variant="light" title="No preview" role="alert">
          {preview.error.message}
        </Alert>
      )}
      {preview.data && <PreviewBody preview={preview.data.preview} name={name} />}
    </Modal>
  );
}
