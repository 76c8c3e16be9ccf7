import { queryOptions, useQuery } from '@tanstack/react-query';

import { web3Keys } from '@/features/web3/api/keys';
import { graphRefetchInterval } from '@/features/web3/utils/status';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/web3/starmap?slug=: the transaction graph (the 2,000 busiest links, `truncated` when cut). */
export function getStarmap(slug: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/web3/starmap', { params: { query: { slug } }, signal }));
}

export function getStarmapQueryOptions(slug: string) {
  return queryOptions({
    queryKey: web3Keys.starmap(slug),
    queryFn: ({ signal }) => getStarmap(slug, signal),
    // The tab explains a failure in place.
    meta: { silent: true },
    // A collection still indexing answers what is stored so far: it grows until the job ends.
    refetchInterval: (query) => graphRefetchInterval(query.state.data),
  });
}

export function useStarmap(slug: string) {
  return useQuery(getStarmapQueryOptions(slug));
}
