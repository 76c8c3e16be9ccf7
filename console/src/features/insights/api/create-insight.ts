import { useInsightCreation } from '@/features/insights/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { InsightMessageResponse, NewInsightFields } from '@/lib/api/types';

/** POST /v1/applications: a new insight. */
export function createInsight(application: NewInsightFields) {
  return unwrap(api.POST('/v1/applications', { body: { application } }));
}

export function useCreateInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightCreation(createInsight, options.onSuccess);
}
