import { SimpleGrid } from '@mantine/core';

import { DEFAULT_INSIGHT_SCREEN } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { type RecentItem, RecentList } from '@/features/home/components/recent-list';
import { useInsights } from '@/features/insights/api/get-insights';
import { useProjects } from '@/features/projects/api/get-projects';
import type { Flighting, Role } from '@/lib/api/types';
import { isFeatureEnabled } from '@/lib/flighting';

type Named = { id: string; name: string; description?: string | null; updated_at?: number | null };

/** A list's items as Home shows them, each linking to `href(id)`. */
function recent(list: readonly Named[] | undefined, href: (id: string) => string): RecentItem[] | undefined {
  return list?.map((x) => ({ id: x.id, name: x.name, href: href(x.id), updatedAt: x.updated_at, detail: x.description || undefined }));
}

type Query = { isPending: boolean; error: Error | null };

/** One section: the kind's words, and its list's first page (the same cache the list uses). */
function Section({ kind, items, query }: { kind: 'insights' | 'datasets' | 'projects'; items: RecentItem[] | undefined; query: Query }) {
  const words = {
    insights: { title: 'Recent insights', seeAll: { label: 'All insights', href: paths.insights.getHref() }, empty: { title: 'No insights yet', hint: 'Create or import one on the Insights page.' } },
    datasets: { title: 'Recent datasets', seeAll: { label: 'All datasets', href: paths.datasets.getHref() }, empty: { title: 'No datasets yet', hint: 'Import files as a dataset on the Datasets page.' } },
    projects: { title: 'Recent projects', seeAll: { label: 'All projects', href: paths.projects.getHref() }, empty: { title: 'No projects yet', hint: 'Create or import one on the Projects page.' } },
  }[kind];
  return <RecentList {...words} items={items} isPending={query.isPending} error={query.error} />;
}

function RecentInsights() {
  const q = useInsights({ filter: 'all', sortBy: 'updated_at', sortOperator: 'DESC', search: '', screen: DEFAULT_INSIGHT_SCREEN });
  return <Section kind="insights" items={recent(q.data?.pages[0]?.applications, paths.app.getHref)} query={q} />;
}

function RecentDatasets() {
  const q = useDatasets({ filter: 'all', page: 1, search: '' });
  return <Section kind="datasets" items={recent(q.data?.datasets, (id) => paths.dataset.getHref(id))} query={q} />;
}

function RecentProjects() {
  const q = useProjects({ filter: 'all', page: 1, search: '' });
  return <Section kind="projects" items={recent(q.data?.projects, paths.project.getHref)} query={q} />;
}

/**
 * Home's recent insights, datasets and projects the user has access to (issue 16), each only when
 * the user's role may use that feature. Workflows join when the console has them.
 */
export function RecentAssets({ flightings, role }: { flightings: readonly Flighting[] | undefined; role: Role | undefined }) {
  const sections = [
    isFeatureEnabled(flightings, 'insights', role) && <RecentInsights key="insights" />,
    isFeatureEnabled(flightings, 'datasets', role) && <RecentDatasets key="datasets" />,
    isFeatureEnabled(flightings, 'projects', role) && <RecentProjects key="projects" />,
  ].filter(Boolean);
  if (sections.length === 0) return null;
  return <SimpleGrid cols={{ base: 1, md: Math.min(sections.length, 3) }}>{sections}</SimpleGrid>;
}
