import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

/** DELETE /v1/organizations/{id}. */
export function deleteOrganization(id: Id) {
  return unwrap(api.DELETE('/v1/organizations/{id}', { params: { path: { id } } }));
}

export function useDeleteOrganization(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      void queryClient.invalidateQueries({ queryKey: METRICS_KEY });
      options.onSuccess?.();
    },
  });
}
