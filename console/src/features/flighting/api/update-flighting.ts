import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Flighting, Id } from '@/lib/api/types';

/** PUT /v1/flighting?organization={orgId} with body `{flightings}`. */
export function updateFlighting({ organization, flightings }: { organization: Id; flightings: Flighting[] }) {
  return unwrap(api.PUT('/v1/flighting', { params: { query: { organization } }, body: { flightings } }));
}

export function useUpdateFlighting(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFlighting,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['flighting'] });
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      options.onSuccess?.();
    },
  });
}
