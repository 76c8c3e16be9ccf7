//! A collection's indexing job: reads its transfer logs (`eth_getLogs`, filtered by the contract
//! and the three transfer topics) in block ranges from `indexed_block + 1` to `target_block`,
//! applies them to the collection's [`Ledger`], and stores each range's changes with the new
//! `indexed_block` in one transaction. The next range is fetched while the current one is
//! stored. A range the node refuses as too large is halved; a network failure is retried three
//! times. A job stopped midway (the API restarted) resumes from the last range stored; of two
//! jobs of one collection (two replicas resuming it), only one stores each range ([`Job`]).

use std::time::Duration;

use alloy::{
    primitives::{Address, U256},
    providers::{Provider as _, RootProvider},
    rpc::types::{Filter, Log},
    transports::{RpcError, TransportError},
};
use sqlx::AnyPool;

use super::ledger::{self, BalanceKey, Ledger, RangeChanges};
use crate::{
    db::web3::{self as store, RangeRows},
    domain::CollectionStatus,
    state::AppState,
};

/// Network failures retried per range before the job fails.
const RETRIES: u32 = 3;

/// Why a job stopped.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("the collection is gone")]
    Gone,
    #[error("another job (another API replica's) stored a range first; it goes on alone")]
    Superseded,
    #[error("the chain refused the logs of block {block}: {reason}")]
    Refused { block: u64, reason: String },
    #[error("the chain cannot be reached: {0}")]
    Chain(String),
    #[error("the database failed: {0}")]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Stored(String),
}

/// What a finished job read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Indexed {
    pub ranges: u64,
    pub logs: u64,
    pub events: u64,
}

/// Starts a collection's job in the background, unless it runs already; the job's end is the
/// collection's status (`success`, or `failed` with the reason).
pub fn spawn(state: &AppState, id: &str) {
    let web3 = state.web3.clone();
    if !web3.claim(id) {
        return;
    }
    let (db, id) = (state.db.clone(), id.to_owned());
    tokio::spawn(async move {
        let outcome = match store::by_id(&db, &id).await {
            Ok(Some(c)) => match web3.chains.provider(c.chain) {
                Ok(provider) => index(&db, provider, &id, web3.block_range).await,
                Err(e) => Err(IndexError::Chain(e.to_string())),
            },
            Ok(None) => Err(IndexError::Gone),
            Err(e) => Err(e.into()),
        };
        match outcome {
            Ok(done) => {
                tracing::info!(collection = %id, ranges = done.ranges, events = done.events, "collection indexed")
            }
            Err(IndexError::Gone) => {}
            Err(e @ IndexError::Superseded) => tracing::info!(collection = %id, "{e}"),
            Err(e) => {
                tracing::warn!(collection = %id, error = %e, "collection indexing failed");
                let target = store::by_id(&db, &id)
                    .await
                    .ok()
                    .flatten()
                    .map(|c| c.target_block);
                if let Some(target) = target
                    && let Err(e) =
                        store::set_status(&db, &id, CollectionStatus::Failed, Some(&e.to_string()), target)
                            .await
                {
                    tracing::error!(collection = %id, error = %e, "a failed job's status was not stored");
                }
            }
        }
        web3.release(&id);
    });
}

/// Resumes every unfinished job (when the API starts).
pub async fn resume_all(state: AppState) {
    match store::unfinished(&state.db).await {
        Ok(ids) => ids.iter().for_each(|id| spawn(&state, id)),
        Err(e) => tracing::warn!(error = %e, "unfinished collection jobs could not be listed"),
    }
}

/// Indexes a collection to its `target_block` and marks it `success`.
pub async fn index(
    db: &AnyPool,
    provider: &RootProvider,
    id: &str,
    block_range: u64,
) -> Result<Indexed, IndexError> {
    Job::load(db, id).await?.run(db, provider, block_range).await
}

/// A job of one collection, from where its stored state stands when it is loaded. Two jobs of a
/// collection may run at once (two API replicas resuming it): the first to store a range goes on,
/// the other stops ([`IndexError::Superseded`]) — each range is stored only over the
/// `indexed_block` its job started from.
pub struct Job {
    collection: store::CollectionRow,
    address: Address,
    ledger: Ledger,
}

impl Job {
    /// The collection and its balances as stored now.
    pub async fn load(db: &AnyPool, id: &str) -> Result<Self, IndexError> {
        let collection = store::by_id(db, id).await?.ok_or(IndexError::Gone)?;
        let address: Address = collection.contract_address.parse().map_err(|e| {
            IndexError::Stored(format!("stored address {:?}: {e}", collection.contract_address))
        })?;
        let ledger = Ledger::with_balances(parse_balances(store::balances(db, id).await?)?);
        Ok(Self {
            collection,
            address,
            ledger,
        })
    }

    /// Reads and stores the ranges up to the target, then marks the collection `success`.
    pub async fn run(
        self,
        db: &AnyPool,
        provider: &RootProvider,
        block_range: u64,
    ) -> Result<Indexed, IndexError> {
        run(db, provider, self, block_range).await
    }
}

