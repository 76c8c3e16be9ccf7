import { WEB3_GRAPH_POLL_MS } from '@/config/constants';
import type { CollectionView } from '@/features/web3/api/types';

type Progress = Pick<CollectionView, 'status' | 'indexed_block' | 'target_block'>;

/** A collection whose indexing job has not finished. */
export function isIndexing(c: Pick<CollectionView, 'status'> | undefined): boolean {
  return c?.status === 'running';
}

/** 'Indexing: block X of Y': how far the job has stored the contract's transfers. */
export function indexingLabel(c: Progress): string {
  return `Indexing: block ${c.indexed_block} of ${c.target_block}`;
}

/** A graph of a collection still indexing is asked again; a finished one not. */
export function graphRefetchInterval(data: { collection: CollectionView } | undefined): number | false {
  return isIndexing(data?.collection) ? WEB3_GRAPH_POLL_MS : false;
}
