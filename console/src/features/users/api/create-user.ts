import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CreateUserResponse, NewUserFields } from '@/lib/api/types';

export type UserInput = NewUserFields;

/** POST /v1/users with body `{user}`. */
export function createUser(user: UserInput) {
  return api.post<CreateUserResponse>('/v1/users', { user });
}

export function useCreateUser(options: { onSuccess?: (data: CreateUserResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // The form shows 'Limit Reached' itself; other failures toast from its onError.
    meta: { silent: true },
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.(data);
    },
  });
}
