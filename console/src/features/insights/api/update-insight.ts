import { useMutation, useQueryClient } from '@tanstack/react-query';

import { replaceInsightInCaches } from '@/features/insights/api/cache';
import { insightKeys } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { InsightChanges, InsightMessageResponse } from '@/lib/api/types';

/** PUT /v1/applications/{id} with `entity` (name, description, img_path, app_url). */
export function updateInsight(id: string, entity: InsightChanges) {
  return unwrap(api.PUT('/v1/applications/{id}', { params: { path: { id } }, body: { entity } }));
}

export function useUpdateInsight(options: { onSuccess?: (r: InsightMessageResponse) => void; onError?: (e: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, entity }: { id: string; entity: InsightChanges }) => updateInsight(id, entity),
    // The modal says 'Update {type} failed' itself.
    meta: { silent: true },
    onSuccess: (r) => {
      if (r.application) replaceInsightInCaches(queryClient, r.application);
      void queryClient.invalidateQueries({ queryKey: insightKeys.all });
      options.onSuccess?.(r);
    },
    onError: options.onError,
  });
}
