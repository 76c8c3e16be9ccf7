import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { LoginResponse } from '@/lib/api/types';
import { setSession } from '@/lib/auth';

export type LoginInput = { email: string; password: string };

/** POST /v1/auth/login with body `user {email, password}`. */
export function login(input: LoginInput) {
  return unwrap(api.POST('/v1/auth/login', { body: { user: input } }));
}

/** Signs in and keeps token, refresh token and user in local storage (spec 000 §4.1). */
export function useLogin(options: { onSuccess?: (data: LoginResponse) => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      // When 2FA is still due, `token` is a pending token that opens only the 2FA calls.
      setSession({
        token: data.token,
        refreshToken: data.refresh_token ?? null,
        user: data.user,
        verified2fa: data.verified_2fa && !data.requires_2fa_enrollment,
      });
      options.onSuccess?.(data);
    },
    onError: (error) => options.onError?.(error),
  });
}
