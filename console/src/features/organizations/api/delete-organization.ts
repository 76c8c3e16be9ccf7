import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Envelope, Id } from '@/lib/api/types';

/** DELETE /v1/organizations/{id}. */
export function deleteOrganization(id: Id) {
  return api.delete<Envelope>(`/v1/organizations/${encodeURIComponent(String(id))}`);
}

export function useDeleteOrganization(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      options.onSuccess?.();
    },
  });
}
