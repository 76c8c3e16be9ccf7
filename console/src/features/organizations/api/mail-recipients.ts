import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id } from '@/lib/api/types';

const key = (id: Id) => ['organizations', 'mail-recipients', id] as const;

/** GET /v1/organizations/{id}/mailrecipients: addresses outside the organization workflows may e-mail. */
export function useMailRecipients(id: Id) {
  return useQuery({
    queryKey: key(id),
    queryFn: () => unwrap(api.GET('/v1/organizations/{id}/mailrecipients', { params: { path: { id } } })),
  });
}

/** PUT /v1/organizations/{id}/mailrecipients {addresses}: replaces them. */
export function useSetMailRecipients(id: Id, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (addresses: string[]) => unwrap(api.PUT('/v1/organizations/{id}/mailrecipients', { params: { path: { id } }, body: { addresses } })),
    onSuccess: (r) => {
      queryClient.setQueryData(key(id), r);
      options.onSuccess?.();
    },
  });
}
