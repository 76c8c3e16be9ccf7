import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { EntityType } from '@/config/constants';
import { shareKeys } from '@/features/sharing/api/get-shared-with';
import type { ShareChange, ShareRequest, ShareResponse } from '@/features/sharing/api/types';
import { api } from '@/lib/api-client';

/**
 * POST /v1/applications/share serves every kind (the entity type is in the body); a dataset
 * folder share (`directoryId`) goes to PUT /v1/directory/share (spec 000 §7).
 */
export function shareEntity(args: { entityType: EntityType; entityId: string; shares: ShareChange[]; directoryId?: string }) {
  const body: ShareRequest = {
    share: {
      entity_id: args.entityId,
      entity_type: args.entityType,
      shares: args.shares,
      ...(args.directoryId ? { directory_id: args.directoryId } : {}),
    },
  };
  return args.directoryId ? api.put<ShareResponse>('/v1/directory/share', body) : api.post<ShareResponse>('/v1/applications/share', body);
}

export function useShareEntity(entityType: EntityType, entityId: string, options: { onSuccess?: (r: ShareResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { shares: ShareChange[]; directoryId?: string }) => shareEntity({ entityType, entityId, ...args }),
    onSuccess: (r) => options.onSuccess?.(r),
    // Whatever happened, show the server's current list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.entity(entityType, entityId) }),
  });
}
