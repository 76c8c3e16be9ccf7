//! The `pins` table: the assets a user pinned (the Home page shows up to six).

use sqlx::{AnyPool, Row as _};

use super::assets::{self, AssetRow, Listed, Viewer};
use crate::domain::{AccessLevel, AssetKind};

pub async fn set(
    db: &AnyPool,
    user_uid: &str,
    asset_id: &str,
    pinned: bool,
    now: i64,
) -> Result<(), sqlx::Error> {
    if pinned {
        sqlx::query(
            "INSERT INTO pins (user_uid, asset_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_uid, asset_id) DO NOTHING",
        )
        .bind(user_uid)
        .bind(asset_id)
        .bind(now)
        .execute(db)
        .await?;
    } else {
        sqlx::query("DELETE FROM pins WHERE user_uid = $1 AND asset_id = $2")
            .bind(user_uid)
            .bind(asset_id)
            .execute(db)
            .await?;
    }
    Ok(())
}

/// The assets of a kind the caller pinned and still sees, newest pin first, with their level:
/// one statement, the level computed by the access rule in SQL ([`assets::level_sql`]).
pub async fn pinned(db: &AnyPool, v: Viewer<'_>, kind: AssetKind) -> Result<Vec<Listed>, sqlx::Error> {
    let sql = format!(
        "SELECT {}, {} AS access FROM pins p JOIN assets a ON a.id = p.asset_id \
         WHERE p.user_uid = $1 AND a.kind = $3 AND {} ORDER BY p.created_at DESC, p.asset_id",
        assets::COLUMNS,
        assets::level_sql(v),
        assets::visible_sql(v)
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(v.uid)
        .bind(v.organization_id)
        .bind(kind.as_str())
        .fetch_all(db)
        .await?
        .iter()
        .map(|r| {
            Ok(Listed {
                asset: AssetRow::from_row(r)?,
                level: AccessLevel::from_rank(r.try_get("access")?),
                pinned: true,
            })
        })
        .collect()
}

pub async fn is_pinned(db: &AnyPool, user_uid: &str, asset_id: &str) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM pins WHERE user_uid = $1 AND asset_id = $2")
            .bind(user_uid)
            .bind(asset_id)
            .fetch_one(db)
            .await?
            > 0,
    )
}
