import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import { clearSession, getSession } from '@/lib/auth';

/** POST /v1/auth/logout: revokes the refresh token family on the server. */
export function logout() {
  return unwrap(api.POST('/v1/auth/logout', { body: { refresh_token: getSession().refreshToken } }));
}

/** Logs out: the server call may fail (already expired); the local session is cleared regardless. */
export function useLogout(options: { onSettled?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    meta: { silent: true },
    onSettled: () => {
      clearSession();
      queryClient.clear();
      options.onSettled?.();
    },
  });
}
