import type { FeatureKey } from '@/lib/api/types';
import { paths } from '@/config/paths';
import type { Flighting, User } from '@/lib/api/types';
import { isAdmin } from '@/lib/auth';
import { isFeatureEnabled } from '@/lib/flighting';

export type NavSection = { key: 'home' | 'web3' | FeatureKey; label: string; href: string; deprecated?: boolean };

const SECTIONS: (NavSection & { feature?: FeatureKey })[] = [
  { key: 'home', label: 'Home', href: paths.home.getHref() },
  { key: 'insights', label: 'Insights', href: paths.insights.getHref(), feature: 'insights' },
  { key: 'projects', label: 'Projects', href: paths.projects.getHref(), feature: 'projects' },
  { key: 'workflows', label: 'Workflows', href: paths.workflows.getHref(), feature: 'workflows' },
  { key: 'datasets', label: 'Datasets', href: paths.datasets.getHref(), feature: 'datasets' },
  // The web3 page is for every signed-in user (docs/contracts/web3.md): no flag.
  { key: 'web3', label: 'Web3', href: paths.crypto.getHref() },
  { key: 'notebooks', label: 'Notebooks', href: paths.notebooks.getHref(), feature: 'notebooks', deprecated: true },
];

/**
 * The sidebar's sections for this user: Home and Web3 always; Insights, Projects, Workflows, Datasets and
 * Notebooks only when the matching flag is active and lists the user's role (spec 000 §6).
 */
export function visibleSections(flightings: readonly Flighting[] | undefined, user: User | null): NavSection[] {
  return SECTIONS.filter((s) => !s.feature || isFeatureEnabled(flightings, s.feature, user?.role)).map(
    ({ feature: _feature, ...s }) => s,
  );
}

/** The Admin entry is for administrators and superadmins only. */
export function showsAdmin(user: User | null) {
  return isAdmin(user);
}
