//! The `auth_throttle` table: attempts per key (an account or a client address) within a window,
//! and the time until which the key is locked.
//!
//! An attempt is *reserved* before the password or code is checked, in one statement (an upsert
//! with `RETURNING`, atomic on SQLite and PostgreSQL alike), and counts as a failure unless it is
//! given back. So concurrent guesses cannot all pass the check before the first failure is
//! written: the `limit`-th reservation locks the key and every later one is refused unchecked.

use sqlx::AnyPool;

pub const WINDOW_SECONDS: i64 = 15 * 60;
pub const LOCK_SECONDS: i64 = 15 * 60;

/// What a reservation answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservation {
    /// The attempt may be checked; it counts as a failure until given back.
    Granted,
    /// The key is locked for this many more seconds.
    Locked { wait: i64 },
}

/// Whether the key's count starts over: its lock is over, or (unlocked) its window is.
const FRESH: &str = "((auth_throttle.locked_until <> 0 AND auth_throttle.locked_until <= $2) \
     OR (auth_throttle.locked_until = 0 AND auth_throttle.window_start <= $2 - $4))";

/// Reserves one attempt of `key` at `now`, `limit` attempts per window.
pub async fn reserve(db: &AnyPool, key: &str, limit: i64, now: i64) -> Result<Reservation, sqlx::Error> {
    let count = format!("CASE WHEN {FRESH} THEN 1 ELSE auth_throttle.failures + 1 END");
    let sql = format!(
        "INSERT INTO auth_throttle (key, failures, window_start, locked_until) \
         VALUES ($1, 1, $2, CASE WHEN 1 >= $3 THEN $2 + $5 ELSE 0 END) \
         ON CONFLICT (key) DO UPDATE SET \
           failures = {count}, \
           window_start = CASE WHEN {FRESH} THEN $2 ELSE auth_throttle.window_start END, \
           locked_until = CASE WHEN auth_throttle.locked_until > $2 THEN auth_throttle.locked_until \
                               WHEN {count} >= $3 THEN $2 + $5 ELSE 0 END \
         RETURNING failures, locked_until"
    );
    let (failures, locked_until): (i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(key)
        .bind(now)
        .bind(limit)
        .bind(WINDOW_SECONDS)
        .bind(LOCK_SECONDS)
        .fetch_one(db)
        .await?;
    Ok(if failures <= limit {
        Reservation::Granted
    } else {
        Reservation::Locked {
            wait: (locked_until - now).max(1),
        }
    })
}

/// Gives a granted attempt back (it was not a failure), unlocking the key when that brings it
/// under `limit`.
pub async fn release(db: &AnyPool, key: &str, limit: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE auth_throttle SET failures = failures - 1, \
         locked_until = CASE WHEN failures - 1 < $2 THEN 0 ELSE locked_until END \
         WHERE key = $1 AND failures > 0",
    )
    .bind(key)
    .bind(limit)
    .execute(db)
    .await?;
    Ok(())
}

/// Forgets the key's failures and lock.
pub async fn reset(db: &AnyPool, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM auth_throttle WHERE key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}
