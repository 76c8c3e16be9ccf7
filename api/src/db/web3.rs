//! The web3 tables: collections (`web3_collections`) and what their indexing jobs derive from the
//! chain — pairs of wallets with their transfer events, balances, and minting transactions
//! (docs/contracts/web3.md). Addresses are stored lower-case, token ids and amounts as decimals.

use std::collections::HashMap;

use sqlx::{AnyPool, Row as _, any::AnyRow};

use crate::domain::{Chain, CollectionStatus, ContractType};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionRow {
    pub id: String,
    pub chain: Chain,
    pub contract_address: String,
    pub name: String,
    pub symbol: String,
    pub contract_type: ContractType,
    pub gcp_slug: String,
    pub status: CollectionStatus,
    pub error: Option<String>,
    pub start_block: i64,
    pub indexed_block: i64,
    pub target_block: i64,
    pub transfers: i64,
    pub created_by: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, chain, contract_address, name, symbol, contract_type, gcp_slug, status, error, \
                       start_block, indexed_block, target_block, transfers, created_by, created_at, updated_at";

fn parsed<T: std::str::FromStr>(r: &AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = r.try_get(column)?;
    text.parse().map_err(|e| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: Box::new(e),
    })
}

fn row(r: &AnyRow) -> Result<CollectionRow, sqlx::Error> {
    Ok(CollectionRow {
        id: r.try_get("id")?,
        chain: parsed(r, "chain")?,
        contract_address: r.try_get("contract_address")?,
        name: r.try_get("name")?,
        symbol: r.try_get("symbol")?,
        contract_type: parsed(r, "contract_type")?,
        gcp_slug: r.try_get("gcp_slug")?,
        status: parsed(r, "status")?,
        error: r.try_get("error")?,
        start_block: r.try_get("start_block")?,
        indexed_block: r.try_get("indexed_block")?,
        target_block: r.try_get("target_block")?,
        transfers: r.try_get("transfers")?,
        created_by: r.try_get("created_by")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// What keeps a collection from being added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// The contract is added already on that chain.
    Contract,
    /// Another collection has the slug (whatever its case).
    Slug,
}

/// Which of a new collection's unique keys is taken, if one is.
pub async fn taken(
    db: &AnyPool,
    chain: Chain,
    address: &str,
    slug: &str,
) -> Result<Option<Taken>, sqlx::Error> {
    let contract: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM web3_collections WHERE chain = $1 AND contract_address = $2",
    )
    .bind(chain.as_str())
    .bind(address)
    .fetch_one(db)
    .await?;
    if contract > 0 {
        return Ok(Some(Taken::Contract));
    }
    let slugs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM web3_collections WHERE slug_key = $1")
        .bind(slug.to_lowercase())
        .fetch_one(db)
        .await?;
    Ok((slugs > 0).then_some(Taken::Slug))
}

/// Adds a collection; `false` when a unique key was taken meanwhile.
pub async fn insert(db: &AnyPool, c: &CollectionRow) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO web3_collections ({COLUMNS}, slug_key) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING"
    )))
    .bind(&c.id)
    .bind(c.chain.as_str())
    .bind(&c.contract_address)
    .bind(&c.name)
    .bind(&c.symbol)
    .bind(c.contract_type.as_str())
    .bind(&c.gcp_slug)
    .bind(c.status.as_str())
    .bind(&c.error)
    .bind(c.start_block)
    .bind(c.indexed_block)
    .bind(c.target_block)
    .bind(c.transfers)
    .bind(&c.created_by)
    .bind(c.created_at)
    .bind(c.updated_at)
    .bind(c.gcp_slug.to_lowercase())
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<CollectionRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM web3_collections WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?
    .as_ref()
    .map(row)
    .transpose()
}

/// The collection with a slug, whatever its case.
pub async fn by_slug(db: &AnyPool, slug: &str) -> Result<Option<CollectionRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM web3_collections WHERE slug_key = $1"
    )))
    .bind(slug.to_lowercase())
    .fetch_optional(db)
    .await?
    .as_ref()
    .map(row)
    .transpose()
}

/// A page of collections, newest first, with the total (of `status` only, when given).
pub async fn list(
    db: &AnyPool,
    status: Option<CollectionStatus>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<CollectionRow>, i64), sqlx::Error> {
    let status = status.map(CollectionStatus::as_str).unwrap_or("");
    let filter = "WHERE ($1 = '' OR status = $1)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM web3_collections {filter}"
    )))
    .bind(status)
    .fetch_one(db)
    .await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM web3_collections {filter} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3"
    )))
    .bind(status)
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await?;
    Ok((rows.iter().map(row).collect::<Result<_, _>>()?, total))
}

