import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Flighting, Id, OrganizationResponse } from '@/lib/api/types';

export type OrganizationInput = {
  name: string;
  admin_email: string;
  tier: string;
  max_seats: number;
  description?: string;
  bucket_id?: Id | null;
  flightings?: Flighting[];
};

/** POST /v1/organizations with body `{organization}` (flightings included). */
export function createOrganization(organization: OrganizationInput) {
  return api.post<OrganizationResponse>('/v1/organizations', { organization });
}

export function useCreateOrganization(options: { onSuccess?: (data: OrganizationResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      options.onSuccess?.(data);
    },
  });
}
