//! Sessions: `token_families` (one per sign-in) and their `refresh_tokens`. Refresh tokens are
//! stored as SHA-256 digests; each is spent when used and replaced by a new one of the family.

use sqlx::AnyPool;

pub async fn create_family(
    db: &AnyPool,
    id: &str,
    user_uid: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO token_families (id, user_uid, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(user_uid)
        .bind(now)
        .bind(expires_at)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn insert_refresh(
    db: &AnyPool,
    family_id: &str,
    token_hash: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO refresh_tokens (id, family_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(super::new_id())
    .bind(family_id)
    .bind(token_hash)
    .bind(now)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}

#[derive(Debug)]
pub struct RefreshRow {
    pub id: String,
    pub family_id: String,
    pub user_uid: String,
    pub expires_at: i64,
    pub spent_at: Option<i64>,
    pub family_expires_at: i64,
    pub family_revoked_at: Option<i64>,
}

/// id, family, user, expiry, spent, family expiry, family revoked.
type RefreshTuple = (String, String, String, i64, Option<i64>, i64, Option<i64>);

pub async fn find_refresh(db: &AnyPool, token_hash: &str) -> Result<Option<RefreshRow>, sqlx::Error> {
    let row: Option<RefreshTuple> = sqlx::query_as(
        "SELECT r.id, r.family_id, f.user_uid, r.expires_at, r.spent_at, f.expires_at, f.revoked_at \
         FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id WHERE r.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?;
    Ok(row.map(
        |(id, family_id, user_uid, expires_at, spent_at, family_expires_at, family_revoked_at)| RefreshRow {
            id,
            family_id,
            user_uid,
            expires_at,
            spent_at,
            family_expires_at,
            family_revoked_at,
        },
    ))
}

/// Marks a refresh token spent; false when it already was (a concurrent or repeated use).
pub async fn spend(db: &AnyPool, id: &str, now: i64) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("UPDATE refresh_tokens SET spent_at = $1 WHERE id = $2 AND spent_at IS NULL")
            .bind(now)
            .bind(id)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

pub async fn revoke_family(db: &AnyPool, family_id: &str, now: i64, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE token_families SET revoked_at = $1, revoke_reason = $2 WHERE id = $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(reason)
    .bind(family_id)
    .execute(db)
    .await?;
    Ok(())
}

/// Revokes every session of a user except `keep` (e.g. after a password change).
pub async fn revoke_user_families<'e, E>(
    exec: E,
    user_uid: &str,
    keep: Option<&str>,
    now: i64,
    reason: &str,
) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "UPDATE token_families SET revoked_at = $1, revoke_reason = $2 \
         WHERE user_uid = $3 AND id <> $4 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(reason)
    .bind(user_uid)
    .bind(keep.unwrap_or(""))
    .execute(exec)
    .await?;
    Ok(())
}

/// The revocation time and reason of a family, or None when it does not exist.
pub async fn family_state(db: &AnyPool, family_id: &str) -> Result<Option<(Option<i64>, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT revoked_at, expires_at FROM token_families WHERE id = $1")
        .bind(family_id)
        .fetch_optional(db)
        .await
}
