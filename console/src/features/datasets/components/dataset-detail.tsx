import { Alert, Anchor, Box, Badge, Breadcrumbs, Button, Group, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconShare } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import type { ReactNode } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useUsageMeasuring } from '@/features/datasets/api/cache';
import { useDataset } from '@/features/datasets/api/get-dataset';
import type { DatasetView } from '@/lib/api/types';
import { DatasetLinksPanel } from '@/features/datasets/components/dataset-links-panel';
import { FileBrowser } from '@/features/datasets/components/file-browser';
import { canEdit, ownershipLine } from '@/features/datasets/utils/access';
import { folderFromParam, folderSegments, formatBytes } from '@/features/datasets/utils/files';

/** Datasets › name › folder › sub: every part but the last is a link. */
function DatasetCrumbs({ dataset, folder }: { dataset: DatasetView; folder: string }) {
  const segments = folderSegments(folder);
  return (
    <Box component="nav" aria-label="Breadcrumb">
      <Breadcrumbs>
      <Anchor component={Link} to={paths.datasets.getHref()} size="sm">
        Datasets
      </Anchor>
      {segments.length === 0 ? (
        <Text size="sm" span aria-current="page">
          {dataset.name}
        </Text>
      ) : (
        <Anchor component={Link} to={paths.dataset.getHref(dataset.id)} size="sm">
          {dataset.name}
        </Anchor>
      )}
      {segments.map((s, i) =>
        i === segments.length - 1 ? (
          <Text key={s.path} size="sm" span aria-current="page">
            {s.name}
          </Text>
        ) : (
          <Anchor key={s.path} component={Link} to={paths.dataset.getHref(dataset.id, s.path)} size="sm">
            {s.name}
          </Anchor>
        ),
      )}
    </Breadcrumbs>
      </Box>
  );
}

/**
 * /datasets/{id} (spec 001 §2): breadcrumb, name, description, owner or share info, and the file
 * browser of the folder named by `?path=`. Edit and Share need edit access; `discussion` (the
 * comments feature, through the app layer) is for everyone who can see the dataset.
 */
export function DatasetDetail({ id, onShare, discussion }: { id: string; onShare?: (d: DatasetView) => void; discussion?: ReactNode }) {
  const [params] = useSearchParams();
  const folder = folderFromParam(params.get('path'));
  const query = useDataset(id);
  const dataset = query.data?.dataset;
  const measuring = useUsageMeasuring(id);

  if (query.isPending) {
    return (
      <Stack role="status" aria-label="Loading dataset">
        <Skeleton h={16} w={200} />
        <Skeleton h={32} w={320} />
        <Skeleton h={200} />
      </Stack>
    );
  }
  if (query.isError || !dataset) {
    return (
      <Stack>
        <Anchor component={Link} to={paths.datasets.getHref()} size="sm">
          Datasets
        </Anchor>
        {query.error && <QueryError error={query.error} onRetry={() => query.refetch()} back={{ label: 'Back to Datasets', href: paths.datasets.getHref() }} />}
      </Stack>
    );
  }

  const editable = canEdit(dataset);
  return (
    <Stack>
      <Stack gap={6}>
        <DatasetCrumbs dataset={dataset} folder={folder} />
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} miw={0} style={{ flex: 1 }}>
            <Group gap="xs">
              <Title order={2}>{dataset.name}</Title>
              {dataset.sample && (
                <Badge variant="light" color="grape">
                  sample
                </Badge>
              )}
              {dataset.status !== 'ready' && (
                <Badge variant="light" color={dataset.status === 'failed' ? 'red' : 'yellow'}>
                  {dataset.status}
                </Badge>
              )}
            </Group>
            {dataset.description && <Text c="dimmed">{dataset.description}</Text>}
            <Group gap="md">
              <Text size="sm" data-testid="dataset-ownership">
                {ownershipLine(dataset)}
              </Text>
              <Text size="sm" c="dimmed" data-testid="dataset-usage" aria-busy={measuring || undefined}>
                {measuring ? (
                  <Group gap={6} component="span">
                    <Loader size={12} />
                    Counting files…
                  </Group>
                ) : (
                  <>
                    {dataset.object_count} {dataset.object_count === 1 ? 'file' : 'files'} · {formatBytes(dataset.bytes)}
                  </>
                )}
              </Text>
            </Group>
          </Stack>
          <Group gap="xs">
            {discussion}
            {editable && (
              <>
                <Button variant="default" leftSection={<IconPencil size={16} />} component={Link} to={paths.datasetEdit.getHref(dataset.id)}>
                  Edit
                </Button>
                {onShare && (
                  <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => onShare(dataset)}>
                    Share
                  </Button>
                )}
              </>
            )}
          </Group>
        </Group>
      </Stack>
      {dataset.status === 'failed' && dataset.status_message && (
        <Alert color="red" variant="light" title="The storage of this dataset failed" role="alert">
          {dataset.status_message}
        </Alert>
      )}
      <FileBrowser key={folder} dataset={dataset} folder={folder} />
      {editable && <DatasetLinksPanel datasetId={dataset.id} />}
    </Stack>
  );
}
