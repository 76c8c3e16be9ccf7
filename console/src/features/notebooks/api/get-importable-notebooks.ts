import { queryOptions, useQuery } from '@tanstack/react-query';

import { ACTIVE_NOTEBOOK_STATUS, type LegacyProjectTab } from '@/config/constants';
import type { LegacyProjectView, NotebookView } from '@/lib/api/types';
import { getLegacyProjects } from '@/features/notebooks/api/get-legacy-projects';
import { notebookKeys } from '@/features/notebooks/api/keys';

/** Projects asked for per call while gathering them all. */
const GATHER_PAGE_SIZE = 100;

/** Every project of one tab, page after page. */
async function allProjects(tab: LegacyProjectTab, signal?: AbortSignal): Promise<LegacyProjectView[]> {
  const first = await getLegacyProjects({ tab, page: 1 }, signal, GATHER_PAGE_SIZE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, first.total_pages - 1) }, (_, i) => getLegacyProjects({ tab, page: i + 2 }, signal, GATHER_PAGE_SIZE)),
  );
  return [first, ...rest].flatMap((p) => p.projects);
}

export type ImportableNotebook = NotebookView & { projectName: string };

/**
 * The notebooks the caller can see whose status is 'active' (spec 001 §3): those of their own
 * projects and of the projects shared with them (a notebook is as visible as its project).
 */
export async function getImportableNotebooks(signal?: AbortSignal): Promise<ImportableNotebook[]> {
  const [mine, shared] = await Promise.all([allProjects('mine', signal), allProjects('shared', signal)]);
  // A project shared with its own owner's organization may be in both lists.
  const projects = [...new Map([...mine, ...shared].map((p) => [p.id, p])).values()];
  return projects.flatMap((p) => p.notebooks.filter((n) => n.status === ACTIVE_NOTEBOOK_STATUS).map((n) => ({ ...n, projectName: p.name })));
}

export function useImportableNotebooks(options: { enabled?: boolean } = {}) {
  return useQuery(
    queryOptions({
      queryKey: notebookKeys.importable(),
      queryFn: ({ signal }) => getImportableNotebooks(signal),
      // The form explains a failure in place.
      meta: { silent: true },
      enabled: options.enabled ?? true,
    }),
  );
}
