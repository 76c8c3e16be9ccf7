//! The `auth_throttle` table: failed attempts per key (an account or a client address) within a
//! window, and the time until which the key is locked.

use sqlx::AnyPool;

pub const WINDOW_SECONDS: i64 = 15 * 60;
pub const LOCK_SECONDS: i64 = 15 * 60;

/// Seconds until `key` may try again, when it is locked.
pub async fn locked_for(db: &AnyPool, key: &str, now: i64) -> Result<Option<i64>, sqlx::Error> {
    let until: Option<i64> = sqlx::query_scalar("SELECT locked_until FROM auth_throttle WHERE key = $1")
        .bind(key)
        .fetch_optional(db)
        .await?;
    Ok(until.filter(|u| *u > now).map(|u| u - now))
}

/// Counts a failure; locks the key when `limit` failures fall within the window.
/// Returns the failures in the current window.
pub async fn record_failure(db: &AnyPool, key: &str, limit: i64, now: i64) -> Result<i64, sqlx::Error> {
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT failures, window_start FROM auth_throttle WHERE key = $1")
            .bind(key)
            .fetch_optional(db)
            .await?;
    let (failures, window_start) = match row {
        Some((f, start)) if now - start < WINDOW_SECONDS => (f + 1, start),
        _ => (1, now),
    };
    let locked_until = if failures >= limit { now + LOCK_SECONDS } else { 0 };
    sqlx::query(
        "INSERT INTO auth_throttle (key, failures, window_start, locked_until) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (key) DO UPDATE SET failures = $2, window_start = $3, locked_until = $4",
    )
    .bind(key)
    .bind(if locked_until > 0 { 0 } else { failures })
    .bind(window_start)
    .bind(locked_until)
    .execute(db)
    .await?;
    Ok(failures)
}

pub async fn reset(db: &AnyPool, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM auth_throttle WHERE key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}
