import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ChangePasswordRequest, Envelope } from '@/lib/api/types';

/** The form's values; they fill `ChangePasswordRequest`. */
export type ChangePasswordInput = Required<ChangePasswordRequest>;

/** PUT /v1/auth/changepassword. */
export function changePassword(input: ChangePasswordInput): Promise<Envelope> {
  return api.put<Envelope>('/v1/auth/changepassword', input);
}

export function useChangePassword(options: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: changePassword, onSuccess: () => options.onSuccess?.() });
}
