import { useMutation, useQueryClient } from '@tanstack/react-query';

import { replaceInsightInCaches } from '@/features/insights/api/cache';
import { insightKeys } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { InsightMessageResponse } from '@/lib/api/types';

/** POST /v1/applications/stop: the run switch turned off. */
export function stopInsight(id: string) {
  const body = { application_id: id, publish_filenames: [] };
  return unwrap(api.POST('/v1/applications/stop', { body })) as Promise<InsightMessageResponse>;
}

/** POST /v1/applications/restart: the run switch turned on. */
export function restartInsight(id: string) {
  const body = { application_id: id, publish_filenames: [] };
  return unwrap(api.POST('/v1/applications/restart', { body })) as Promise<InsightMessageResponse>;
}

/** POST /v2/applications/redeploy/{id}: the refresh control. */
export function redeployInsight(id: string) {
  return unwrap(api.POST('/v2/applications/redeploy/{id}', { params: { path: { id } } })) as Promise<InsightMessageResponse>;
}

function useInsightAction<V>(fn: (v: V) => Promise<InsightMessageResponse>, onSuccess?: (r: InsightMessageResponse) => void) {
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

/** The run switch: `running` true restarts, false stops (spec 000 §4). */
export function useRunInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightAction(
    ({ id, running }: { id: string; running: boolean }) => (running ? restartInsight(id) : stopInsight(id)),
    options.onSuccess,
  );
}

export function useRedeployInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightAction(redeployInsight, options.onSuccess);
}
