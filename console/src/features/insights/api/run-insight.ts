import { useInsightAction } from '@/features/insights/api/cache';
import { api, unwrap } from '@/lib/api-client';
import type { InsightMessageResponse } from '@/lib/api/types';

/** POST /v1/applications/stop: the run switch turned off. */
export function stopInsight(id: string) {
  const body = { application_id: id, publish_filenames: [] };
  return unwrap(api.POST('/v1/applications/stop', { body }));
}

/** POST /v1/applications/restart: the run switch turned on. */
export function restartInsight(id: string) {
  const body = { application_id: id, publish_filenames: [] };
  return unwrap(api.POST('/v1/applications/restart', { body }));
}

/** The run switch: `running` true restarts, false stops (spec 000 §4). */
export function useRunInsight(options: { onSuccess?: (r: InsightMessageResponse) => void } = {}) {
  return useInsightAction(
    ({ id, running }: { id: string; running: boolean }) => (running ? restartInsight(id) : stopInsight(id)),
    options.onSuccess,
  );
}