/// The collections whose job has not finished (resumed when the API starts).
pub async fn unfinished(db: &AnyPool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM web3_collections WHERE status = $1 ORDER BY created_at")
        .bind(CollectionStatus::Running.as_str())
        .fetch_all(db)
        .await
}

/// Sets a collection's status (and error, and target block).
pub async fn set_status(
    db: &AnyPool,
    id: &str,
    status: CollectionStatus,
    error: Option<&str>,
    target_block: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE web3_collections SET status = $2, error = $3, target_block = $4, updated_at = $5 WHERE id = $1",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(error)
    .bind(target_block)
    .bind(super::now())
    .execute(db)
    .await?;
    Ok(())
}

/// The holders of each collection: wallets with a balance.
pub async fn holder_counts(db: &AnyPool, ids: &[String]) -> Result<HashMap<String, i64>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let mut q = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT collection_id, COUNT(DISTINCT wallet) AS holders FROM web3_balances \
         WHERE collection_id IN ({}) GROUP BY collection_id",
        marks.join(", ")
    )));
    for id in ids {
        q = q.bind(id);
    }
    q.fetch_all(db)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("collection_id")?, r.try_get("holders")?)))
        .collect()
}

/// Every balance of a collection: (wallet, token id, amount).
pub async fn balances(db: &AnyPool, id: &str) -> Result<Vec<(String, String, String)>, sqlx::Error> {
    sqlx::query("SELECT wallet, token_id, amount FROM web3_balances WHERE collection_id = $1")
        .bind(id)
        .fetch_all(db)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("wallet")?, r.try_get("token_id")?, r.try_get("amount")?)))
        .collect()
}

/// Each holder of a collection and its tokens (ERC-721 tokens, or ERC-1155 units over ids).
pub async fn holders(db: &AnyPool, id: &str) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT wallet, CAST(SUM(units) AS BIGINT) AS tokens FROM web3_balances \
         WHERE collection_id = $1 GROUP BY wallet ORDER BY wallet",
    )
    .bind(id)
    .fetch_all(db)
    .await?
    .iter()
    .map(|r| Ok((r.try_get("wallet")?, r.try_get("tokens")?)))
    .collect()
}

/// For every other collection on `chain`, the holders of `base` it shares and their tokens of it:
/// (collection id, wallet, tokens).
pub async fn shared_holders(
    db: &AnyPool,
    chain: Chain,
    base: &str,
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT b.collection_id, b.wallet, CAST(SUM(b.units) AS BIGINT) AS tokens \
         FROM web3_balances b JOIN web3_collections c ON c.id = b.collection_id \
         WHERE c.chain = $1 AND c.id <> $2 \
           AND b.wallet IN (SELECT wallet FROM web3_balances WHERE collection_id = $2) \
         GROUP BY b.collection_id, b.wallet",
    )
    .bind(chain.as_str())
    .bind(base)
    .fetch_all(db)
    .await?
    .iter()
    .map(|r| {
        Ok((
            r.try_get("collection_id")?,
            r.try_get("wallet")?,
            r.try_get("tokens")?,
        ))
    })
    .collect()
}

/// The (from, to, transfer events) pairs of a collection, busiest first.
pub async fn pairs(db: &AnyPool, id: &str) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT from_wallet, to_wallet, transfers FROM web3_pairs WHERE collection_id = $1 \
         ORDER BY transfers DESC, from_wallet, to_wallet",
    )
    .bind(id)
    .fetch_all(db)
    .await?
    .iter()
    .map(|r| {
        Ok((
            r.try_get("from_wallet")?,
            r.try_get("to_wallet")?,
            r.try_get("transfers")?,
        ))
    })
    .collect()
}

/// Mint events in transactions minting to at least `recipients` wallets, and all mint events.
pub async fn mint_spread(db: &AnyPool, id: &str, recipients: i64) -> Result<(i64, i64), sqlx::Error> {
    let r = sqlx::query(
        "SELECT CAST(SUM(CASE WHEN recipients >= $2 THEN events ELSE 0 END) AS BIGINT) AS wide, \
                CAST(SUM(events) AS BIGINT) AS all_events \
         FROM web3_mints WHERE collection_id = $1",
    )
    .bind(id)
    .bind(recipients)
    .fetch_one(db)
    .await?;
    let wide: Option<i64> = r.try_get("wide")?;
    let all: Option<i64> = r.try_get("all_events")?;
    Ok((wide.unwrap_or(0), all.unwrap_or(0)))
}

