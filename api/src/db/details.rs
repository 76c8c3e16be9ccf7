//! The per-kind details tables (`insights`, `datasets`, and the kinds to come): one row beside
//! each asset's `assets` row, same id. A kind says its columns and how to read and bind them
//! ([`Details`]); reading, writing and the resource watcher's write are the same for every kind.

use std::collections::HashMap;

use sqlx::{AnyPool, any::AnyRow};

use super::assets::{self, AssetRow, Listed};
use crate::domain::{AccessLevel, AssetKind};

/// A statement of the `Any` driver with its arguments.
pub type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// A kind's details row.
pub trait Details: Sized + Clone + std::fmt::Debug + Send + Sync + Unpin + 'static {
    /// The kind; its table is [`AssetKind::details_table`].
    const KIND: AssetKind;
    /// The columns besides `id`, in the order [`Details::bind`] binds them.
    const COLUMNS: &'static [&'static str];
    /// Reads the row (`id` and every column, unqualified).
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error>;
    /// The asset's id.
    fn id(&self) -> &str;
    /// Binds every column of [`Details::COLUMNS`], in order.
    fn bind<'q>(&'q self, q: AnyQuery<'q>) -> AnyQuery<'q>;
}

/// An asset with its kind's details.
#[derive(Debug, Clone)]
pub struct WithDetails<D> {
    pub asset: AssetRow,
    pub details: D,
}

/// `d.a, d.b, …`: the columns of `D` in a query where its table is aliased `d`.
fn columns<D: Details>() -> String {
    D::COLUMNS
        .iter()
        .map(|c| format!("d.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The asset and its details, when the asset is of `D`'s kind.
pub async fn by_id<D: Details>(db: &AnyPool, id: &str) -> Result<Option<WithDetails<D>>, sqlx::Error> {
    let sql = format!(
        "SELECT {}, {} FROM assets a JOIN {} d ON d.id = a.id WHERE a.id = $1",
        assets::COLUMNS,
        columns::<D>(),
        D::KIND.details_table()
    );
    match sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?
    {
        Some(r) => Ok(Some(WithDetails {
            asset: AssetRow::from_row(&r)?,
            details: D::from_row(&r)?,
        })),
        None => Ok(None),
    }
}

/// The details of several assets (a listed page), in no particular order.
pub async fn of<D: Details>(db: &AnyPool, ids: &[String]) -> Result<Vec<D>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT d.id, {} FROM {} d WHERE d.id IN ({})",
        columns::<D>(),
        D::KIND.details_table(),
        super::placeholders(1, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id.as_str());
    }
    q.fetch_all(db).await?.iter().map(D::from_row).collect()
}

/// A listed page ([`super::assets::list`], [`super::pins::pinned`]) with its details, in the
/// page's order: `(asset, caller's level, pinned)`.
pub async fn of_listed<D: Details>(
    db: &AnyPool,
    listed: Vec<Listed>,
) -> Result<Vec<(WithDetails<D>, AccessLevel, bool)>, sqlx::Error> {
    let ids: Vec<String> = listed.iter().map(|l| l.asset.id.clone()).collect();
    let mut details: HashMap<String, D> = of::<D>(db, &ids)
        .await?
        .into_iter()
        .map(|d| (d.id().to_owned(), d))
        .collect();
    Ok(listed
        .into_iter()
        .filter_map(|l| {
            let details = details.remove(&l.asset.id)?;
            Some((
                WithDetails {
                    asset: l.asset,
                    details,
                },
                l.level,
                l.pinned,
            ))
        })
        .collect())
}

/// Inserts (or updates) the details row.
async fn write<'e, D, E>(exec: E, d: &D, insert: bool) -> Result<(), sqlx::Error>
where
    D: Details,
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let table = D::KIND.details_table();
    let sql = if insert {
        format!(
            "INSERT INTO {table} (id, {}) VALUES ({})",
            D::COLUMNS.join(", "),
            super::placeholders(1, D::COLUMNS.len() + 1)
        )
    } else {
        let set: Vec<String> = D::COLUMNS
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = ${}", i + 2))
            .collect();
        format!("UPDATE {table} SET {} WHERE id = $1", set.join(", "))
    };
    let q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(d.id());
    d.bind(q).execute(exec).await?;
    Ok(())
}

/// Inserts both rows in one transaction.
pub async fn insert<D: Details>(db: &AnyPool, a: &WithDetails<D>) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    write_both(&mut tx, a, true).await?;
    tx.commit().await
}

/// Inserts (or updates) both rows.
async fn write_both<D: Details>(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: &WithDetails<D>,
    insert: bool,
) -> Result<(), sqlx::Error> {
    if insert {
        assets::insert(&mut **tx, &a.asset).await?;
    } else {
        assets::update(&mut **tx, &a.asset).await?;
    }
    write(&mut **tx, &a.details, insert).await
}

/// Inserts both rows and a console share of the whole organization at view, in one transaction
/// (an asset without an owner that every member reads: a sample dataset).
pub async fn insert_shared_with_organization<D: Details>(
    db: &AnyPool,
    a: &WithDetails<D>,
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    write_both(&mut tx, a, true).await?;
    super::shares::insert_organization_view(&mut *tx, &a.asset, now).await?;
    tx.commit().await
}

/// Updates both rows in one transaction.
pub async fn update<D: Details>(db: &AnyPool, a: &WithDetails<D>) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    write_both(&mut tx, a, false).await?;
    tx.commit().await
}

/// Inserts or updates both rows, and replaces the resource share entries, in one transaction
/// (the resource watcher's write of `version`, the resource's uid and generation). False, and
/// nothing written, when the row already reflects a newer version
/// ([`assets::claim_generation`]).
pub async fn upsert_with_resource_shares<D: Details>(
    db: &AnyPool,
    a: &WithDetails<D>,
    exists: bool,
    shares: &[super::shares::Entry<'_>],
    now: i64,
    version: (&str, i64),
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    if !exists {
        assets::insert(&mut *tx, &a.asset).await?;
    }
    // Claimed first: the row is locked (PostgreSQL) or the database is (SQLite) until the commit,
    // so the API's record of a newer version comes before this check or after this write.
    if !assets::claim_generation(&mut *tx, &a.asset.id, version.0, version.1).await? {
        tx.rollback().await?;
        return Ok(false);
    }
    if exists {
        assets::update(&mut *tx, &a.asset).await?;
    }
    write(&mut *tx, &a.details, !exists).await?;
    super::shares::replace_resource(&mut tx, &a.asset.id, shares, now).await?;
    tx.commit().await?;
    Ok(true)
}
