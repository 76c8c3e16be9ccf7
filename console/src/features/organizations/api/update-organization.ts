import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id, OrganizationResponse } from '@/lib/api/types';

import type { OrganizationInput } from '@/features/organizations/api/create-organization';

/** PUT /v1/organizations/{id} with body `{organization}`. */
export function updateOrganization({ id, organization }: { id: Id; organization: Partial<OrganizationInput> }) {
  return unwrap(api.PUT('/v1/organizations/{id}', { params: { path: { id } }, body: { organization } }));
}

export function useUpdateOrganization(options: { onSuccess?: (data: OrganizationResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      options.onSuccess?.(data);
    },
  });
}