async fn run(
    db: &AnyPool,
    provider: &RootProvider,
    job: Job,
    block_range: u64,
) -> Result<Indexed, IndexError> {
    let Job {
        collection: c,
        address,
        mut ledger,
    } = job;
    let id = c.id.as_str();
    let target = u64::try_from(c.target_block).unwrap_or(0);
    let mut from = u64::try_from(c.indexed_block + 1).unwrap_or(0);
    let mut span = block_range.max(1);
    let mut done = Indexed::default();
    let fetch = |from: u64, span: u64| {
        let provider = provider.clone();
        let to = from.saturating_add(span - 1).min(target);
        tokio::spawn(async move { (from, to, logs(&provider, address, from, to).await) })
    };
    let mut pending = (from <= target).then(|| fetch(from, span));
    while let Some(task) = pending.take() {
        let (start, end, answer) = task
            .await
            .map_err(|e| IndexError::Chain(format!("the fetch stopped: {e}")))?;
        let logs = match answer {
            Ok(logs) => logs,
            Err(RpcError::ErrorResp(e)) if span > 1 => {
                span = (end - start + 1).div_ceil(2);
                tracing::debug!(collection = %id, span, reason = %e.message, "range refused; halving");
                pending = Some(fetch(start, span));
                continue;
            }
            Err(RpcError::ErrorResp(e)) => {
                return Err(IndexError::Refused {
                    block: start,
                    reason: e.message.to_string(),
                });
            }
            Err(e) => return Err(IndexError::Chain(e.to_string())),
        };
        from = end + 1;
        pending = (from <= target).then(|| fetch(from, span));
        done.ranges += 1;
        done.logs += logs.len() as u64;
        let applied = std::time::Instant::now();
        let mut changes = RangeChanges::default();
        for event in logs.iter().filter_map(ledger::decode) {
            ledger.apply(&event, &mut changes);
        }
        let rows = rows(changes);
        let stored = std::time::Instant::now();
        done.events += u64::try_from(rows.events).unwrap_or(0);
        let blocks = (
            i64::try_from(start).unwrap_or(i64::MAX),
            i64::try_from(end).unwrap_or(i64::MAX),
        );
        if !store::store_range(db, id, &rows, blocks).await? {
            return Err(IndexError::Superseded);
        }
        tracing::debug!(
            collection = %id, start, end, logs = logs.len(),
            decode_ms = (stored - applied).as_millis() as u64,
            store_ms = stored.elapsed().as_millis() as u64,
            "range stored"
        );
    }
    store::set_status(db, id, CollectionStatus::Success, None, c.target_block).await?;
    Ok(done)
}

/// One range's logs, retrying network failures (a node's refusal is answered at once).
async fn logs(
    provider: &RootProvider,
    address: Address,
    from: u64,
    to: u64,
) -> Result<Vec<Log>, TransportError> {
    let filter = Filter::new()
        .address(address)
        .event_signature(ledger::TOPICS.to_vec())
        .from_block(from)
        .to_block(to);
    let mut attempt = 0;
    loop {
        match provider.get_logs(&filter).await {
            Err(e) if !matches!(e, RpcError::ErrorResp(_)) && attempt < RETRIES => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt))).await;
            }
            answer => return answer,
        }
    }
}

fn parse_balances(rows: Vec<(String, String, String)>) -> Result<Vec<(BalanceKey, U256)>, IndexError> {
    rows.into_iter()
        .map(|(wallet, token, amount)| {
            let bad =
                |what: &str, e: &dyn std::fmt::Display| IndexError::Stored(format!("stored {what}: {e}"));
            Ok((
                (
                    wallet.parse().map_err(|e| bad("wallet", &e))?,
                    token.parse().map_err(|e| bad("token id", &e))?,
                ),
                amount.parse().map_err(|e| bad("amount", &e))?,
            ))
        })
        .collect()
}

/// A range's changes as rows (addresses lower-case, numbers as decimals).
fn rows(changes: RangeChanges) -> RangeRows {
    if changes.overdrawn > 0 {
        tracing::warn!(
            overdrawn = changes.overdrawn,
            "transfers took more than a wallet had"
        );
    }
    let hex = |a: &Address| format!("{a:#x}");
    RangeRows {
        pairs: changes
            .pairs
            .iter()
            .map(|((f, t), n)| (hex(f), hex(t), *n))
            .collect(),
        balances: changes
            .balances
            .iter()
            .map(|((w, id), amount)| {
                (
                    hex(w),
                    id.to_string(),
                    amount.to_string(),
                    i64::try_from(*amount).unwrap_or(i64::MAX),
                )
            })
            .collect(),
        mints: changes
            .mints
            .iter()
            .map(|(tx, (to, n))| (format!("{tx:#x}"), to.len() as i64, *n))
            .collect(),
        events: changes.events,
    }
}
