import type { InfiniteData, QueryClient } from '@tanstack/react-query';

import { insightKeys } from '@/features/insights/api/keys';
import type { InsightResponse, InsightsPage, InsightView, PinListResponse } from '@/lib/api/types';

/** Applies `patch` to the insight `id` in every cached list, the pin list and its detail. */
export function patchInsightInCaches(queryClient: QueryClient, id: string, patch: (i: InsightView) => InsightView) {
  queryClient.setQueriesData<InfiniteData<InsightsPage>>({ queryKey: insightKeys.lists() }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({ ...p, applications: p.applications.map((a) => (a.id === id ? patch(a) : a)) })),
        }
      : data,
  );
  queryClient.setQueryData<PinListResponse>(insightKeys.pins(), (data) =>
    data ? { ...data, applications: data.applications.map((a) => (a.id === id ? patch(a) : a)) } : data,
  );
  queryClient.setQueryData<InsightResponse>(insightKeys.detail(id), (data) =>
    data ? { ...data, application: patch(data.application) } : data,
  );
}

/** Puts the server's copy of an insight into the caches. */
export function replaceInsightInCaches(queryClient: QueryClient, insight: InsightView) {
  patchInsightInCaches(queryClient, insight.id, (old) => ({ ...old, ...insight }));
}
