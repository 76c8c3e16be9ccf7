//! The assistant's per-user request limit (`LUDIS_AI_REQUESTS_PER_MINUTE`), a keyed GCRA limiter
//! from governor: a user may burst up to the minute's quota, then one request per share of it.
//! Kept in memory, per API replica.

use std::num::NonZeroU32;

use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock as _, DefaultClock},
};

use super::AiError;

/// Users' request budgets.
pub struct PerUser {
    limiter: DefaultKeyedRateLimiter<String>,
}

impl PerUser {
    /// `n` requests a minute per user (at least 1).
    pub fn per_minute(n: u32) -> Self {
        let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Self {
            limiter: RateLimiter::keyed(Quota::per_minute(n)),
        }
    }

    /// Takes one request from `uid`'s budget, or says in how many seconds one is left.
    pub fn take(&self, uid: &str) -> Result<(), AiError> {
        // Forget users whose budget is whole again, so the map does not grow without end.
        if self.limiter.len() > 10_000 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&uid.to_owned()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AiError::Limited(wait.as_secs().max(1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_past_the_quota_waits_and_others_do_not() {
        let limit = PerUser::per_minute(3);
        for _ in 0..3 {
            limit.take("u1").unwrap();
        }
        match limit.take("u1") {
            Err(AiError::Limited(s)) => assert!((1..=20).contains(&s), "{s}"),
            other => panic!("expected a limit, got {other:?}"),
        }
        limit.take("u2").unwrap();
    }
}
