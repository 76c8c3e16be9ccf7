import {
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileImport, IconLayoutGrid, IconList, IconPlus, IconTemplate } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import {
  DEFAULT_INSIGHT_FILTER,
  DEFAULT_INSIGHT_SCREEN,
  DEFAULT_INSIGHT_SORT,
  INSIGHT_FILTERS,
  INSIGHT_SCREENS,
  INSIGHTS_VIEW_STORAGE_KEY,
  type InsightFilter,
  type InsightScreen,
  type InsightSortField,
  type InsightViewMode,
  SEARCH_DEBOUNCE_MS,
  type SortOperator,
} from '@/config/constants';
import { paths } from '@/config/paths';
import { useInsights } from '@/features/insights/api/get-insights';
import type { InsightView } from '@/lib/api/types';
import { CreateInsightModal } from '@/features/insights/components/create-insight-modal';
import { ImportInsightModal } from '@/features/insights/components/import-insight-modal';
import { INSIGHT_TYPE_LABELS, ownerName } from '@/features/insights/components/insight-actions';
import {
  InsightCard,
  InsightDialogs,
  InsightMenu,
  PinToggle,
  RunControls,
  StatusBadge,
  useInsightDialogs,
} from '@/features/insights/components/insight-card';
import { isSuperadmin, useSession } from '@/lib/auth';
import { useDates } from '@/lib/dates';
import { readString, writeString } from '@/lib/storage';
import { viewCountLabel } from '@/lib/text';
import { ListToolbar } from '@/components/ui/list-toolbar';

/** Sort choices: name, created_at, updated_at, each ascending or descending (spec 001 §9). */
export const SORT_OPTIONS: { value: `${InsightSortField}:${SortOperator}`; label: string }[] = [
  { value: 'created_at:DESC', label: 'Newest first' },
  { value: 'created_at:ASC', label: 'Oldest first' },
  { value: 'updated_at:DESC', label: 'Recently updated' },
  { value: 'updated_at:ASC', label: 'Least recently updated' },
  { value: 'name:ASC', label: 'Name (A to Z)' },
  { value: 'name:DESC', label: 'Name (Z to A)' },
];

const SCREEN_NOUNS: Record<InsightScreen, string> = { Dashboard: 'insights', Reports: 'reports', Applications: 'applications' };

/** What an empty list says, per filter (and search). */
export function emptyMessage(filter: InsightFilter, screen: InsightScreen, search: string): { title: string; hint?: string } {
  const noun = SCREEN_NOUNS[screen];
  if (search) return { title: `No ${noun} match “${search}”`, hint: 'Try another name or description.' };
  switch (filter) {
    case 'starred':
      return { title: `No starred ${noun}`, hint: 'Pin an insight with its pin button to find it here.' };
    case 'owned':
      return { title: `You have not created any ${noun} yet`, hint: 'Create one, or import an app or a PDF report.' };
    case 'shared':
      return { title: 'Nothing shared with you yet', hint: 'What your colleagues share with you appears here.' };
    case 'template':
      return { title: `No template ${noun}` };
    default:
      return { title: `No ${noun} yet`, hint: 'Create one, or import an app or a PDF report.' };
  }
}

function isScreen(v: string | null): v is InsightScreen {
  return (INSIGHT_SCREENS as readonly string[]).includes(v ?? '');
}

function readViewMode(): InsightViewMode {
  return readString(INSIGHTS_VIEW_STORAGE_KEY) === 'table' ? 'table' : 'card';
}

