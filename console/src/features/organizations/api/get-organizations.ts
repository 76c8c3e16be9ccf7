import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { LIST_PAGE_SIZE } from '@/config/constants';
import { api, unwrap } from '@/lib/api-client';

export type GetOrganizationsParams = { page: number; limit?: number };

/** GET /v1/organizations/list with page and limit. */
export function getOrganizations({ page, limit = LIST_PAGE_SIZE }: GetOrganizationsParams, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/organizations/list', { params: { query: { page, limit } }, signal }));
}

export function getOrganizationsQueryOptions(params: GetOrganizationsParams) {
  return queryOptions({
    queryKey: ['organizations', 'list', params],
    queryFn: ({ signal }) => getOrganizations(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizations(params: GetOrganizationsParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getOrganizationsQueryOptions(params), enabled: options.enabled ?? true });
}
