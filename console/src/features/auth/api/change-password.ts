import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Envelope } from '@/lib/api/types';

export type ChangePasswordInput = { currentPassword: string; newPassword: string; confirmPassword: string };

/** PUT /v1/auth/changepassword. */
export function changePassword(input: ChangePasswordInput): Promise<Envelope> {
  return api.put<Envelope>('/v1/auth/changepassword', input);
}

export function useChangePassword(options: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: changePassword, onSuccess: () => options.onSuccess?.() });
}
