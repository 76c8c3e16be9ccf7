//! The `ai_usage` table: the assistant's requests per user and minute, shared by every API
//! replica ([`crate::ai::limit`]).

use sqlx::AnyPool;

/// Counts one request of `uid` in `minute` and answers the requests of the minute before and of
/// this one (this request included), in one statement each: concurrent requests of one user, on
/// any replica, each get their own count.
pub async fn count(db: &AnyPool, uid: &str, minute: i64) -> Result<(i64, i64), sqlx::Error> {
    let current: i64 = sqlx::query_scalar(
        "INSERT INTO ai_usage (uid, minute, requests) VALUES ($1, $2, 1) \
         ON CONFLICT (uid, minute) DO UPDATE SET requests = ai_usage.requests + 1 \
         RETURNING requests",
    )
    .bind(uid)
    .bind(minute)
    .fetch_one(db)
    .await?;
    let previous: Option<i64> =
        sqlx::query_scalar("SELECT requests FROM ai_usage WHERE uid = $1 AND minute = $2")
            .bind(uid)
            .bind(minute - 1)
            .fetch_optional(db)
            .await?;
    Ok((previous.unwrap_or(0), current))
}

/// Forgets the minutes before `minute`, every user's.
pub async fn forget_before(db: &AnyPool, minute: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM ai_usage WHERE minute < $1")
        .bind(minute)
        .execute(db)
        .await?;
    Ok(())
}
