//! The assistant's per-user request limit (`LUDIS_AI_REQUESTS_PER_MINUTE`), kept in the database
//! so that every API replica takes from the same budget (`db::ai_usage`): a sliding minute,
//! estimated from the requests of the current and the previous calendar minute (the previous
//! weighted by the share of it still inside the last 60 seconds). A refused request counts too:
//! a client that keeps asking stays refused.

use std::num::NonZeroU32;

use sqlx::AnyPool;

use super::AiError;
use crate::db;

/// Minutes of counts kept.
const KEEP_MINUTES: i64 = 60;

/// Users' request budgets.
pub struct PerUser {
    per_minute: NonZeroU32,
}

impl PerUser {
    /// `n` requests a minute per user (at least 1).
    pub fn per_minute(n: u32) -> Self {
        Self {
            per_minute: NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN),
        }
    }

    /// Takes one request from `uid`'s budget at `now` (Unix seconds), or says in how many
    /// seconds one is left.
    pub async fn take(&self, db: &AnyPool, uid: &str, now: i64) -> Result<(), AiError> {
        let (minute, second) = (now.div_euclid(60), now.rem_euclid(60));
        let (previous, current) = db::ai_usage::count(db, uid, minute)
            .await
            .map_err(|e| AiError::Budget(e.to_string()))?;
        if second == 0 {
            // Once a minute (per replica that serves a request then), old counts go.
            let _ = db::ai_usage::forget_before(db, minute - KEEP_MINUTES).await;
        }
        match wait(self.per_minute.get(), previous, current, second) {
            0 => Ok(()),
            seconds => Err(AiError::Limited(seconds)),
        }
    }
}

/// Pure: 0 when a request is within `per_minute` — `current` requests in this minute (it
/// included) and `previous` in the one before, `second` seconds into this one — else the seconds
/// to wait (until this minute ends, when the previous one no longer counts).
pub fn wait(per_minute: u32, previous: i64, current: i64, second: i64) -> u64 {
    let previous_share = previous as f64 * (60 - second) as f64 / 60.0;
    if previous_share + current as f64 <= f64::from(per_minute) {
        0
    } else {
        u64::try_from(60 - second).unwrap_or(1).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_sixty_seconds_count() {
        // Within the minute's quota.
        assert_eq!(wait(3, 0, 3, 10), 0);
        assert_eq!(wait(3, 0, 4, 10), 50);
        // The previous minute counts for the share of it still inside the last 60 seconds.
        assert_eq!(wait(3, 3, 1, 10), 50);
        assert_eq!(wait(3, 3, 2, 30), 30);
        assert_eq!(wait(3, 3, 1, 30), 0);
        assert_eq!(wait(3, 3, 1, 45), 0);
        // Never 0 seconds to wait when refused.
        assert_eq!(wait(1, 0, 2, 59), 1);
    }
}
