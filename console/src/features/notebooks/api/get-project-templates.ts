import { queryOptions, useQuery } from '@tanstack/react-query';

import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/projects/ludisproject: the template projects (their notebooks and sample datasets). */
export function getProjectTemplates(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/projects/ludisproject', { signal }));
}

export function useProjectTemplates() {
  return useQuery(
    queryOptions({
      queryKey: notebookKeys.templates(),
      queryFn: ({ signal }) => getProjectTemplates(signal),
      staleTime: Infinity,
      // The dialog explains a failure in place.
      meta: { silent: true },
    }),
  );
}
