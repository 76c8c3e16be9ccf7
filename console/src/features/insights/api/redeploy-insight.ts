import { useInsightAction } from '@/features/insights/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { InsightMessageResponse } from '@/lib/api/types';

/** POST /v2/applications/redeploy/{id}: the refresh control. */
export function redeployInsight(id: string) {
  return unwrap(api.POST('/v2/applications/redeploy/{id}', { params: { path: { id } } }));
}

export function useRedeployInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightAction(redeployInsight, options.onSuccess);
}
