import { useMutation, useQueryClient } from '@tanstack/react-query';

import { shareKeys } from '@/features/sharing/api/get-shared-with';
import { api, unwrap } from '@/lib/api-client';
import type { Done, EntityType, ShareChange } from '@/lib/api/types';

/**
 * POST /v1/applications/share serves every kind (the entity type is in the body); a dataset
 * folder share (`directoryId`) goes to PUT /v1/directory/share (spec 000 §7).
 */
export function shareEntity(args: { entityType: EntityType; entityId: string; shares: ShareChange[]; directoryId?: string }): Promise<Done> {
  const share = { entity_id: args.entityId, entity_type: args.entityType, shares: args.shares };
  if (args.directoryId) {
    // This API documents no 2xx answer here (it refuses folder shares with 400, pointing to the
    // dataset share); a server that accepts one answers Done.
    return unwrap(api.PUT('/v1/directory/share', { body: { share: { ...share, directory_id: args.directoryId } } }));
  }
  return unwrap(api.POST('/v1/applications/share', { body: { share } }));
}

export function useShareEntity(
  entityType: EntityType,
  entityId: string,
  options: { onSuccess?: (r: Done) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { shares: ShareChange[]; directoryId?: string }) => shareEntity({ entityType, entityId, ...args }),
    onSuccess: (r) => options.onSuccess?.(r),
    onError: (e) => options.onError?.(e),
    // Whatever happened, show the server's current list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.entity(entityType, entityId) }),
  });
}
