import type { Bubblewrap, CollectionsPage, CollectionView, GraphLink, GraphNode, OverlapBubble, Starmap } from '@/features/web3/api/types';

let next = 0;

/** A collection as GET /v1/web3/collections shows it (an indexed ERC-721 on Ethereum, unless patched). */
export function makeCollection(patch: Partial<CollectionView> = {}): CollectionView {
  next += 1;
  return {
    id: `col-${next}`,
    contract_address: `0x${String(next).padStart(40, 'a')}`,
    name: `Collection ${next}`,
    symbol: `C${next}`,
    contract_type: 'ERC721',
    gcp_slug: `collection${next}`,
    chain: 'ETHEREUM',
    status: 'success',
    error: null,
    created_date: '2026-11-20T10:00:00Z',
    start_block: 10,
    indexed_block: 120,
    target_block: 120,
    transfers: 42,
    holders: 7,
    ...patch,
  };
}

export function collectionsPage(collections: CollectionView[], total = collections.length): CollectionsPage {
  return { success: true, collections, total };
}

const zero = '0x0000000000000000000000000000000000000000';

/** A small starmap: mints from the zero address to three wallets and one transfer on. */
export function makeStarmap(collection: CollectionView, patch: Partial<Starmap> = {}): Starmap {
  const nodes: GraphNode[] = [
    { wallet: zero, class: 'zero', tokens: 0 },
    { wallet: '0x1111', class: 'holder', tokens: 4 },
    { wallet: '0x2222', class: 'former', tokens: 0 },
    { wallet: '0x3333', class: 'holder', tokens: 1 },
  ];
  const links: GraphLink[] = [
    { source: zero, target: '0x1111', value: 4 },
    { source: zero, target: '0x2222', value: 1 },
    { source: '0x2222', target: '0x3333', value: 1 },
  ];
  return { success: true, collection, nodes, links, truncated: false, ...patch };
}

export function makeBubble(patch: Partial<OverlapBubble> = {}): OverlapBubble {
  return {
    contract_address: '0xbase',
    collection_name: 'Base',
    overlap_wallet_perc: 100,
    current_wallets: 13,
    tokens_held: 20,
    group: 'base',
    spam: false,
    ...patch,
  };
}

export function makeBubblewrap(collection: CollectionView, bubbles: OverlapBubble[]): Bubblewrap {
  return { success: true, collection, bubbles };
}
