import {
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { RowMenu } from '@/components/ui/row-menu';
import {
  DATASET_FILTERS,
  type DatasetFilter,
  DEFAULT_DATASET_FILTER,
  ROW_DESCRIPTION_MAX,
} from '@/config/constants';
import { paths } from '@/config/paths';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { useDeleteDataset } from '@/features/datasets/api/delete-dataset';
import type { DatasetView } from '@/lib/api/types';
import { Pager } from '@/components/ui/pager';
import { accessLabel, canEdit, ownerLabel } from '@/features/datasets/utils/access';
import { formatBytes } from '@/features/datasets/utils/files';
import { DATASET_MESSAGES } from '@/features/datasets/utils/messages';
import { notify } from '@/lib/notify';
import { useDates } from '@/lib/dates';
import { useListControls } from '@/lib/use-list-controls';
import { truncate } from '@/lib/text';
import { ListToolbar } from '@/components/ui/list-toolbar';

/** What an empty list says, per filter (and search). */
export function emptyDatasetsMessage(filter: DatasetFilter, search: string): { title: string; hint?: string } {
  if (search) return { title: `No datasets match “${search}”`, hint: 'Try another name or description.' };
  switch (filter) {
    case 'owned':
      return { title: 'You have not created any datasets yet', hint: 'Import a dataset to upload your files.' };
    case 'shared':
      return { title: 'Nothing shared with you yet', hint: 'Datasets your colleagues share with you appear here.' };
    case 'sample':
      return { title: 'No sample datasets', hint: 'Your organization has no sample datasets.' };
    default:
      return { title: 'No datasets yet', hint: 'Import a dataset to upload your files.' };
  }
}

const ACCESS_COLORS: Record<string, string> = { owner: 'indigo', edit: 'teal', view: 'gray' };

function DeleteDatasetDialog({ dataset, onClose }: { dataset: DatasetView; onClose: () => void }) {
  const del = useDeleteDataset({
    onSuccess: () => {
      notify.success(DATASET_MESSAGES.deleted);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      question={DATASET_MESSAGES.deleteConfirm}
      detail={`${dataset.name} and all its files.`}
      loading={del.isPending}
      onConfirm={() => del.mutate(dataset.id)}
      onClose={onClose}
    />
  );
}

/** Edit / Share / Delete: only with edit access (spec 001 §6). */
function DatasetRow({ dataset, onShare }: { dataset: DatasetView; onShare?: (d: DatasetView) => void }) {
  const dates = useDates();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  return (
    <Table.Tr data-testid="dataset-row" data-name={dataset.name}>
      <Table.Td>
        <Anchor component={Link} to={paths.dataset.getHref(dataset.id)} fw={500}>
          {dataset.name}
        </Anchor>
        {dataset.description && (
          <Text size="xs" c="dimmed" title={dataset.description}>
            {truncate(dataset.description, ROW_DESCRIPTION_MAX)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{ownerLabel(dataset)}</Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color={ACCESS_COLORS[dataset.access_level] ?? 'gray'}>
          {accessLabel(dataset)}
        </Badge>
      </Table.Td>
      <Table.Td>{dataset.object_count}</Table.Td>
      <Table.Td>{formatBytes(dataset.bytes)}</Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {dates.relative(dataset.updated_at)}
        </Text>
      </Table.Td>
      <Table.Td data-row-actions>
        <Group justify="flex-end">
          {canEdit(dataset) && (
            <RowMenu
              name={dataset.name}
              onEdit={() => navigate(paths.datasetEdit.getHref(dataset.id))}
              onShare={onShare && (() => onShare(dataset))}
              onDelete={() => setDeleting(true)}
            />
          )}
        </Group>
        {deleting && <DeleteDatasetDialog dataset={dataset} onClose={() => setDeleting(false)} />}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /datasets (spec 001 §2): All / Created by me / Shared with me / Samples, a search after a
 * 500 ms pause, Prev / page / Next, owner and access per row, the row menu for editors, and the
 * 'Import dataset' link. The filter lives in the address (`?filter=shared`).
 */
export function DatasetsList({ onShare }: { onShare?: (d: DatasetView) => void }) {
  const { filter, chooseFilter, search, setSearch, debounced, page, setPage } = useListControls(DATASET_FILTERS, DEFAULT_DATASET_FILTER);

  const datasets = useDatasets({ filter, page, search: debounced });
  const data = datasets.data;
  const items = data?.datasets ?? [];
  const totalPages = Math.max(1, data?.total_pages ?? 1);

  const empty = emptyDatasetsMessage(filter, debounced);

  return (
    <Stack>
      <PageHeader
        title="Datasets"
        actions={
          <Button component={Link} to={paths.datasetNew.getHref()} leftSection={<IconFileImport size={16} />}>
            Import dataset
          </Button>
        }
      />

      <Tabs value={filter} onChange={chooseFilter}>
        <Tabs.List aria-label="Dataset filter">
          {DATASET_FILTERS.map((f) => (
            <Tabs.Tab key={f.value} value={f.value}>
              {f.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      <ListToolbar
        search={{ label: 'Search datasets', value: search, onChange: setSearch }}
        end={
          data && (
            <Text size="sm" c="dimmed">
              {data.total} {data.total === 1 ? 'dataset' : 'datasets'}
            </Text>
          )
        }
      />

      {datasets.isPending && (
        <Stack gap={6} role="status" aria-label="Loading datasets">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      )}
      {datasets.isError && <QueryError error={datasets.error} onRetry={() => datasets.refetch()} />}
      {datasets.isSuccess && items.length === 0 && (
        <EmptyState
          title={empty.title}
          hint={empty.hint}
          action={
            (filter === 'all' || filter === 'owned') && !debounced ? (
              <Button component={Link} to={paths.datasetNew.getHref()} variant="light" size="xs">
                Import a dataset
              </Button>
            ) : undefined
          }
        />
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table highlightOnHover aria-label="Datasets" style={{ opacity: datasets.isPlaceholderData ? 0.6 : 1 }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Access</Table.Th>
                <Table.Th>Files</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th data-row-actions>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <DatasetRow key={d.id} dataset={d} onShare={onShare} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {datasets.isSuccess && (items.length > 0 || page > 1) && (
        <Pager
          label="Dataset pages"
          page={page}
          pages={totalPages}
          hasPrev={page > 1}
          hasNext={page < totalPages}
          loading={datasets.isPlaceholderData}
          onPrev={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}
    </Stack>
  );
}
