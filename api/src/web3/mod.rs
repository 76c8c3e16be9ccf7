//! Web3 collections (spec 001 §2 "Collections and web3", docs/contracts/web3.md): ERC-721 and
//! ERC-1155 contracts on the chains Ludis reaches ([`rpc`]), checked on their chain
//! ([`contract`]) and indexed from their transfer logs ([`indexer`], [`ledger`]) into the graphs
//! the web3 page draws ([`graphs`]).

pub mod contract;
pub mod graphs;
pub mod indexer;
pub mod ledger;
pub mod rpc;

use std::{collections::HashSet, sync::Mutex};

use crate::{domain::Chain, settings::Settings};

/// The web3 area's share of the application state: the chains and the indexing jobs running.
pub struct Web3 {
    pub chains: rpc::Chains,
    /// Blocks per `eth_getLogs` call at first (`LUDIS_WEB3_BLOCK_RANGE`).
    pub block_range: u64,
    /// The collections whose job runs in this process (one job per collection).
    jobs: Mutex<HashSet<String>>,
}

impl Web3 {
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Self> {
        let chains = rpc::Chains::connect([
            (Chain::Ethereum, settings.web3_rpc_ethereum.expose()),
            (Chain::Polygon, settings.web3_rpc_polygon.expose()),
        ])?;
        Ok(Self::new(chains, settings.web3_block_range))
    }

    pub fn new(chains: rpc::Chains, block_range: u64) -> Self {
        Self {
            chains,
            block_range: block_range.max(1),
            jobs: Mutex::new(HashSet::new()),
        }
    }

    /// Marks a collection's job as running here; `false` when it already is.
    fn claim(&self, id: &str) -> bool {
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned())
    }

    fn release(&self, id: &str) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }
}

/// Whether a text is a contract address as the spec's rule has it (letters and digits, exactly
/// 42 characters) and as a chain has it (`0x` and 40 hex digits): lower-cased when it is.
pub fn contract_address(text: &str) -> Option<String> {
    let text = text.trim();
    let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))?;
    (text.len() == 42 && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| format!("0x{}", hex.to_ascii_lowercase()))
}

/// Whether a slug follows the rule: letters and digits only, 1 to 64 of them.
pub fn valid_slug(slug: &str) -> bool {
    (1..=64).contains(&slug.len()) && slug.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_addresses_are_0x_and_40_hex_digits() {
        let a = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
        assert_eq!(
            contract_address(a).as_deref(),
            Some("0x5fbdb2315678afecb367f032d93f642f64180aa3")
        );
        assert_eq!(contract_address(&a[..41]), None, "41 characters");
        assert_eq!(contract_address(&format!("{a}0")), None, "43 characters");
        assert_eq!(
            contract_address("0x5FbDB2315678afecb367f032d93F642f64180aag"),
            None,
            "g is no hex digit"
        );
        assert_eq!(
            contract_address("005FbDB2315678afecb367f032d93F642f64180aa3"),
            None,
            "no 0x"
        );
        assert_eq!(
            contract_address("0x5FbDB2315678afecb367f032d93F642f64180a-3"),
            None
        );
    }

    #[test]
    fn slugs_are_letters_and_digits() {
        assert!(valid_slug("Lighthouses2"));
        assert!(!valid_slug(""));
        assert!(!valid_slug("light-houses"));
        assert!(!valid_slug("light houses"));
        assert!(!valid_slug("phare\u{e9}"));
        assert!(!valid_slug(&"a".repeat(65)));
    }
}
