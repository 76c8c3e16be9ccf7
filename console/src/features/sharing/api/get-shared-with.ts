import { queryOptions, useQuery } from '@tanstack/react-query';

import type { EntityType } from '@/config/constants';
import type { SharedWithResponse } from '@/lib/api/types';
import { api } from '@/lib/api-client';

export const shareKeys = {
  entity: (entityType: EntityType, entityId: string) => ['shares', entityType, entityId] as const,
};

/** GET /v1/shares/sharedwith/{entityId}?entityType=… (lowercased, spec 000 §7). */
export function getSharedWith(entityType: EntityType, entityId: string, signal?: AbortSignal) {
  return api.get<SharedWithResponse>(
    `/v1/shares/sharedwith/${encodeURIComponent(entityId)}`,
    { entityType: entityType.toLowerCase() },
    signal,
  );
}

export function getSharedWithQueryOptions(entityType: EntityType, entityId: string) {
  return queryOptions({
    queryKey: shareKeys.entity(entityType, entityId),
    queryFn: ({ signal }) => getSharedWith(entityType, entityId, signal),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useSharedWith(entityType: EntityType, entityId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getSharedWithQueryOptions(entityType, entityId), enabled: options.enabled ?? true });
}
