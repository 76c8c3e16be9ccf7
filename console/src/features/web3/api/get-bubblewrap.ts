import { queryOptions, useQuery } from '@tanstack/react-query';

import { web3Keys } from '@/features/web3/api/keys';
import { graphRefetchInterval } from '@/features/web3/utils/status';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/web3/bubblewrap?slug=: the base collection's bubble, then those sharing 10 % or more of its holders. */
export function getBubblewrap(slug: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/web3/bubblewrap', { params: { query: { slug } }, signal }));
}

export function getBubblewrapQueryOptions(slug: string) {
  return queryOptions({
    queryKey: web3Keys.bubblewrap(slug),
    queryFn: ({ signal }) => getBubblewrap(slug, signal),
    // The tab explains a failure in place.
    meta: { silent: true },
    // A collection still indexing answers what is stored so far.
    refetchInterval: (query) => graphRefetchInterval(query.state.data),
  });
}

export function useBubblewrap(slug: string) {
  return useQuery(getBubblewrapQueryOptions(slug));
}
