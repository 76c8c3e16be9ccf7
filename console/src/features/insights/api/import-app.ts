import { useInsightCreation } from '@/features/insights/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { ImportAppFields, InsightMessageResponse } from '@/lib/api/types';

/** POST /v1/applications/importapp: an external app by its URL. */
export function importApp(application: ImportAppFields) {
  return unwrap(api.POST('/v1/applications/importapp', { body: { application } }));
}

export function useImportApp(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightCreation(importApp, options.onSuccess);
}
