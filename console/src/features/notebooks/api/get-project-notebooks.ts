import { queryOptions, useQuery } from '@tanstack/react-query';

import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/notebook/{id} with a project's id: its notebooks (view access). */
export function getProjectNotebooks(projectId: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/notebook/{id}', { params: { path: { id: projectId } }, signal }));
}

export function useProjectNotebooks(projectId: string) {
  return useQuery(
    queryOptions({
      queryKey: notebookKeys.projectNotebooks(projectId),
      queryFn: ({ signal }) => getProjectNotebooks(projectId, signal),
      // The list explains a failure in place.
      meta: { silent: true },
    }),
  );
}
