import { useMutation, useQueryClient } from '@tanstack/react-query';

import { setPreview } from '@/features/projects/api/get-project';
import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v2/projects/run/{id} (execute access): starts the preview with the latest commit, running
 * `file` when one is chosen (kept for the next Run), else the file chosen before or the launch
 * rule's first candidate.
 */
export function runProject(id: string, file?: string | null) {
  return unwrap(api.POST('/v2/projects/run/{id}', { params: { path: { id }, query: file ? { file } : {} } }));
}

/** POST /v2/projects/stop/{id} (execute access). */
export function stopProject(id: string) {
  return unwrap(api.POST('/v2/projects/stop/{id}', { params: { path: { id } } }));
}

/** Run or stop the preview (`run: false`); the answer goes straight into the project's query. */
export type RunRequest = { run: true; file?: string | null } | { run: false };

export function useRunProject(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (r: RunRequest) => (r.run ? runProject(id, r.file) : stopProject(id)),
    onSuccess: (r) => {
      setPreview(queryClient, id, r.preview);
      // What runs may have changed (another file).
      void queryClient.invalidateQueries({ queryKey: projectKeys.launch(id) });
    },
  });
}
