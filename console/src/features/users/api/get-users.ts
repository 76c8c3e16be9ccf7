import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { LIST_PAGE_SIZE } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';
import type { Id } from '@/lib/api/types';

export type GetUsersParams = { organization?: Id; searchTerm?: string };

/** GET /v1/users with page, limit, organization and searchTerm. */
export function getUsers(params: GetUsersParams & { page: number; limit?: number }, signal?: AbortSignal) {
  const query = { page: params.page, limit: params.limit ?? LIST_PAGE_SIZE, organization: params.organization, searchTerm: params.searchTerm };
  return unwrap(api.GET('/v1/users', { params: { query }, signal }));
}

/** Pages of 10; more load while the last page was full (spec 001 §9). */
export function getUsersQueryOptions(params: GetUsersParams) {
  return infiniteQueryOptions({
    queryKey: ['users', params],
    queryFn: ({ pageParam, signal }) => getUsers({ ...params, page: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.users.length, 0);
      if (last.users.length < LIST_PAGE_SIZE) return undefined;
      if (typeof last.total === 'number' && loaded >= last.total) return undefined;
      return all.length + 1;
    },
  });
}

export function useUsers(params: GetUsersParams) {
  return useInfiniteQuery(getUsersQueryOptions(params));
}
