import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { ApiKeyResponse, Id } from '@/lib/api/types';

/** POST /v1/users/{id}/api_key: a new API key (sent as `x-api-key`), replacing the old one. */
export function createApiKey(id: Id) {
  return unwrap(api.POST('/v1/users/{id}/api_key', { params: { path: { id } } }));
}

export function useCreateApiKey(options: { onSuccess?: (data: ApiKeyResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      options.onSuccess?.(data);
    },
  });
}
