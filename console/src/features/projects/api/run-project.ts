import { useMutation, useQueryClient } from '@tanstack/react-query';

import { setPreview } from '@/features/projects/api/get-project';
import { api, unwrap } from '@/lib/api-client';

/** POST /v2/projects/run/{id} (execute access): starts the preview with the latest commit. */
export function runProject(id: string) {
  return unwrap(api.POST('/v2/projects/run/{id}', { params: { path: { id } } }));
}

/** POST /v2/projects/stop/{id} (execute access). */
export function stopProject(id: string) {
  return unwrap(api.POST('/v2/projects/stop/{id}', { params: { path: { id } } }));
}

/** Run (`running` true) or stop the preview; the answer goes straight into the project's query. */
export function useRunProject(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (running: boolean) => (running ? runProject(id) : stopProject(id)),
    onSuccess: (r) => setPreview(queryClient, id, r.preview),
  });
}
