import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { WORKFLOWS_PAGE_SIZE, WORKFLOWS_REFRESH_MS } from '@/config/constants';
import { workflowKeys, type WorkflowsQuery } from '@/features/workflows/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/workflows with filter, page, pageSize, search and optionally one project's. */
export function getWorkflows(q: WorkflowsQuery, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v2/workflows', {
      params: { query: { filter: q.filter, page: q.page, pageSize: WORKFLOWS_PAGE_SIZE, search: q.search, projectId: q.projectId } },
      signal,
    }),
  );
}

export function getWorkflowsQueryOptions(q: WorkflowsQuery) {
  return queryOptions({
    queryKey: workflowKeys.list(q),
    queryFn: ({ signal }) => getWorkflows(q, signal),
    // The list explains a failure in place.
    meta: { silent: true },
  });
}

/** One page, refetched every 60 s (spec 001 §9); the previous page stays while the next loads. */
export function useWorkflows(q: WorkflowsQuery) {
  return useQuery({ ...getWorkflowsQueryOptions(q), placeholderData: keepPreviousData, refetchInterval: WORKFLOWS_REFRESH_MS });
}
