//! Benchmark of a collection's indexing (issue 18): the transfer logs of a contract read, decoded
//! and stored by the indexer (`ludis_api::web3::indexer::index`, into a fresh SQLite database)
//! against a plain `eth_getLogs` loop over the same block ranges with the same client (the logs
//! fetched and dropped), alternating, best of each. Prints transfers/s of both and their ratio
//! (goal ≥ 0.8×) as JSON.
//!
//!   web3_bench RPC_URL ADDRESS FROM_BLOCK TO_BLOCK [BLOCK_RANGE] [ROUNDS]
//!
//! `dev/bench-web3.sh` deploys the collection (seeds/web3/seed.mjs bulk) and runs it.

use std::time::Instant;

use alloy::{
    primitives::Address,
    providers::{Provider as _, RootProvider},
    rpc::types::Filter,
};
use ludis_api::{
    db::{self, web3::CollectionRow},
    domain::{Chain, CollectionStatus, ContractType},
    web3::{indexer, ledger, rpc::Chains},
};
use serde_json::json;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        args.len() >= 4,
        "usage: web3_bench RPC_URL ADDRESS FROM_BLOCK TO_BLOCK [BLOCK_RANGE] [ROUNDS]"
    );
    let chains = Chains::connect([(Chain::Ethereum, args[0].as_str())])?;
    let provider = chains.provider(Chain::Ethereum)?;
    let address: Address = args[1].parse()?;
    let (from, to): (u64, u64) = (args[2].parse()?, args[3].parse()?);
    let span: u64 = args.get(4).map_or(Ok(2000), |s| s.parse())?;
    let rounds: usize = args.get(5).map_or(Ok(3), |s| s.parse())?;
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir()?;

    let (mut plain, mut ludis) = (f64::MAX, f64::MAX);
    let (mut logs, mut events) = (0, 0);
    for round in 0..rounds {
        let started = Instant::now();
        logs = plain_loop(provider, address, from, to, span).await?;
        plain = plain.min(started.elapsed().as_secs_f64());

        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join(format!("bench-{round}.db")).display()
        );
        let pool = db::pool_options().connect(&url).await?;
        db::migrate(&pool).await?;
        let id = format!("bench-{round}");
        db::web3::insert(&pool, &row(&id, address, from, to)).await?;
        let started = Instant::now();
        let done = indexer::index(&pool, provider, &id, span).await?;
        ludis = ludis.min(started.elapsed().as_secs_f64());
        events = done.events;
        let holders = db::web3::holders(&pool, &id).await?;
        eprintln!(
            "round {}: plain loop {logs} logs; indexer {} events, {} ranges, {} holders",
            round + 1,
            done.events,
            done.ranges,
            holders.len()
        );
        pool.close().await;
    }
    anyhow::ensure!(
        events == logs,
        "the indexer stored {events} events of {logs} logs"
    );
    let rate = |s: f64| (logs as f64 / s).round();
    println!(
        "{}",
        json!({
            "transfers": logs,
            "blocks": to - from + 1,
            "block_range": span,
            "plain_get_logs_s": plain,
            "plain_get_logs_transfers_per_s": rate(plain),
            "ludis_indexer_s": ludis,
            "ludis_indexer_transfers_per_s": rate(ludis),
            "ratio": (plain / ludis * 100.0).round() / 100.0,
        })
    );
    Ok(())
}

/// The baseline: every range's logs fetched (the same filter as the indexer's) and counted.
async fn plain_loop(
    provider: &RootProvider,
    address: Address,
    from: u64,
    to: u64,
    span: u64,
) -> anyhow::Result<u64> {
    let mut n = 0;
    let mut start = from;
    while start <= to {
        let end = (start + span - 1).min(to);
        let filter = Filter::new()
            .address(address)
            .event_signature(ledger::TOPICS.to_vec())
            .from_block(start)
            .to_block(end);
        n += provider.get_logs(&filter).await?.len() as u64;
        start = end + 1;
    }
    Ok(n)
}

fn row(id: &str, address: Address, from: u64, to: u64) -> CollectionRow {
    let now = db::now();
    CollectionRow {
        id: id.to_owned(),
        chain: Chain::Ethereum,
        contract_address: format!("{address:#x}"),
        name: "Bench".into(),
        symbol: "BENCH".into(),
        contract_type: ContractType::Erc721,
        gcp_slug: id.replace('-', ""),
        status: CollectionStatus::Running,
        error: None,
        start_block: from as i64,
        indexed_block: from as i64 - 1,
        target_block: to as i64,
        transfers: 0,
        created_by: None,
        created_at: now,
        updated_at: now,
    }
}
