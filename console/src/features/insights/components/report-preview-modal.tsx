import { Anchor, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';

import { QueryError } from '@/components/ui/query-error';
import { useInsight } from '@/features/insights/api/get-insight';
import type { InsightView } from '@/lib/api/types';

/** The file preview of an imported report (spec 000 §2): its PDF, from a presigned `report_url`. */
export function ReportPreviewModal({ insight, onClose }: { insight: Pick<InsightView, 'id' | 'name'>; onClose: () => void }) {
  const detail = useInsight(insight.id);
  const url = detail.data?.report_url;
  return (
    <Modal opened onClose={onClose} title={insight.name} size="90%" centered>
      {detail.isPending && (
        <Center h={300} role="status" aria-label="Loading the report">
          <Loader />
        </Center>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} />}
      {detail.isSuccess && !url && <Text c="dimmed">The report file is not available.</Text>}
      {url && (
        <Stack gap="xs">
          <iframe title={`Preview of ${insight.name}`} src={url} style={{ width: '100%', height: '75vh', border: 0 }} />
          <Group justify="flex-end">
            <Anchor href={url} target="_blank" rel="noreferrer" size="sm">
              <Group gap={4}>
                Open in a new tab <IconExternalLink size={14} />
              </Group>
            </Anchor>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
