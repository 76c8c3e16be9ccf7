import { useQuery, useQueryClient } from '@tanstack/react-query';

import { PREVIEW_CHECK_MS } from '@/config/constants';
import { setPreview } from '@/features/projects/api/get-project';
import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/projects/check/{id}: the preview container's state (view access). */
export function checkProject(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/projects/check/{id}', { params: { path: { id } }, signal }));
}

/**
 * While `starting`, the preview is checked every PREVIEW_CHECK_MS and each answer goes straight
 * into the project's query, so the toolbar follows it.
 */
export function usePreviewCheck(id: string, starting: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: projectKeys.check(id),
    queryFn: async ({ signal }) => {
      const answer = await checkProject(id, signal);
      setPreview(queryClient, id, answer.preview);
      return answer;
    },
    enabled: starting,
    refetchInterval: PREVIEW_CHECK_MS,
    // Each check asks again; nothing is kept.
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
  });
}
