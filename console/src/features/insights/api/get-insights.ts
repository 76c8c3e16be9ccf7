import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { INSIGHTS_PAGE_SIZE } from '@/config/constants';
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

export function useInsights(q: InsightsQuery) {
  return useInfiniteQuery(getInsightsQueryOptions(q));
}
