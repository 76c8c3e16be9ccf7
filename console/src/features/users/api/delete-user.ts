import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Envelope, Id } from '@/lib/api/types';

/** DELETE /v1/users/{id}. */
export function deleteUser(id: Id) {
  return api.delete<Envelope>(`/v1/users/${encodeURIComponent(String(id))}`);
}

export function useDeleteUser(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.();
    },
  });
}
