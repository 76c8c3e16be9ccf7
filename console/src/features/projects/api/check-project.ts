import { useQuery, useQueryClient } from '@tanstack/react-query';

import { PREVIEW_CHECK_MS, PREVIEW_WATCH_MS } from '@/config/constants';
import { setPreview } from '@/features/projects/api/get-project';
import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { PreviewState } from '@/lib/api/types';

/** GET /v2/projects/check/{id}: the preview container's state (view access). */
export function checkProject(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/projects/check/{id}', { params: { path: { id } }, signal }));
}

/**
 * The preview's state, followed live: every PREVIEW_CHECK_MS while it starts, every
 * PREVIEW_WATCH_MS while it runs (it may fail later), not at all when stopped or failed. Each answer
 * goes straight into the project's query, so the toolbar and the status follow it; a failure
 * reloads the project for the failure's last log lines.
 */
export function usePreviewCheck(id: string, status: PreviewState['status']) {
  const queryClient = useQueryClient();
  const live = status === 'starting' || status === 'running';
  return useQuery({
    queryKey: projectKeys.check(id),
    queryFn: async ({ signal }) => {
      const answer = await checkProject(id, signal);
      setPreview(queryClient, id, answer.preview);
      if (answer.preview.status === 'failed') void queryClient.invalidateQueries({ queryKey: projectKeys.detail(id) });
      return answer;
    },
    enabled: live,
    refetchInterval: status === 'starting' ? PREVIEW_CHECK_MS : PREVIEW_WATCH_MS,
    // Each check asks again; nothing is kept.
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
  });
}
