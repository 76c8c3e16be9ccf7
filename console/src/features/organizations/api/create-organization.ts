import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { CreatedOrganization, OrganizationFields } from '@/lib/api/types';

export type OrganizationInput = OrganizationFields;

/** POST /v1/organizations with body `{organization}` (flightings included). */
export function createOrganization(organization: OrganizationInput) {
  return unwrap(api.POST('/v1/organizations', { body: { organization } }));
}

export function useCreateOrganization(options: { onSuccess?: (data: CreatedOrganization) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      void queryClient.invalidateQueries({ queryKey: METRICS_KEY });
      options.onSuccess?.(data);
    },
  });
}
