import { useMutation, useQueryClient } from '@tanstack/react-query';

import { patchInsightInCaches } from '@/features/insights/api/cache';
import { insightKeys, type InsightsQuery } from '@/features/insights/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { PinChange } from '@/lib/api/types';

/** POST /v1/applications/pin with `app_pin` {app_id, user_id, pinned}. */
export function pinInsight(pin: PinChange & { app_id: string; pinned: boolean }) {
  return unwrap(api.POST('/v1/applications/pin', { body: { app_pin: pin } }));
}

/**
 * The pin toggle (spec 000 §4): the card flips at once; a refusal flips it back. Afterwards the
 * pin list (home) and starred lists are fetched again.
 */
export function usePinInsight() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pinInsight,
    onMutate: async (pin) => {
      await queryClient.cancelQueries({ queryKey: insightKeys.lists() });
      patchInsightInCaches(queryClient, pin.app_id, (a) => ({ ...a, pinned: pin.pinned }));
    },
    onError: (_e, pin) => {
      patchInsightInCaches(queryClient, pin.app_id, (a) => ({ ...a, pinned: !pin.pinned }));
    },
    onSuccess: (r) => {
      const { app_id, pinned } = r.applicationPinInfo ?? {};
      if (app_id) patchInsightInCaches(queryClient, app_id, (a) => ({ ...a, pinned: !!pinned }));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: insightKeys.pins() });
      void queryClient.invalidateQueries({
        queryKey: insightKeys.lists(),
        predicate: (q) => (q.queryKey[2] as InsightsQuery | undefined)?.filter === 'starred',
      });
    },
  });
}
