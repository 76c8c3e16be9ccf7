import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Enable2faResponse } from '@/lib/api/types';

/** Switching off needs the caller's current `password` or a current 2FA `code`. */
export type Enable2faInput = { uid: string; enabled: boolean; password?: string; code?: string };

/** POST /v1/auth/enable2fa/{uid} with body `{enabled_2fa}` (and, to switch off, `password` or
 * `code`); enabling answers the secret and QR. */
export function enable2fa({ uid, enabled, password, code }: Enable2faInput) {
  return unwrap(
    api.POST('/v1/auth/enable2fa/{uid}', {
      params: { path: { uid } },
      body: { enabled_2fa: enabled, ...(password ? { password } : {}), ...(code ? { code } : {}) },
    }),
  );
}

export function useEnable2fa(
  options: { onSuccess?: (data: Enable2faResponse, input: Enable2faInput) => void; silent?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enable2fa,
    meta: { silent: options.silent },
    onSuccess: (data, input) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.(data, input);
    },
  });
}
