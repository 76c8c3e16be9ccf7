import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { EntityType } from '@/config/constants';
import { shareKeys } from '@/features/sharing/api/get-shared-with';
import type { DirectoryShareRequest, Done, ShareChange, ShareRequest } from '@/lib/api/types';
import { api } from '@/lib/api-client';

/**
 * POST /v1/applications/share serves every kind (the entity type is in the body); a dataset
 * folder share (`directoryId`) goes to PUT /v1/directory/share (spec 000 §7).
 */
export function shareEntity(args: { entityType: EntityType; entityId: string; shares: ShareChange[]; directoryId?: string }) {
  const share = { entity_id: args.entityId, entity_type: args.entityType, shares: args.shares };
  if (args.directoryId) {
    const body: DirectoryShareRequest = { share: { ...share, directory_id: args.directoryId } };
    return api.put<Done>('/v1/directory/share', body);
  }
  const body: ShareRequest = { share };
  return api.post<Done>('/v1/applications/share', body);
}

export function useShareEntity(entityType: EntityType, entityId: string, options: { onSuccess?: (r: Done) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { shares: ShareChange[]; directoryId?: string }) => shareEntity({ entityType, entityId, ...args }),
    onSuccess: (r) => options.onSuccess?.(r),
    // Whatever happened, show the server's current list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.entity(entityType, entityId) }),
  });
}