function InsightRow({ insight, onShare, withOrganization }: { insight: InsightView; onShare?: (i: InsightView) => void; withOrganization: boolean }) {
  const dates = useDates();
  const { dialog, open, close } = useInsightDialogs();
  return (
    <Table.Tr data-testid="insight-row" data-name={insight.name}>
      <Table.Td>
        <Anchor component={Link} to={paths.app.getHref(insight.id)} fw={500}>
          {insight.name}
        </Anchor>
        {insight.description && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {insight.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{INSIGHT_TYPE_LABELS[insight.app_type] ?? insight.app_type}</Table.Td>
      <Table.Td>
        <StatusBadge status={insight.status} message={insight.status_message} />
      </Table.Td>
      <Table.Td>{ownerName(insight)}</Table.Td>
      {withOrganization && <Table.Td>{insight.organization.name}</Table.Td>}
      <Table.Td>
        <Tooltip label={viewCountLabel(insight.userMetrics)}>
          <Text size="sm" span tabIndex={0}>
            {insight.userMetrics ?? 0}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {dates.relative(insight.updated_at)}
        </Text>
      </Table.Td>
      <Table.Td data-row-actions>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <RunControls insight={insight} />
          <PinToggle insight={insight} />
          <InsightMenu insight={insight} onShare={onShare} open={open} />
        </Group>
        <InsightDialogs insight={insight} dialog={dialog} close={close} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The table view; a superadmin, who sees every organization's insights, gets an Organization column. */
function InsightsTable({ items, onShare }: { items: InsightView[]; onShare?: (i: InsightView) => void }) {
  const withOrganization = isSuperadmin(useSession().user);
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table highlightOnHover aria-label="Insights">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Owner</Table.Th>
            {withOrganization && <Table.Th>Organization</Table.Th>}
            <Table.Th>Views</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th data-row-actions>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((i) => (
            <InsightRow key={i.id} insight={i} onShare={onShare} withOrganization={withOrganization} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The insights list (spec 000 §2, spec 001 §2, §4): Dashboard / Reports / Applications, card or
 * table view (remembered), filter, sort, search after a 500 ms pause, infinite scroll, create and
 * import. `onShare` opens the share dialog (composed by the route).
 */
export function InsightsList({ onShare }: { onShare?: (i: InsightView) => void }) {
  const [params, setParams] = useSearchParams();
  const screenParam = params.get('screen');
  const screen: InsightScreen = isScreen(screenParam) ? screenParam : DEFAULT_INSIGHT_SCREEN;
  const [view, setView] = useState<InsightViewMode>(readViewMode);
  const [filter, setFilter] = useState<InsightFilter>(DEFAULT_INSIGHT_FILTER);
  const [sort, setSort] = useState<string>(`${DEFAULT_INSIGHT_SORT.sortBy}:${DEFAULT_INSIGHT_SORT.sortOperator}`);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);

  const [sortBy, sortOperator] = sort.split(':') as [InsightSortField, SortOperator];
  const insights = useInsights({ filter, sortBy, sortOperator, search: debounced, screen });
  const items = insights.data?.pages.flatMap((p) => p.applications) ?? [];
  const total = insights.data?.pages.at(-1)?.total;

  function chooseView(v: string) {
    const mode: InsightViewMode = v === 'table' ? 'table' : 'card';
    setView(mode);
    writeString(INSIGHTS_VIEW_STORAGE_KEY, mode);
  }

  function chooseScreen(v: string | null) {
    if (!isScreen(v)) return;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (v === DEFAULT_INSIGHT_SCREEN) next.delete('screen');
        else next.set('screen', v);
        return next;
      },
      { replace: true },
    );
  }

  const empty = emptyMessage(filter, screen, debounced);

  return (
    <Stack>
      <PageHeader
        title="Insights"
        actions={
          <>
            <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
              Import
            </Button>
            <Button variant="default" leftSection={<IconTemplate size={16} />} component={Link} to={paths.addTemplate.getHref()}>
              From template
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create
            </Button>
          </>
        }
      />

      <Tabs value={screen} onChange={chooseScreen}>
        <Tabs.List aria-label="Insight screens">
          {INSIGHT_SCREENS.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {s}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      <ListToolbar
        search={{ label: 'Search insights', value: search, onChange: setSearch }}
        filters={[
          <NativeSelect
            key="filter"
            aria-label="Filter"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value as InsightFilter)}
            data={INSIGHT_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
          />,
          <NativeSelect key="sort" aria-label="Sort" value={sort} onChange={(e) => setSort(e.currentTarget.value)} data={SORT_OPTIONS} />,
        ]}
        end={
          <>
            <Text size="sm" c="dimmed">
              {typeof total === 'number' ? `${total} ${total === 1 ? 'item' : 'items'}` : ''}
            </Text>
            <SegmentedControl
              aria-label="View"
              value={view}
              onChange={chooseView}
              data={[
                { value: 'card', label: <Group gap={4} wrap="nowrap"><IconLayoutGrid size={14} /> Cards</Group> },
                { value: 'table', label: <Group gap={4} wrap="nowrap"><IconList size={14} /> Table</Group> },
              ]}
            />
          </>
        }
      />

      {insights.isPending &&
        (view === 'card' ? (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} role="status" aria-label="Loading insights">
            {Array.from({ length: 8 }, (_, i) => (
              <Card key={i} withBorder padding="md">
                <Card.Section>
                  <Skeleton h={120} radius={0} />
                </Card.Section>
                <Skeleton h={14} mt="sm" w="70%" />
                <Skeleton h={12} mt={8} w="50%" />
                <Skeleton h={18} mt="md" w="40%" />
              </Card>
            ))}
          </SimpleGrid>
        ) : (
          <Stack gap={6} role="status" aria-label="Loading insights">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ))}
      {insights.isError && <QueryError error={insights.error} onRetry={() => insights.refetch()} />}
      {insights.isSuccess && items.length === 0 && <EmptyState title={empty.title} hint={empty.hint} />}
      {items.length > 0 &&
        (view === 'card' ? (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} aria-label="Insights">
            {items.map((i) => (
              <InsightCard key={i.id} insight={i} onShare={onShare} />
            ))}
          </SimpleGrid>
        ) : (
          <InsightsTable items={items} onShare={onShare} />
        ))}
      {insights.hasNextPage && (
        <Group justify="center">
          <LoadMore onLoad={() => !insights.isFetchingNextPage && insights.fetchNextPage()} loading={insights.isFetchingNextPage} />
        </Group>
      )}

      <CreateInsightModal opened={creating} onClose={() => setCreating(false)} />
      <ImportInsightModal opened={importing} onClose={() => setImporting(false)} />
    </Stack>
  );
}
