import type { LegacyProjectTab } from '@/config/constants';

/** What a legacy list asks for (client-side, not a wire type). */
export type LegacyProjectsQuery = { tab: LegacyProjectTab; page: number };

/**
 * Every legacy project and notebook query starts with 'notebooks' (the feature's key), so one
 * invalidation refreshes them all: a notebook's change shows in its project's list and counts.
 */
export const notebookKeys = {
  all: ['notebooks'] as const,
  lists: () => ['notebooks', 'projects'] as const,
  list: (q: LegacyProjectsQuery) => ['notebooks', 'projects', q] as const,
  /** The notebooks of the projects the caller can see (the import's choice). */
  importable: () => ['notebooks', 'projects', 'importable'] as const,
  project: (id: string) => ['notebooks', 'project', id] as const,
  /** A project's notebooks (GET /v1/notebook/{project id}). */
  projectNotebooks: (id: string) => ['notebooks', 'project', id, 'notebooks'] as const,
  templates: () => ['notebooks', 'templates'] as const,
  notebook: (id: string) => ['notebooks', 'notebook', id] as const,
  preview: (id: string) => ['notebooks', 'preview', id] as const,
  devUrl: (projectId: string) => ['notebooks', 'dev-url', projectId] as const,
};
