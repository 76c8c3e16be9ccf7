import type { CollectionsQuery } from '@/features/web3/api/types';

/**
 * Every web3 query starts with 'web3', so one invalidation refreshes them all: a collection added
 * shows in the list and in the web3 page's picker.
 */
export const web3Keys = {
  all: ['web3'] as const,
  collections: () => ['web3', 'collections'] as const,
  collectionPage: (q: CollectionsQuery) => ['web3', 'collections', q] as const,
  starmap: (slug: string) => ['web3', 'starmap', slug] as const,
  bubblewrap: (slug: string) => ['web3', 'bubblewrap', slug] as const,
};
