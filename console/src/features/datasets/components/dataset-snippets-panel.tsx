import { Anchor, Breadcrumbs, Code, CopyButton, Button, Group, NavLink, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDatabase, IconFile, IconFolder } from '@tabler/icons-react';
import { useState } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { COPY_CONFIRMATION_MS } from '@/config/constants';
import { useAccessUrl } from '@/features/datasets/api/get-access-url';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { useFolderPage } from '@/features/datasets/api/list-files';
import { baseName } from '@/features/datasets/utils/files';
import { API_KEY_VARIABLE, datasetSnippet, SNIPPET_LANGUAGES } from '@/features/datasets/utils/snippets';
import type { DatasetView } from '@/lib/api/types';

type Tab = 'owned' | 'shared';

function Snippets({ datasetId, fileKey }: { datasetId: string; fileKey: string }) {
  const urls = useAccessUrl(datasetId, fileKey);
  if (urls.isPending) return <Skeleton h={120} role="status" aria-label="Loading the snippet" />;
  if (urls.isError) return <QueryError error={urls.error} onRetry={() => void urls.refetch()} />;
  return (
    <Tabs defaultValue="python" variant="outline">
      <Tabs.List aria-label="Snippet language">
        {SNIPPET_LANGUAGES.map((l) => (
          <Tabs.Tab key={l.value} value={l.value} fz="xs">
            {l.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {SNIPPET_LANGUAGES.map((l) => {
        // The snippet runs in the project's container: the API's address as pods reach it.
        const code = datasetSnippet(l.value, urls.data.pod_url ?? urls.data.permanent_url, fileKey);
        return (
          <Tabs.Panel key={l.value} value={l.value} pt={4}>
            <Stack gap={4}>
              <Code block fz={11} aria-label={`${l.label} snippet`}>
                {code}
              </Code>
              <CopyButton value={code} timeout={COPY_CONFIRMATION_MS}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="light" leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Tabs.Panel>
        );
      })}
    </Tabs>
  );
}

function DatasetFiles({ dataset, onBack }: { dataset: DatasetView; onBack: () => void }) {
  const [folder, setFolder] = useState('');
  const [file, setFile] = useState<string | null>(null);
  const page = useFolderPage(dataset.id, folder, null);
  const parts = folder.split('/').filter(Boolean);
  return (
    <Stack gap={6}>
      <Breadcrumbs separatorMargin={4} fz="xs">
        <Anchor component="button" type="button" fz="xs" onClick={onBack}>
          Datasets
        </Anchor>
        <Anchor component="button" type="button" fz="xs" onClick={() => setFolder('')}>
          {dataset.name}
        </Anchor>
        {parts.map((p, i) => (
          <Anchor key={i} component="button" type="button" fz="xs" onClick={() => setFolder(`${parts.slice(0, i + 1).join('/')}/`)}>
            {p}
          </Anchor>
        ))}
      </Breadcrumbs>
      {page.isPending && <Skeleton h={60} role="status" aria-label="Loading files" />}
      {page.isError && <QueryError error={page.error} onRetry={() => void page.refetch()} />}
      {page.data && page.data.Contents.length + page.data.CommonPrefixes.length === 0 && (
        <Text size="xs" c="dimmed">
          No files here.
        </Text>
      )}
      {page.data?.CommonPrefixes.map((f) => (
        <NavLink component="button" type="button" key={f.Prefix} label={baseName(f.Prefix)} leftSection={<IconFolder size={14} />} onClick={() => setFolder(f.Prefix)} py={2} />
      ))}
      {page.data?.Contents.map((f) => (
        <NavLink component="button" type="button" key={f.Key} label={baseName(f.Key)} leftSection={<IconFile size={14} />} active={file === f.Key} onClick={() => setFile(f.Key)} py={2} />
      ))}
      {file && (
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            Reads {baseName(file)} with your API key from the project secret {API_KEY_VARIABLE} (add it under Secrets).
          </Text>
          <Snippets datasetId={dataset.id} fileKey={file} />
        </Stack>
      )}
    </Stack>
  );
}

function DatasetPicker({ filter, onPick }: { filter: Tab; onPick: (d: DatasetView) => void }) {
  const list = useDatasets({ filter, page: 1, search: '' });
  const items = list.data?.datasets ?? [];
  if (list.isPending) return <Skeleton h={60} role="status" aria-label="Loading datasets" />;
  if (list.isError) return <QueryError error={list.error} onRetry={() => void list.refetch()} />;
  if (items.length === 0) {
    return (
      <Text size="xs" c="dimmed" p={4}>
        {filter === 'owned' ? 'You have no datasets yet.' : 'No datasets are shared with you.'}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {items.map((d) => (
        <NavLink component="button" type="button" key={d.id} label={d.name} leftSection={<IconDatabase size={14} />} onClick={() => onPick(d)} py={2} />
      ))}
      {(list.data?.total_pages ?? 1) > 1 && (
        <Text size="xs" c="dimmed" p={4}>
          The first {items.length} of {list.data?.total}; the Datasets page has them all.
        </Text>
      )}
    </Stack>
  );
}

/**
 * The datasets panel of a project's workspace (spec 001 §2 "Left panel"): My Files / Shared from
 * the datasets list, a dataset's files, and for a file code that reads it in Python, R and Bash.
 */
export function DatasetSnippetsPanel() {
  const [tab, setTab] = useState<Tab>('owned');
  const [dataset, setDataset] = useState<DatasetView | null>(null);
  if (dataset) return <DatasetFiles key={dataset.id} dataset={dataset} onBack={() => setDataset(null)} />;
  return (
    <Tabs value={tab} onChange={(v) => setTab(v === 'shared' ? 'shared' : 'owned')} variant="pills">
      <Group>
        <Tabs.List aria-label="Datasets">
          <Tabs.Tab value="owned" fz="xs">
            My Files
          </Tabs.Tab>
          <Tabs.Tab value="shared" fz="xs">
            Shared
          </Tabs.Tab>
        </Tabs.List>
      </Group>
      <Tabs.Panel value={tab} pt={4}>
        <DatasetPicker filter={tab} onPick={setDataset} />
      </Tabs.Panel>
    </Tabs>
  );
}
