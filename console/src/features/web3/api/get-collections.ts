import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { COLLECTIONS_POLL_MS } from '@/config/constants';
import { web3Keys } from '@/features/web3/api/keys';
import type { CollectionsPage, CollectionsQuery } from '@/features/web3/api/types';
import { isIndexing } from '@/features/web3/utils/status';
import { api, unwrap } from '@/lib/api-client';

/** GET /v1/web3/collections (page, pageSize, status): newest first, with the total. */
export function getCollections(q: CollectionsQuery, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/web3/collections', { params: { query: q }, signal }));
}

/** While any collection of the page is indexing, the page is asked again every 2 s; else not. */
export function collectionsRefetchInterval(data: CollectionsPage | undefined): number | false {
  return data?.collections.some(isIndexing) ? COLLECTIONS_POLL_MS : false;
}

export function getCollectionsQueryOptions(q: CollectionsQuery) {
  return queryOptions({
    queryKey: web3Keys.collectionPage(q),
    queryFn: ({ signal }) => getCollections(q, signal),
    // The list explains a failure in place.
    meta: { silent: true },
    refetchInterval: (query) => collectionsRefetchInterval(query.state.data),
  });
}

/** One page; the previous page stays on screen while the next one loads. */
export function useCollections(q: CollectionsQuery) {
  return useQuery({ ...getCollectionsQueryOptions(q), placeholderData: keepPreviousData });
}
