import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { Id } from '@/lib/api/types';

/** DELETE /v1/users/{id}. */
export function deleteUser(id: Id) {
  return unwrap(api.DELETE('/v1/users/{id}', { params: { path: { id } } }));
}

export function useDeleteUser(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      void queryClient.invalidateQueries({ queryKey: METRICS_KEY });
      options.onSuccess?.();
    },
  });
}
