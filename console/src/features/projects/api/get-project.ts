import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { PreviewState, ProjectDetail } from '@/lib/api/types';

/** GET /v2/projects/{id}: the project and its preview container (view access). */
export function getProject(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/projects/{id}', { params: { path: { id } }, signal }));
}

export function getProjectQueryOptions(id: string) {
  return queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: ({ signal }) => getProject(id, signal),
    // The workspace explains a failure in place (404 for a project the caller may not see).
    meta: { silent: true },
  });
}

export function useProject(id: string) {
  return useQuery(getProjectQueryOptions(id));
}

/** A new preview state (run, stop, check) goes straight into the project's query. */
export function setPreview(queryClient: QueryClient, id: string, preview: PreviewState) {
  queryClient.setQueryData<ProjectDetail>(projectKeys.detail(id), (old) =>
    old ? { ...old, preview, project: { ...old.project, status: preview.status } } : old,
  );
}
