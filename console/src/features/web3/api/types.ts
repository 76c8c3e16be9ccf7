// Hand-typed: these mirror docs/contracts/web3.md until api/openapi.json documents /v1/web3 (then `npm run gen:api` and use its names).

export type Chain = 'ETHEREUM' | 'POLYGON';
export type ContractType = 'ERC721' | 'ERC1155';
export type CollectionStatus = 'running' | 'success' | 'failed';

/** A collection and its indexing job's progress. */
export type CollectionView = {
  id: string;
  /** `0x` + 40 hex digits, lower-case. */
  contract_address: string;
  /** The contract's `name()`, '' when it has none. */
  name: string;
  /** The contract's `symbol()`, '' when it has none. */
  symbol: string;
  contract_type: ContractType;
  /** Letters and digits, unique: the graphs' `slug`. */
  gcp_slug: string;
  chain: Chain;
  status: CollectionStatus;
  /** Why the job failed. */
  error: string | null;
  /** RFC 3339. */
  created_date: string;
  start_block: number;
  /** `indexed_block` of `start_block..target_block` is stored. */
  indexed_block: number;
  target_block: number;
  /** Transfer events stored so far. */
  transfers: number;
  /** Wallets holding at least one token now. */
  holders: number;
};

/** `zero`: the zero address; `holder`: holds `tokens` now; `former`: held some, holds none now. */
export type GraphNodeClass = 'zero' | 'holder' | 'former';
export type GraphNode = { wallet: string; class: GraphNodeClass; tokens: number };
/** Wallets; `value` is the number of transfer events from `source` to `target`. */
export type GraphLink = { source: string; target: string; value: number };

export type OverlapBubble = {
  contract_address: string;
  collection_name: string;
  /** Shared holders ÷ base holders × 100 (two decimals); 100 for the base. */
  overlap_wallet_perc: number;
  /** The shared holders (the base: its holders). */
  current_wallets: number;
  /** That collection's tokens the shared holders hold. */
  tokens_held: number;
  group: 'base' | 'overlap';
  /** The collection looks like an airdrop. */
  spam: boolean;
};

export type CollectionsQuery = { page?: number; pageSize?: number; status?: CollectionStatus };
export type CollectionsPage = { success: boolean; collections: CollectionView[]; total: number };

export type ValidateContractBody = { chain: Chain };
export type ContractValidation = {
  success: true;
  valid: boolean;
  contract_address: string;
  chain: Chain;
  name: string | null;
  symbol: string | null;
  contract_type: ContractType | null;
  message: string;
};

export type AddCollectionBody = { gcp_slug: string; chain: Chain };
export type CollectionAdded = { success: boolean; message: string; collection: CollectionView };

export type Starmap = { success: boolean; collection: CollectionView; nodes: GraphNode[]; links: GraphLink[]; truncated: boolean };
/** Base first, then by overlap, largest first. */
export type Bubblewrap = { success: boolean; collection: CollectionView; bubbles: OverlapBubble[] };
