import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { LoginResponse } from '@/lib/api/types';
import { setSession } from '@/lib/auth';

export type LoginInput = { email: string; password: string };

/** POST /v1/auth/login with body `user {email, password}`. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post<LoginResponse>('/v1/auth/login', { user: input });
}

/** Signs in and keeps token, refresh token and user in local storage (spec 000 §4.1). */
export function useLogin(options: { onSuccess?: (data: LoginResponse) => void } = {}) {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      setSession({ token: data.token, refreshToken: data.refresh_token, user: data.user, verified2fa: false });
      options.onSuccess?.(data);
    },
  });
}
