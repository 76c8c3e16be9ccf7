import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id } from '@/lib/api/types';

/** PUT /v1/organizations/{id}/2farequired with body `{new2faRequiredStatus}`. */
export function update2faRequired({ id, required }: { id: Id; required: boolean }) {
  return unwrap(api.PUT('/v1/organizations/{id}/2farequired', { params: { path: { id } }, body: { new2faRequiredStatus: required } }));
}

export function useUpdate2faRequired(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: update2faRequired,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
      options.onSuccess?.();
    },
  });
}
