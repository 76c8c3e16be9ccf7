import type { InsightsQuery } from '@/features/insights/api/types';

/** Every insight query starts with 'applications', so one invalidation refreshes them all. */
export const insightKeys = {
  all: ['applications'] as const,
  lists: () => ['applications', 'list'] as const,
  list: (q: InsightsQuery) => ['applications', 'list', q] as const,
  detail: (id: string) => ['applications', 'detail', id] as const,
  pins: () => ['applications', 'pins'] as const,
};
