import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { RUNS_PAGE_SIZE } from '@/config/constants';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { RunsPage } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/workflows/runs/{id}?page&limit: the run history, newest first, 10 a page (spec 001 §9). */
export function getRuns(id: string, page: number, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/workflows/runs/{id}', { params: { path: { id }, query: { page, limit: RUNS_PAGE_SIZE } }, signal }));
}

export function getRunsQueryOptions(id: string, page: number) {
  return queryOptions({
    queryKey: workflowKeys.runsPage(id, page),
    queryFn: ({ signal }) => getRuns(id, page, signal),
    meta: { silent: true },
  });
}

/** Whether a run on this page has not finished yet. */
export function hasActiveRun(page: RunsPage | undefined): boolean {
  return !!page?.runs.some((r) => r.state === 'queued' || r.state === 'running');
}

/** One page of runs, refetched every `pollMs` while one of them is queued or running. */
export function useRuns(id: string, page: number, pollMs: number) {
  return useQuery({
    ...getRunsQueryOptions(id, page),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (hasActiveRun(q.state.data) ? pollMs : false),
  });
}
