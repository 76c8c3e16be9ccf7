import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Verify2faRequest, Verify2faResponse } from '@/lib/api/types';
import { getSession, setSession } from '@/lib/auth';

export type Verify2faInput = Verify2faRequest;

/** POST /v1/auth/verify2fa with body `{secret?, token}` (token is the 6-digit code; the secret only at enrolment). */
export function verify2fa(input: Verify2faInput) {
  return unwrap(api.POST('/v1/auth/verify2fa', { body: input }));
}

/** Verifies a code; a success stores the full session and marks the second factor verified. */
export function useVerify2fa(options: { onSuccess?: (data: Verify2faResponse) => void } = {}) {
  return useMutation({
    mutationFn: verify2fa,
    // The caller shows 'Invalid 2FA Code' (spec 000 §7) instead of the generic toast.
    meta: { silent: true },
    onSuccess: (data) => {
      const s = getSession();
      setSession({
        token: data.token ?? s.token,
        refreshToken: data.refresh_token ?? s.refreshToken,
        user: data.user ? { ...s.user, ...data.user } : s.user,
        verified2fa: data.verified_2fa !== false,
      });
      options.onSuccess?.(data);
    },
  });
}
