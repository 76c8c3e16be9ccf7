import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { ChangePasswordRequest } from '@/lib/api/types';

/** The form's values; they fill `ChangePasswordRequest`. */
export type ChangePasswordInput = Required<ChangePasswordRequest>;

/** PUT /v1/auth/changepassword. */
export function changePassword(input: ChangePasswordInput) {
  return unwrap(api.PUT('/v1/auth/changepassword', { body: input }));
}

export function useChangePassword(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({ mutationFn: changePassword, onSuccess: () => options.onSuccess?.(), onError: (e) => options.onError?.(e) });
}
