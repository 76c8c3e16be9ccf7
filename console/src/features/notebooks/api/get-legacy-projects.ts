import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { LEGACY_PROJECTS_PAGE_SIZE } from '@/config/constants';
import { type LegacyProjectsQuery, notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * 'My Projects': GET /v1/projects (page, pageSize), newest change first; 'Shared With Me':
 * GET /v1/projects/share/list, newest `created_at` first (spec 001 §9).
 */
export function getLegacyProjects(q: LegacyProjectsQuery, signal?: AbortSignal, pageSize = LEGACY_PROJECTS_PAGE_SIZE) {
  const query = { page: q.page, pageSize };
  if (q.tab === 'shared') return unwrap(api.GET('/v1/projects/share/list', { params: { query }, signal }));
  return unwrap(api.GET('/v1/projects', { params: { query: { ...query, sortOperator: 'desc', orderBy: 'updated_at' } }, signal }));
}

export function getLegacyProjectsQueryOptions(q: LegacyProjectsQuery) {
  return queryOptions({
    queryKey: notebookKeys.list(q),
    queryFn: ({ signal }) => getLegacyProjects(q, signal),
    // The list explains a failure in place.
    meta: { silent: true },
  });
}

/** One page; the previous page stays on screen while the next one loads. */
export function useLegacyProjects(q: LegacyProjectsQuery) {
  return useQuery({ ...getLegacyProjectsQueryOptions(q), placeholderData: keepPreviousData });
}
