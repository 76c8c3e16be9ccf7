import { useMutation, useQueryClient } from '@tanstack/react-query';

import { insightKeys } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** DELETE /v1/applications/{id}: the owner (or an editor) deletes the insight. */
export function deleteInsight(id: string) {
  return unwrap(api.DELETE('/v1/applications/{id}', { params: { path: { id } } }));
}

/** DELETE /v1/applications/share/{appId}: someone it was shared with removes it from their insights. */
export function removeSharedInsight(id: string) {
  return unwrap(api.DELETE('/v1/applications/share/{id}', { params: { path: { id } } }));
}

export function useDeleteInsight(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, owned }: { id: string; owned: boolean }) => (owned ? deleteInsight(id) : removeSharedInsight(id)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: insightKeys.all });
      options.onSuccess?.();
    },
  });
}
