import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';

import { insightKeys } from '@/features/insights/api/keys';
import type { InsightMessageResponse, InsightResponse, InsightsPage, InsightView, PinListResponse } from '@/lib/api/types';

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

type OnSuccess = ((r: InsightMessageResponse) => void) | undefined;

/** A mutation that adds an insight (create, import): the lists are fetched again. */
export function useInsightCreation<V>(fn: (v: V) => Promise<InsightMessageResponse>, onSuccess: OnSuccess) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: insightKeys.lists() });
      onSuccess?.(r);
    },
  });
}

/** A mutation on one insight (run switch, redeploy): its new copy goes into the caches at once. */
export function useInsightAction<V>(fn: (v: V) => Promise<InsightMessageResponse>, onSuccess: OnSuccess) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (r) => {
      if (r.application) replaceInsightInCaches(queryClient, r.application);
      void queryClient.invalidateQueries({ queryKey: insightKeys.all });
      onSuccess?.(r);
    },
  });
}
