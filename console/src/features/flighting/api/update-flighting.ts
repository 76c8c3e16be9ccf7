import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Flighting, FlightingResponse, Id } from '@/lib/api/types';

/** PUT /v1/flighting?organization={orgId} with body `{flightings}`. */
export function updateFlighting({ organization, flightings }: { organization: Id; flightings: Flighting[] }) {
  return api.put<FlightingResponse>('/v1/flighting', { flightings }, { organization });
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
