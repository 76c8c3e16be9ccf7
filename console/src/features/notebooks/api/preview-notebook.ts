import { queryOptions, useQuery } from '@tanstack/react-query';

import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v1/notebook/{id}/preview (view access): a read-only rendering of the committed notebook (`html`). */
export function previewNotebook(id: string, signal?: AbortSignal) {
  return unwrap(api.POST('/v1/notebook/{id}/preview', { params: { path: { id } }, signal }));
}

/** A POST without side effects, asked for as a query: each visit renders the notebook as committed now. */
export function useNotebookPreview(id: string) {
  return useQuery(
    queryOptions({
      queryKey: notebookKeys.preview(id),
      queryFn: ({ signal }) => previewNotebook(id, signal),
      staleTime: 0,
      gcTime: 0,
      // The page explains a failure in place.
      meta: { silent: true },
    }),
  );
}
