import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Enable2faResponse } from '@/lib/api/types';

export type Enable2faInput = { uid: string; enabled: boolean };

/** POST /v1/auth/enable2fa/{uid} with body `{enabled_2fa}`; enabling answers the secret and QR. */
export function enable2fa({ uid, enabled }: Enable2faInput) {
  return unwrap(api.POST('/v1/auth/enable2fa/{uid}', { params: { path: { uid } }, body: { enabled_2fa: enabled } }));
}

export function useEnable2fa(options: { onSuccess?: (data: Enable2faResponse, input: Enable2faInput) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enable2fa,
    onSuccess: (data, input) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.(data, input);
    },
  });
}
