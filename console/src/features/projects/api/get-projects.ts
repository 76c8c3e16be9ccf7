import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { PROJECTS_PAGE_SIZE } from '@/config/constants';
import { projectKeys, type ProjectsQuery } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/projects with filter (all, owned, shared), page, pageSize and search. */
export function getProjects(q: ProjectsQuery, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v2/projects', {
      params: { query: { filter: q.filter, page: q.page, pageSize: PROJECTS_PAGE_SIZE, search: q.search } },
      signal,
    }),
  );
}

export function getProjectsQueryOptions(q: ProjectsQuery) {
  return queryOptions({
    queryKey: projectKeys.list(q),
    queryFn: ({ signal }) => getProjects(q, signal),
    // The list explains a failure in place.
    meta: { silent: true },
  });
}

/** One page; the previous page stays on screen while the next one loads. */
export function useProjects(q: ProjectsQuery) {
  return useQuery({ ...getProjectsQueryOptions(q), placeholderData: keepPreviousData });
}
