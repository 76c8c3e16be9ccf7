//! The web3 page's graphs, from what indexing stored: the transaction graph (`starmap`: wallets
//! and the transfer events between them) and the overlap of a collection's holders with the
//! other collections of its chain (`bubblewrap`). Pure: the routes give the rows.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{BubbleGroup, WalletClass};

/// The most links a transaction graph answers (the busiest; the page stays drawable).
pub const MAX_LINKS: usize = 2000;
/// The share of the base collection's holders another collection must hold to be a bubble
/// (spec 001 §9: at least 10 %).
pub const OVERLAP_MIN_PERCENT: f64 = 10.0;
/// A mint transaction to this many distinct wallets or more is an airdrop …
pub const AIRDROP_RECIPIENTS: i64 = 20;
/// … and a collection whose mints are at least this share airdrops is marked spam.
const AIRDROP_SHARE: f64 = 0.8;

const ZERO: &str = "0x0000000000000000000000000000000000000000";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct GraphNode {
    pub wallet: String,
    pub class: WalletClass,
    /// Tokens held now (ERC-721 tokens, or ERC-1155 units summed over ids).
    pub tokens: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct GraphLink {
    pub source: String,
    pub target: String,
    /// Transfer events from source to target.
    pub value: i64,
}

/// The transaction graph: the busiest [`MAX_LINKS`] links (pairs come busiest first) and their
/// wallets, each classed by what it holds now; `true` when links were left out.
pub fn starmap(
    pairs: Vec<(String, String, i64)>,
    holders: &HashMap<String, i64>,
) -> (Vec<GraphNode>, Vec<GraphLink>, bool) {
    let truncated = pairs.len() > MAX_LINKS;
    let links: Vec<GraphLink> = pairs
        .into_iter()
        .take(MAX_LINKS)
        .map(|(source, target, value)| GraphLink {
            source,
            target,
            value,
        })
        .collect();
    let mut seen = HashSet::new();
    let nodes = links
        .iter()
        .flat_map(|l| [&l.source, &l.target])
        .filter(|w| seen.insert(w.as_str()))
        .map(|wallet| {
            let tokens = holders.get(wallet).copied().unwrap_or(0);
            let class = if wallet == ZERO {
                WalletClass::Zero
            } else if tokens > 0 {
                WalletClass::Holder
            } else {
                WalletClass::Former
            };
            GraphNode {
                wallet: wallet.clone(),
                class,
                tokens,
            }
        })
        .collect();
    (nodes, links, truncated)
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct OverlapBubble {
    pub contract_address: String,
    pub collection_name: String,
    /// Shared holders ÷ the base collection's holders × 100, two decimals.
    pub overlap_wallet_perc: f64,
    /// The shared holders (the base's own holders for the base).
    pub current_wallets: i64,
    /// That collection's tokens the shared holders hold.
    pub tokens_held: i64,
    pub group: BubbleGroup,
    pub spam: bool,
}

/// A collection as the overlap graph names it.
#[derive(Debug, Clone)]
pub struct Named {
    pub id: String,
    pub contract_address: String,
    pub name: String,
    pub spam: bool,
}

/// Whether a collection's mints are mostly airdrops: (airdrop mint events, all mint events).
pub fn is_spam((airdropped, minted): (i64, i64)) -> bool {
    minted > 0 && airdropped as f64 >= AIRDROP_SHARE * minted as f64
}

/// The base collection's bubble, then every other collection holding at least
/// [`OVERLAP_MIN_PERCENT`] of its holders, largest overlap first. `shared` is each other
/// collection's (id, wallet, tokens) for the wallets it shares with the base.
pub fn bubblewrap(
    base: &Named,
    base_holders: &HashMap<String, i64>,
    others: &[Named],
    shared: &[(String, String, i64)],
) -> Vec<OverlapBubble> {
    let holders = base_holders.len() as i64;
    let mut bubbles = vec![OverlapBubble {
        contract_address: base.contract_address.clone(),
        collection_name: base.name.clone(),
        overlap_wallet_perc: if holders > 0 { 100.0 } else { 0.0 },
        current_wallets: holders,
        tokens_held: base_holders.values().sum(),
        group: BubbleGroup::Base,
        spam: base.spam,
    }];
    if holders == 0 {
        return bubbles;
    }
    let mut per: HashMap<&str, (i64, i64)> = HashMap::new();
    for (id, wallet, tokens) in shared {
        if base_holders.contains_key(wallet) {
            let e = per.entry(id.as_str()).or_default();
            e.0 += 1;
            e.1 += tokens;
        }
    }
    let mut overlapping: Vec<OverlapBubble> = others
        .iter()
        .filter_map(|o| {
            let &(wallets, tokens) = per.get(o.id.as_str())?;
            let percent = (wallets as f64 * 10_000.0 / holders as f64).round() / 100.0;
            (percent >= OVERLAP_MIN_PERCENT).then(|| OverlapBubble {
                contract_address: o.contract_address.clone(),
                collection_name: o.name.clone(),
                overlap_wallet_perc: percent,
                current_wallets: wallets,
                tokens_held: tokens,
                group: BubbleGroup::Overlap,
                spam: o.spam,
            })
        })
        .collect();
    overlapping.sort_by(|a, b| {
        b.overlap_wallet_perc
            .total_cmp(&a.overlap_wallet_perc)
            .then_with(|| a.contract_address.cmp(&b.contract_address))
    });
    bubbles.extend(overlapping);
    bubbles
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(pairs: &[(&str, i64)]) -> HashMap<String, i64> {
        pairs.iter().map(|(w, n)| ((*w).to_owned(), *n)).collect()
    }

    fn named(id: &str) -> Named {
        Named {
            id: id.into(),
            contract_address: format!("0x{id}"),
            name: id.to_uppercase(),
            spam: false,
        }
    }

    #[test]
    fn wallets_are_classed_by_what_they_hold_now() {
        let pairs = vec![
            (ZERO.to_owned(), "a".to_owned(), 3),
            ("a".to_owned(), "b".to_owned(), 1),
            ("b".to_owned(), ZERO.to_owned(), 1),
        ];
        let (nodes, links, truncated) = starmap(pairs, &held(&[("a", 2)]));
        assert!(!truncated);
        assert_eq!(links.len(), 3);
        let class: HashMap<_, _> = nodes.iter().map(|n| (n.wallet.as_str(), n.class)).collect();
        assert_eq!(nodes.len(), 3, "each wallet once");
        assert_eq!(class[ZERO], WalletClass::Zero);
        assert_eq!(class["a"], WalletClass::Holder);
        assert_eq!(class["b"], WalletClass::Former);
    }

    #[test]
    fn the_busiest_links_are_kept() {
        let pairs: Vec<_> = (0..MAX_LINKS + 5)
            .map(|i| (format!("f{i}"), "t".to_owned(), 1))
            .collect();
        let (nodes, links, truncated) = starmap(pairs, &HashMap::new());
        assert!(truncated);
        assert_eq!(links.len(), MAX_LINKS);
        assert_eq!(nodes.len(), MAX_LINKS + 1);
    }

    #[test]
    fn bubbles_keep_overlaps_of_ten_percent_or_more() {
        let base_holders = held(
            &(0..10)
                .map(|i| (["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9"][i], 1))
                .collect::<Vec<_>>(),
        );
        let shared = vec![
            ("b".to_owned(), "w0".to_owned(), 4),
            ("b".to_owned(), "w1".to_owned(), 1),
            ("c".to_owned(), "w2".to_owned(), 7),
            ("d".to_owned(), "x".to_owned(), 1),
        ];
        let bubbles = bubblewrap(
            &named("a"),
            &base_holders,
            &[named("b"), named("c"), named("d")],
            &shared,
        );
        assert_eq!(bubbles.len(), 3, "the base, b (20 %) and c (10 %): {bubbles:?}");
        assert_eq!(
            (
                bubbles[0].group,
                bubbles[0].current_wallets,
                bubbles[0].tokens_held
            ),
            (BubbleGroup::Base, 10, 10)
        );
        assert_eq!(
            (
                bubbles[1].collection_name.as_str(),
                bubbles[1].overlap_wallet_perc
            ),
            ("B", 20.0)
        );
        assert_eq!((bubbles[1].current_wallets, bubbles[1].tokens_held), (2, 5));
        assert_eq!(
            (
                bubbles[2].collection_name.as_str(),
                bubbles[2].overlap_wallet_perc
            ),
            ("C", 10.0)
        );
    }

    #[test]
    fn mostly_airdropped_collections_are_spam() {
        assert!(is_spam((80, 100)));
        assert!(!is_spam((79, 100)));
        assert!(!is_spam((0, 0)));
    }
}
