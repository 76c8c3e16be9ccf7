import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { EntityType } from '@/lib/api/types';

export const shareKeys = {
  entity: (entityType: EntityType, entityId: string) => ['shares', entityType, entityId] as const,
};

/** GET /v1/shares/sharedwith/{entityId}?entityType=… (lowercased, spec 000 §7). */
export function getSharedWith(entityType: EntityType, entityId: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/shares/sharedwith/{entityId}', {
      params: { path: { entityId }, query: { entityType: entityType.toLowerCase() } },
      signal,
    }),
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
