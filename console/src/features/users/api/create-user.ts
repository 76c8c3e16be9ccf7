import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { METRICS_KEY } from '@/lib/query-client';
import type { CreateUserResponse, NewUserFields } from '@/lib/api/types';

export type UserInput = NewUserFields;

/** POST /v1/users with body `{user}`. */
export function createUser(user: UserInput) {
  return unwrap(api.POST('/v1/users', { body: { user } })) as Promise<CreateUserResponse>;
}

export function useCreateUser(options: { onSuccess?: (data: CreateUserResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // The form shows 'Limit Reached' itself; other failures toast from its onError.
    meta: { silent: true },
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      void queryClient.invalidateQueries({ queryKey: METRICS_KEY });
      options.onSuccess?.(data);
    },
  });
}
