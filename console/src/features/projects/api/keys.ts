import type { PROJECT_FILTERS } from '@/config/constants';

/** A tab of the list, sent as the API's `filter`. */
export type ProjectFilter = (typeof PROJECT_FILTERS)[number]['value'];

/** What the list asks for (client-side, not a wire type). */
export type ProjectsQuery = { filter: ProjectFilter; page: number; search: string };

/** Every project query starts with 'projects', so one invalidation refreshes them all. */
export const projectKeys = {
  all: ['projects'] as const,
  lists: () => ['projects', 'list'] as const,
  list: (q: ProjectsQuery) => ['projects', 'list', q] as const,
  detail: (id: string) => ['projects', 'detail', id] as const,
  /** Every folder and file of one project's repository. */
  repo: (id: string) => ['projects', 'repo', id] as const,
  folder: (id: string, path: string) => ['projects', 'repo', id, 'folder', path] as const,
  file: (id: string, path: string) => ['projects', 'repo', id, 'file', path] as const,
  check: (id: string) => ['projects', 'check', id] as const,
  /** What Run (or publishing a file) runs. */
  launch: (id: string) => ['projects', 'launch', id] as const,
  launchOf: (id: string, file: string | null, purpose: 'serve' | 'render') => ['projects', 'launch', id, file, purpose] as const,
  envVars: (id: string) => ['projects', 'envvars', id] as const,
  apps: (id: string) => ['projects', 'apps', id] as const,
  dockerImages: () => ['cluster', 'dockerimages'] as const,
};
