import { SimpleGrid } from '@mantine/core';

import { DEFAULT_INSIGHT_SCREEN } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { RecentList } from '@/features/home/components/recent-list';
import { useInsights } from '@/features/insights/api/get-insights';
import { useProjects } from '@/features/projects/api/get-projects';
import type { Flighting } from '@/lib/api/types';
import { isFeatureEnabled } from '@/lib/flighting';

// Each asks for the first page its own list shows (the same cache), newest changes first.

function RecentInsights() {
  const q = useInsights({ filter: 'all', sortBy: 'updated_at', sortOperator: 'DESC', search: '', screen: DEFAULT_INSIGHT_SCREEN });
  const items = q.data?.pages[0]?.applications.map((i) => ({
    id: i.id,
    name: i.name,
    href: paths.app.getHref(i.id),
    updatedAt: i.updated_at,
    detail: i.description || undefined,
  }));
  return (
    <RecentList
      title="Recent insights"
      seeAll={{ label: 'All insights', href: paths.insights.getHref() }}
      items={items}
      isPending={q.isPending}
      error={q.error}
      empty={{ title: 'No insights yet', hint: 'Create or import one on the Insights page.' }}
    />
  );
}

function RecentDatasets() {
  const q = useDatasets({ filter: 'all', page: 1, search: '' });
  const items = q.data?.datasets.map((d) => ({
    id: d.id,
    name: d.name,
    href: paths.dataset.getHref(d.id),
    updatedAt: d.updated_at,
    detail: d.description || undefined,
  }));
  return (
    <RecentList
      title="Recent datasets"
      seeAll={{ label: 'All datasets', href: paths.datasets.getHref() }}
      items={items}
      isPending={q.isPending}
      error={q.error}
      empty={{ title: 'No datasets yet', hint: 'Import files as a dataset on the Datasets page.' }}
    />
  );
}

function RecentProjects() {
  const q = useProjects({ filter: 'all', page: 1, search: '' });
  const items = q.data?.projects.map((p) => ({
    id: p.id,
    name: p.name,
    href: paths.project.getHref(p.id),
    updatedAt: p.updated_at,
    detail: p.description || undefined,
  }));
  return (
    <RecentList
      title="Recent projects"
      seeAll={{ label: 'All projects', href: paths.projects.getHref() }}
      items={items}
      isPending={q.isPending}
      error={q.error}
      empty={{ title: 'No projects yet', hint: 'Create or import one on the Projects page.' }}
    />
  );
}

/**
 * Home's recent insights, datasets and projects the user has access to (issue 16), each only when
 * the user's role may use that feature. Workflows join when the console has them.
 */
export function RecentAssets({ flightings, role }: { flightings: readonly Flighting[] | undefined; role: string | undefined }) {
  const sections = [
    isFeatureEnabled(flightings, 'insights', role) && <RecentInsights key="insights" />,
    isFeatureEnabled(flightings, 'datasets', role) && <RecentDatasets key="datasets" />,
    isFeatureEnabled(flightings, 'projects', role) && <RecentProjects key="projects" />,
  ].filter(Boolean);
  if (sections.length === 0) return null;
  return <SimpleGrid cols={{ base: 1, md: Math.min(sections.length, 3) }}>{sections}</SimpleGrid>;
}
