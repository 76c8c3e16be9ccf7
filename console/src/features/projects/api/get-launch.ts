import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

export type LaunchPurpose = 'serve' | 'render';

/**
 * GET /v2/projects/launch/{id}: what Run (or publishing `file`) will run — the entry file and the
 * command the launch rule gives it, decided from the file at the branch head as the pod will.
 */
export function getLaunch(id: string, file: string | null, purpose: LaunchPurpose, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v2/projects/launch/{id}', {
      params: { path: { id }, query: { ...(file ? { file } : {}), purpose } },
      signal,
    }),
  );
}

export function useLaunch(id: string, file: string | null, purpose: LaunchPurpose = 'serve', options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: projectKeys.launchOf(id, file, purpose),
    queryFn: ({ signal }) => getLaunch(id, file, purpose, signal),
    enabled: options.enabled ?? true,
    // The command stays shown while another file's is asked for.
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
