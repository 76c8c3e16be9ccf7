import { queryOptions, useQuery } from '@tanstack/react-query';

import { JUPYTER_CHECK_MS } from '@/config/constants';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/notebook/detail/{id}: the notebook, its project (id, name, the caller's level) and JupyterLab. */
export function getNotebook(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/notebook/detail/{id}', { params: { path: { id } }, signal }));
}

export function getNotebookQueryOptions(id: string, options: { pollWhileStarting?: boolean } = {}) {
  return queryOptions({
    queryKey: notebookKeys.notebook(id),
    queryFn: ({ signal }) => getNotebook(id, signal),
    // The page explains a failure in place (404 for a notebook the caller may not see).
    meta: { silent: true },
    // While JupyterLab starts it is asked about every JUPYTER_CHECK_MS until it runs or fails.
    refetchInterval: (query) => (options.pollWhileStarting && query.state.data?.jupyter.status === 'starting' ? JUPYTER_CHECK_MS : false),
  });
}

export function useNotebook(id: string, options: { pollWhileStarting?: boolean } = {}) {
  return useQuery(getNotebookQueryOptions(id, options));
}
