import { queryOptions, useQuery } from '@tanstack/react-query';

import { JUPYTER_CHECK_MS } from '@/config/constants';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/projects/{id}: the project with its notebooks, and its JupyterLab (view access). */
export function getLegacyProject(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/projects/{id}', { params: { path: { id } }, signal }));
}

export function getLegacyProjectQueryOptions(id: string) {
  return queryOptions({
    queryKey: notebookKeys.project(id),
    queryFn: ({ signal }) => getLegacyProject(id, signal),
    // The page explains a failure in place (404 for a project the caller may not see).
    meta: { silent: true },
    // A starting JupyterLab is asked about again until it runs or fails.
    refetchInterval: (query) => (query.state.data?.jupyter.status === 'starting' ? JUPYTER_CHECK_MS : false),
  });
}

export function useLegacyProject(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getLegacyProjectQueryOptions(id), enabled: options.enabled ?? true });
}
