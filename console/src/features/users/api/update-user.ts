import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id, UserChanges, UserResponse } from '@/lib/api/types';

export type UserUpdate = UserChanges;

/** PUT /v1/users/{id} with body `{user}`. */
export function updateUser({ id, user }: { id: Id; user: UserUpdate }) {
  return unwrap(api.PUT('/v1/users/{id}', { params: { path: { id } }, body: { user } }));
}

export function useUpdateUser(options: { onSuccess?: (data: UserResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.(data);
    },
  });
}
