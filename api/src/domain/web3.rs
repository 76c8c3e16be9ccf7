//! The web3 area's fixed sets (spec 001 §3 Collection, §9 chains, docs/contracts/web3.md).

use super::names;

names! {
    /// A chain Ludis reaches through one JSON-RPC endpoint (`LUDIS_WEB3_RPC_<CHAIN>`).
    pub enum Chain ("chain") {
        Ethereum = "ETHEREUM",
        Polygon = "POLYGON",
    }
}

names! {
    /// The token standard a collection speaks (by ERC-165 `supportsInterface`).
    pub enum ContractType ("contract type") {
        Erc721 = "ERC721",
        Erc1155 = "ERC1155",
    }
}

names! {
    /// A collection's indexing job (spec 001 §3: running or success; failed when the chain
    /// refused, with the reason beside).
    pub enum CollectionStatus ("collection status") {
        Running = "running",
        Success = "success",
        Failed = "failed",
    }
}

names! {
    /// A wallet's class in the transaction graph.
    pub enum WalletClass ("wallet class") {
        /// The zero address: mints come from it, burns go to it.
        Zero = "zero",
        /// Holds at least one token now.
        Holder = "holder",
        /// Held tokens once and holds none now.
        Former = "former",
    }
}

names! {
    /// An overlap bubble's group: the collection asked about, or one overlapping it.
    pub enum BubbleGroup ("bubble group") {
        Base = "base",
        Overlap = "overlap",
    }
}
