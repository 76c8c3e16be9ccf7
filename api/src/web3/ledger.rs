//! A collection's ledger as its transfer logs build it: each (wallet, token id) balance, each
//! (from, to) pair's number of transfer events, and each minting transaction's recipients (the
//! airdrop test of `spam`). Pure: the indexer feeds it decoded logs and stores what a range changed.

use std::collections::{HashMap, HashSet};

use alloy::{
    primitives::{Address, B256, U256},
    rpc::types::Log,
    sol,
    sol_types::SolEvent as _,
};

sol! {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
}

/// The topic0 of the three transfer events (the indexer's log filter).
pub const TOPICS: [B256; 3] = [
    Transfer::SIGNATURE_HASH,
    TransferSingle::SIGNATURE_HASH,
    TransferBatch::SIGNATURE_HASH,
];

/// One transfer event: tokens (id, amount) from a wallet to a wallet, the zero address for mints
/// and burns. An ERC-721 token's amount is 1; one ERC-1155 batch is one event of several ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferEvent {
    pub tx: B256,
    pub from: Address,
    pub to: Address,
    pub tokens: Vec<(U256, U256)>,
}

/// A log as a transfer event; `None` for anything else (an ERC-20 `Transfer`, whose amount is
/// not indexed, has three topics and is not a collection's transfer; a batch whose lists differ
/// in length is malformed).
pub fn decode(log: &Log) -> Option<TransferEvent> {
    let tx = log.transaction_hash.unwrap_or_default();
    match log.topic0()? {
        t if *t == Transfer::SIGNATURE_HASH => {
            let e = log.log_decode::<Transfer>().ok()?.inner.data;
            Some(TransferEvent {
                tx,
                from: e.from,
                to: e.to,
                tokens: vec![(e.tokenId, U256::from(1))],
            })
        }
        t if *t == TransferSingle::SIGNATURE_HASH => {
            let e = log.log_decode::<TransferSingle>().ok()?.inner.data;
            Some(TransferEvent {
                tx,
                from: e.from,
                to: e.to,
                tokens: vec![(e.id, e.value)],
            })
        }
        t if *t == TransferBatch::SIGNATURE_HASH => {
            let e = log.log_decode::<TransferBatch>().ok()?.inner.data;
            (e.ids.len() == e.values.len()).then(|| TransferEvent {
                tx,
                from: e.from,
                to: e.to,
                tokens: e.ids.into_iter().zip(e.values).collect(),
            })
        }
        _ => None,
    }
}

/// A balance's key: the wallet and the token id.
pub type BalanceKey = (Address, U256);

/// Every (wallet, token id) balance of a collection.
#[derive(Debug, Default)]
pub struct Ledger {
    balances: HashMap<BalanceKey, U256>,
}

/// What one block range changed.
#[derive(Debug, Default)]
pub struct RangeChanges {
    /// Transfer events per (from, to) pair.
    pub pairs: HashMap<(Address, Address), i64>,
    /// The balances changed, with their new amount (zero: gone).
    pub balances: HashMap<BalanceKey, U256>,
    /// Per minting transaction: its recipients and its mint events.
    pub mints: HashMap<B256, (HashSet<Address>, i64)>,
    pub events: i64,
    /// Events that took more than a wallet had (a contract that breaks the standard); the
    /// balance stops at zero.
    pub overdrawn: i64,
}

impl Ledger {
    /// A ledger with stored balances.
    pub fn with_balances(balances: impl IntoIterator<Item = (BalanceKey, U256)>) -> Self {
        Self {
            balances: balances.into_iter().collect(),
        }
    }

