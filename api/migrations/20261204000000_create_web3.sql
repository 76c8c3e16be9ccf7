-- Web3 collections and what their indexing jobs derive from the chain (spec 001 §3 Collection,
-- §7 web3 calls; docs/contracts/web3.md). Collections are global, managed by superadmins.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE TABLE web3_collections (
    id TEXT PRIMARY KEY,
    -- ETHEREUM | POLYGON
    chain TEXT NOT NULL,
    -- 0x and 40 hex digits, lower-case.
    contract_address TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    symbol TEXT NOT NULL DEFAULT '',
    -- ERC721 | ERC1155
    contract_type TEXT NOT NULL,
    gcp_slug TEXT NOT NULL,
    -- The slug lower-cased: slugs are unique whatever their case.
    slug_key TEXT NOT NULL,
    -- running | success | failed, and why it failed.
    status TEXT NOT NULL,
    error TEXT,
    -- The job reads start_block..target_block; indexed_block is the last block stored
    -- (start_block - 1 before the first range).
    start_block BIGINT NOT NULL,
    indexed_block BIGINT NOT NULL,
    target_block BIGINT NOT NULL,
    -- Transfer events stored.
    transfers BIGINT NOT NULL DEFAULT 0,
    created_by TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT web3_collections_contract UNIQUE (chain, contract_address),
    CONSTRAINT web3_collections_slug UNIQUE (slug_key)
);

-- Transfer events per (from, to) wallet pair: the transaction graph's links.
CREATE TABLE web3_pairs (
    collection_id TEXT NOT NULL REFERENCES web3_collections (id) ON DELETE CASCADE,
    from_wallet TEXT NOT NULL,
    to_wallet TEXT NOT NULL,
    transfers BIGINT NOT NULL,
    PRIMARY KEY (collection_id, from_wallet, to_wallet)
);

-- Each wallet's balance of each token id (an ERC-721 token: 1), as a decimal (uint256) and as
-- a saturated BIGINT for sums; a balance of zero has no row.
CREATE TABLE web3_balances (
    collection_id TEXT NOT NULL REFERENCES web3_collections (id) ON DELETE CASCADE,
    wallet TEXT NOT NULL,
    token_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    units BIGINT NOT NULL,
    PRIMARY KEY (collection_id, wallet, token_id)
);
CREATE INDEX web3_balances_wallet ON web3_balances (wallet);

-- Each minting transaction's distinct recipients and mint events (the airdrop test of `spam`).
CREATE TABLE web3_mints (
    collection_id TEXT NOT NULL REFERENCES web3_collections (id) ON DELETE CASCADE,
    tx_hash TEXT NOT NULL,
    recipients BIGINT NOT NULL,
    events BIGINT NOT NULL,
    PRIMARY KEY (collection_id, tx_hash)
);
