import { queryOptions, useQuery } from '@tanstack/react-query';

import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** PUT /v1/users/{userId}/getJupyterDevUrl {project_id} (execute access): JupyterLab's port and address. */
export function getJupyterDevUrl(userId: string, projectId: string, signal?: AbortSignal) {
  return unwrap(api.PUT('/v1/users/{userId}/getJupyterDevUrl', { params: { path: { userId } }, body: { project_id: projectId }, signal }));
}

/** Asked for once JupyterLab runs (`enabled`). */
export function useJupyterDevUrl(userId: string, projectId: string, options: { enabled: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: notebookKeys.devUrl(projectId),
      queryFn: ({ signal }) => getJupyterDevUrl(userId, projectId, signal),
      enabled: options.enabled && !!userId,
      // The page shows the port from the open call when this fails.
      meta: { silent: true },
    }),
  );
}
