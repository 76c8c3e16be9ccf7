//! The `shares` table: who may do what with an asset, besides its owner and administrators.
//! Console entries (`origin = console`) are set and revoked one by one; resource entries
//! (`origin = resource`, the custom resource's `spec.sharing`) are replaced as a whole whenever
//! the resource changes. A target's level is the highest of its entries.

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::{assets::AssetRow, named};
use crate::domain::{AccessLevel, ShareOrigin, StoredTarget};

#[derive(Debug, Clone)]
pub struct ShareRow {
    pub id: String,
    pub asset_id: String,
    pub to_type: StoredTarget,
    pub to_id: String,
    pub level: AccessLevel,
    pub origin: ShareOrigin,
    pub from_user_uid: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, asset_id, to_type, to_id, level, origin, from_user_uid, created_at, updated_at";

impl ShareRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            asset_id: r.try_get("asset_id")?,
            to_type: named(r, "to_type")?,
            to_id: r.try_get("to_id")?,
            level: AccessLevel::from_rank(r.try_get("level")?),
            origin: named(r, "origin")?,
            from_user_uid: r.try_get("from_user_uid")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }

    pub fn is_managed(&self) -> bool {
        self.origin == ShareOrigin::Resource
    }
}

/// Every entry of an asset, oldest first.
pub async fn for_asset(db: &AnyPool, asset_id: &str) -> Result<Vec<ShareRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM shares WHERE asset_id = $1 ORDER BY created_at, id");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(asset_id)
        .fetch_all(db)
        .await?
        .iter()
        .map(ShareRow::from_row)
        .collect()
}

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<ShareRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM shares WHERE id = $1");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?
        .map(|r| ShareRow::from_row(&r))
        .transpose()
}

/// One entry to set.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub to_type: StoredTarget,
    pub to_id: &'a str,
    pub level: AccessLevel,
}

/// Sets console entries (insert or update the level), in one transaction.
pub async fn set_console(
    db: &AnyPool,
    asset_id: &str,
    entries: &[Entry<'_>],
    from_uid: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    apply_console(db, asset_id, entries, &[], from_uid, now).await
}

/// Deletes one console entry of a target (revoke). Returns whether one existed.
pub async fn delete_console(
    db: &AnyPool,
    asset_id: &str,
    to_type: StoredTarget,
    to_id: &str,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "DELETE FROM shares WHERE asset_id = $1 AND to_type = $2 AND to_id = $3 AND origin = 'console'",
    )
    .bind(asset_id)
    .bind(to_type.as_str())
    .bind(to_id)
    .execute(db)
    .await?
    .rows_affected()
        > 0)
}

/// Replaces the resource entries of an asset (its custom resource's `spec.sharing`).
pub async fn replace_resource<'c>(
    tx: &mut sqlx::Transaction<'c, sqlx::Any>,
    asset_id: &str,
    entries: &[Entry<'_>],
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM shares WHERE asset_id = $1 AND origin = 'resource'")
        .bind(asset_id)
        .execute(&mut **tx)
        .await?;
    for e in entries {
        sqlx::query(
            "INSERT INTO shares (id, asset_id, to_type, to_id, level, origin, from_user_uid, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 'resource', NULL, $6, $6) \
             ON CONFLICT (asset_id, to_type, to_id, origin) DO UPDATE SET level = excluded.level",
        )
        .bind(super::new_id())
        .bind(asset_id)
        .bind(e.to_type.as_str())
        .bind(e.to_id)
        .bind(e.level.rank())
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A new user of `organization_id` takes over the entries declared for their e-mail before they
/// had an account, on that organization's assets only (shares stay inside an asset's
/// organization; an address elsewhere keeps waiting, granting nothing).
pub async fn claim_pending<'e, E>(
    exec: E,
    email: &str,
    uid: &str,
    organization_id: &str,
) -> Result<u64, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    Ok(sqlx::query(
        "UPDATE shares SET to_type = 'user', to_id = $2 WHERE to_type = 'email' AND to_id = $1 \
         AND asset_id IN (SELECT a.id FROM assets a WHERE a.organization_id = $3)",
    )
    .bind(email.trim().to_lowercase())
    .bind(uid)
    .bind(organization_id)
    .execute(exec)
    .await?
    .rows_affected())
}

/// One target of a console change: `(to_type, to_id)`.
pub type Target<'a> = (StoredTarget, &'a str);

/// Sets and revokes console entries of one asset in one transaction (a share request is
/// all-or-nothing): `sets` are inserted or have their level updated, `revokes` are deleted.
pub async fn apply_console(
    db: &AnyPool,
    asset_id: &str,
    sets: &[Entry<'_>],
    revokes: &[Target<'_>],
    from_uid: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for (to_type, to_id) in revokes {
        sqlx::query(
            "DELETE FROM shares WHERE asset_id = $1 AND to_type = $2 AND to_id = $3 AND origin = 'console'",
        )
        .bind(asset_id)
        .bind(to_type.as_str())
        .bind(*to_id)
        .execute(&mut *tx)
        .await?;
    }
    for e in sets {
        sqlx::query(
            "INSERT INTO shares (id, asset_id, to_type, to_id, level, origin, from_user_uid, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 'console', $6, $7, $7) \
             ON CONFLICT (asset_id, to_type, to_id, origin) DO UPDATE SET level = excluded.level, \
             from_user_uid = excluded.from_user_uid, updated_at = excluded.updated_at",
        )
        .bind(super::new_id())
        .bind(asset_id)
        .bind(e.to_type.as_str())
        .bind(e.to_id)
        .bind(e.level.rank())
        .bind(from_uid)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE assets SET updated_at = $2 WHERE id = $1")
        .bind(asset_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// A console entry sharing `asset` with its whole organization at view (no one shared it: the
/// asset's own organization reads it, e.g. a sample dataset).
pub async fn insert_organization_view<'e, E>(exec: E, asset: &AssetRow, now: i64) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO shares (id, asset_id, to_type, to_id, level, origin, from_user_uid, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $7)",
    )
    .bind(super::new_id())
    .bind(&asset.id)
    .bind(StoredTarget::Organization.as_str())
    .bind(&asset.organization_id)
    .bind(AccessLevel::View.rank())
    .bind(ShareOrigin::Console.as_str())
    .bind(now)
    .execute(exec)
    .await?;
    Ok(())
}

/// Deletes one console entry by id. Returns whether it existed.
pub async fn delete_console_by_id(db: &AnyPool, id: &str) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM shares WHERE id = $1 AND origin = 'console'")
            .bind(id)
            .execute(db)
            .await?
            .rows_affected()
            > 0,
    )
}
