import type { CollectionView } from '@/features/web3/api/types';

/**
 * The collection the web3 page shows: the one `asked` names (the URL's `?slug=`, matched without
 * regard to case, as slugs are unique), else the newest one indexed, else the newest one.
 * `slug` is what the graphs are asked for; `collection` is null when the list does not hold it.
 */
export function pickCollection(list: readonly CollectionView[], asked: string | null): { slug: string | null; collection: CollectionView | null } {
  if (asked) {
    const found = list.find((c) => c.gcp_slug.toLowerCase() === asked.toLowerCase()) ?? null;
    return { slug: found?.gcp_slug ?? asked, collection: found };
  }
  const chosen = list.find((c) => c.status === 'success') ?? list[0] ?? null;
  return { slug: chosen?.gcp_slug ?? null, collection: chosen };
}
