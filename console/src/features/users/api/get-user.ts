import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';
import type { Id } from '@/lib/api/types';

/** GET /v1/users/{id}. */
export function getUser(id: Id, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/users/{id}', { params: { path: { id } }, signal }));
}

export function getUserQueryOptions(id: Id) {
  return queryOptions({ queryKey: ['users', String(id)], queryFn: ({ signal }) => getUser(id, signal) });
}

export function useUser(id: Id | undefined) {
  return useQuery({ ...getUserQueryOptions(id ?? ''), enabled: id !== undefined && id !== '' });
}
