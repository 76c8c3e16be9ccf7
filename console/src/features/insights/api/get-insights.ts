import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { INSIGHTS_PAGE_SIZE, INSIGHTS_WATCH_MS } from '@/config/constants';
import { insightKeys, type InsightsQuery } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { InsightsPage } from '@/lib/api/types';

/** GET /v1/applications/insights with page, pageSize, filter, sortBy, sortOperator, search and screen. */
export function getInsights(q: InsightsQuery & { page: number; pageSize?: number }, signal?: AbortSignal) {
  const query = {
    page: q.page,
    pageSize: q.pageSize ?? INSIGHTS_PAGE_SIZE,
    filter: q.filter,
    sortBy: q.sortBy,
    sortOperator: q.sortOperator,
    search: q.search,
    screen: q.screen,
  };
  return unwrap(api.GET('/v1/applications/insights', { params: { query }, signal }));
}

/** The next page while pages remain (spec 001 §4: infinite scroll). */
export function nextInsightsPage(last: InsightsPage, all: InsightsPage[]): number | undefined {
  const page = last.page ?? all.length;
  if (typeof last.totalPages === 'number') return page < last.totalPages ? page + 1 : undefined;
  // Without a page count: more while the last page was full.
  return last.applications.length >= (last.pageSize ?? INSIGHTS_PAGE_SIZE) ? page + 1 : undefined;
}

export function getInsightsQueryOptions(q: InsightsQuery) {
  return infiniteQueryOptions({
    queryKey: insightKeys.list(q),
    queryFn: ({ pageParam, signal }) => getInsights({ ...q, page: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: nextInsightsPage,
    // The list explains a failure in place.
    meta: { silent: true },
  });
}

/** Statuses that change by themselves: the list looks again while a card shows one. */
const CHANGING = new Set(['starting', 'rendering']);

/** Whether any loaded insight is on its way somewhere (starting, rendering). */
export function anyChanging(pages: InsightsPage[] | undefined): boolean {
  return (pages ?? []).some((p) => p.applications.some((a) => CHANGING.has(a.status)));
}

export function useInsights(q: InsightsQuery) {
  return useInfiniteQuery({
    ...getInsightsQueryOptions(q),
    // Cards follow their apps: every INSIGHTS_WATCH_MS while one starts or renders.
    refetchInterval: (query) => (anyChanging(query.state.data?.pages) ? INSIGHTS_WATCH_MS : false),
  });
}
