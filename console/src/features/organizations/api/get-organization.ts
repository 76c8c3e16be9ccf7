import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id } from '@/lib/api/types';

/** GET /v1/organizations/{id}. */
export function getOrganization(id: Id, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/{id}', { params: { path: { id } }, signal }));
}

export function getOrganizationQueryOptions(id: Id) {
  return queryOptions({ queryKey: ['organizations', String(id)], queryFn: ({ signal }) => getOrganization(id, signal) });
}

export function useOrganization(id: Id | undefined | null) {
  return useQuery({ ...getOrganizationQueryOptions(id ?? ''), enabled: id !== undefined && id !== null && id !== '' });
}