/// What one indexed block range changed, as rows.
#[derive(Debug, Default)]
pub struct RangeRows {
    /// (from, to, events to add)
    pub pairs: Vec<(String, String, i64)>,
    /// (wallet, token id, amount, units); amount "0" removes the balance.
    pub balances: Vec<(String, String, String, i64)>,
    /// (transaction, recipients, events)
    pub mints: Vec<(String, i64, i64)>,
    pub events: i64,
}

/// Rows per statement. Each table's rows go to the database as one JSON parameter (an array of
/// arrays) that the statement reads as a table, so a range of 100,000 balances is a few
/// statements instead of thousands of 32-row ones (measured with dev/bench-web3.sh: storing a
/// range of 100,000 transfers took 1.7 s as 32-row statements).
const CHUNK: usize = 10_000;

/// The rows of the JSON array `$2` as a table `j` whose column `value` is one row (a JSON
/// array; its cells are `j.value ->> 0`, …): SQLite's `json_each`, PostgreSQL's
/// `json_array_elements`.
fn json_rows(sqlite: bool) -> &'static str {
    if sqlite {
        "json_each($2) AS j"
    } else {
        "json_array_elements(CAST($2 AS json)) AS j(value)"
    }
}

/// Runs `sql` (whose `$2` is the rows, see [`json_rows`]) for each chunk of `rows`.
async fn each_chunk<T: serde::Serialize>(
    tx: &mut sqlx::AnyConnection,
    sql: &str,
    id: &str,
    rows: &[T],
) -> Result<(), sqlx::Error> {
    for chunk in rows.chunks(CHUNK) {
        let json = serde_json::to_string(chunk).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
            .bind(id)
            .bind(json)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Stores a range's changes and moves the collection's `indexed_block` from `first_block - 1` to
/// `last_block`, in one transaction: a job stopped midway resumes from the last range stored,
/// never counting twice. False, and nothing stored, when `indexed_block` is no longer
/// `first_block - 1` (another API replica's job stored this range or a later one first).
pub async fn store_range(
    db: &AnyPool,
    id: &str,
    rows: &RangeRows,
    (first_block, last_block): (i64, i64),
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    // Compare and set first: the row is locked (PostgreSQL) or the database is (SQLite) until
    // the commit, so two jobs of one collection never both store a range.
    let moved = sqlx::query(
        "UPDATE web3_collections SET indexed_block = $2, transfers = transfers + $3, updated_at = $4 \
         WHERE id = $1 AND indexed_block = $5",
    )
    .bind(id)
    .bind(last_block)
    .bind(rows.events)
    .bind(super::now())
    .bind(first_block - 1)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved == 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    let from = json_rows(tx.backend_name().eq_ignore_ascii_case("sqlite"));
    // `WHERE true`: SQLite's upsert needs it after a SELECT, to tell ON CONFLICT from a join.
    each_chunk(
        &mut tx,
        &format!(
            "INSERT INTO web3_pairs (collection_id, from_wallet, to_wallet, transfers) \
             SELECT $1, j.value ->> 0, j.value ->> 1, CAST(j.value ->> 2 AS BIGINT) FROM {from} WHERE true \
             ON CONFLICT (collection_id, from_wallet, to_wallet) \
             DO UPDATE SET transfers = web3_pairs.transfers + excluded.transfers"
        ),
        id,
        &rows.pairs,
    )
    .await?;
    let (gone, kept): (Vec<_>, Vec<_>) = rows.balances.iter().partition(|b| b.2 == "0");
    each_chunk(
        &mut tx,
        &format!(
            "DELETE FROM web3_balances WHERE collection_id = $1 AND (wallet, token_id) IN \
             (SELECT j.value ->> 0, j.value ->> 1 FROM {from})"
        ),
        id,
        &gone,
    )
    .await?;
    each_chunk(
        &mut tx,
        &format!(
            "INSERT INTO web3_balances (collection_id, wallet, token_id, amount, units) \
             SELECT $1, j.value ->> 0, j.value ->> 1, j.value ->> 2, CAST(j.value ->> 3 AS BIGINT) \
             FROM {from} WHERE true \
             ON CONFLICT (collection_id, wallet, token_id) \
             DO UPDATE SET amount = excluded.amount, units = excluded.units"
        ),
        id,
        &kept,
    )
    .await?;
    each_chunk(
        &mut tx,
        &format!(
            "INSERT INTO web3_mints (collection_id, tx_hash, recipients, events) \
             SELECT $1, j.value ->> 0, CAST(j.value ->> 1 AS BIGINT), CAST(j.value ->> 2 AS BIGINT) \
             FROM {from} WHERE true \
             ON CONFLICT (collection_id, tx_hash) DO NOTHING"
        ),
        id,
        &rows.mints,
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}
