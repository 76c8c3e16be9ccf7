import type { DatasetFilter } from '@/config/constants';

/** What the list asks for (client-side, not a wire type). */
export type DatasetsQuery = { filter: DatasetFilter; page: number; search: string };

/** Every dataset query starts with 'datasets', so one invalidation refreshes them all. */
export const datasetKeys = {
  all: ['datasets'] as const,
  lists: () => ['datasets', 'list'] as const,
  list: (q: DatasetsQuery) => ['datasets', 'list', q] as const,
  detail: (id: string) => ['datasets', 'detail', id] as const,
  /** Not a request: whether the dataset's counts are being measured again (api/cache.ts). */
  usageWatch: (id: string) => ['datasets', 'usage-watch', id] as const,
  /** Every listing page of one dataset. */
  files: (id: string) => ['datasets', 'files', id] as const,
  folderPage: (id: string, path: string, token: string | null) => ['datasets', 'files', id, path, token] as const,
  preview: (id: string, path: string) => ['datasets', 'preview', id, path] as const,
  accessUrl: (id: string, path: string) => ['datasets', 'access-url', id, path] as const,
  links: (id: string) => ['datasets', 'links', id] as const,
};
