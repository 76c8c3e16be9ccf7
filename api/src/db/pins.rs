//! The `pins` table: the assets a user pinned (the Home page shows up to six).

use sqlx::AnyPool;

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

/// The ids a user pinned, newest pin first.
pub async fn ids_for_user(
    db: &AnyPool,
    user_uid: &str,
    kind: crate::domain::AssetKind,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT p.asset_id FROM pins p JOIN assets a ON a.id = p.asset_id \
         WHERE p.user_uid = $1 AND a.kind = $2 ORDER BY p.created_at DESC, p.asset_id",
    )
    .bind(user_uid)
    .bind(kind.as_str())
    .fetch_all(db)
    .await
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
