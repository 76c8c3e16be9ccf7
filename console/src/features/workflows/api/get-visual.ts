import { queryOptions, useQuery } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/workflows/visual/{id}: the designer's nodes, edges, schedule and e-mail settings (view). */
export function getVisualDesign(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v2/workflows/visual/{id}', { params: { path: { id } }, signal }));
}

export function getVisualDesignQueryOptions(id: string) {
  return queryOptions({
    queryKey: workflowKeys.visual(id),
    queryFn: ({ signal }) => getVisualDesign(id, signal),
    // The designer holds its own copy once loaded: never replace it under the user's hands.
    staleTime: Infinity,
    meta: { silent: true },
  });
}

export function useVisualDesign(id: string) {
  return useQuery(getVisualDesignQueryOptions(id));
}
