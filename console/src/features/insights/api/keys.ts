import type { InsightFilter, InsightScreen, InsightSortField, SortOperator } from '@/config/constants';

/** What the list asks for besides the page (client-side, not a wire type). */
export type InsightsQuery = {
  filter: InsightFilter;
  sortBy: InsightSortField;
  sortOperator: SortOperator;
  search: string;
  screen: InsightScreen;
};

/** Every insight query starts with 'applications', so one invalidation refreshes them all. */
export const insightKeys = {
  all: ['applications'] as const,
  lists: () => ['applications', 'list'] as const,
  list: (q: InsightsQuery) => ['applications', 'list', q] as const,
  detail: (id: string) => ['applications', 'detail', id] as const,
  pins: () => ['applications', 'pins'] as const,
};