    /// Applies one event, noting what changed in `changes`.
    pub fn apply(&mut self, event: &TransferEvent, changes: &mut RangeChanges) {
        changes.events += 1;
        *changes.pairs.entry((event.from, event.to)).or_default() += 1;
        if event.from == Address::ZERO {
            let mint = changes.mints.entry(event.tx).or_default();
            mint.0.insert(event.to);
            mint.1 += 1;
        }
        for &(id, amount) in &event.tokens {
            if event.from != Address::ZERO {
                let key = (event.from, id);
                let have = self.balances.get(&key).copied().unwrap_or_default();
                let left = have.checked_sub(amount).unwrap_or_else(|| {
                    changes.overdrawn += 1;
                    U256::ZERO
                });
                self.set(key, left, changes);
            }
            if event.to != Address::ZERO {
                let key = (event.to, id);
                let have = self.balances.get(&key).copied().unwrap_or_default();
                self.set(key, have.saturating_add(amount), changes);
            }
        }
    }

    fn set(&mut self, key: BalanceKey, amount: U256, changes: &mut RangeChanges) {
        if amount.is_zero() {
            self.balances.remove(&key);
        } else {
            self.balances.insert(key, amount);
        }
        changes.balances.insert(key, amount);
    }
}

#[cfg(test)]
mod tests {
    use alloy::primitives::address;

    use super::*;

    const A: Address = address!("0x00000000000000000000000000000000000000aa");
    const B: Address = address!("0x00000000000000000000000000000000000000bb");

    fn event(tx: u8, from: Address, to: Address, tokens: &[(u64, u64)]) -> TransferEvent {
        TransferEvent {
            tx: B256::with_last_byte(tx),
            from,
            to,
            tokens: tokens
                .iter()
                .map(|&(i, a)| (U256::from(i), U256::from(a)))
                .collect(),
        }
    }

    #[test]
    fn mints_transfers_and_burns_move_balances_and_count_pairs() {
        let mut ledger = Ledger::default();
        let mut changes = RangeChanges::default();
        ledger.apply(&event(1, Address::ZERO, A, &[(1, 1), (2, 5)]), &mut changes);
        ledger.apply(&event(2, A, B, &[(2, 3)]), &mut changes);
        ledger.apply(&event(3, A, B, &[(1, 1)]), &mut changes);
        ledger.apply(&event(4, B, Address::ZERO, &[(2, 3)]), &mut changes);
        assert_eq!(changes.events, 4);
        assert_eq!(changes.pairs[&(A, B)], 2);
        assert_eq!(changes.pairs[&(Address::ZERO, A)], 1);
        assert_eq!(
            changes.balances[&(A, U256::from(1))],
            U256::ZERO,
            "A gave token 1 away"
        );
        assert_eq!(changes.balances[&(A, U256::from(2))], U256::from(2));
        assert_eq!(changes.balances[&(B, U256::from(2))], U256::ZERO, "B burnt its 3");
        assert_eq!(changes.balances[&(B, U256::from(1))], U256::from(1));
        assert_eq!(ledger.balances.len(), 2);
        assert_eq!(changes.mints.len(), 1);
        assert_eq!(changes.overdrawn, 0);
    }

    #[test]
    fn an_overdrawn_balance_stops_at_zero_and_is_counted() {
        let mut ledger = Ledger::with_balances([((A, U256::from(7)), U256::from(1))]);
        let mut changes = RangeChanges::default();
        ledger.apply(&event(1, A, B, &[(7, 2)]), &mut changes);
        assert_eq!(changes.overdrawn, 1);
        assert_eq!(changes.balances[&(A, U256::from(7))], U256::ZERO);
        assert_eq!(changes.balances[&(B, U256::from(7))], U256::from(2));
    }

    #[test]
    fn a_mint_transaction_counts_its_distinct_recipients() {
        let mut ledger = Ledger::default();
        let mut changes = RangeChanges::default();
        for (i, to) in [A, B, A].into_iter().enumerate() {
            ledger.apply(&event(9, Address::ZERO, to, &[(i as u64, 1)]), &mut changes);
        }
        let (recipients, events) = &changes.mints[&B256::with_last_byte(9)];
        assert_eq!((recipients.len(), *events), (2, 3));
    }
}
