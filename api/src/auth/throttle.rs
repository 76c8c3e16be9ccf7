//! Throttling of password and code guessing: 5 failures per account (or per user for 2FA codes)
//! within 15 minutes lock it for 15 minutes, and a per-client-address limit (a setting) does the
//! same for an address; success resets the account's count. Counters live in the database, so
//! every replica sees them.

use crate::{
    app::AppState,
    db::{self, throttle},
    error::{ApiError, Result},
};

/// Failures per account within the window before it is locked.
pub const ACCOUNT_FAILURES: i64 = 5;

/// The throttle keys of one kind of guess.
pub struct Guard {
    account: String,
    address: String,
}

impl Guard {
    /// `scope` is `login`, `totp` or `password`; `subject` the e-mail or uid.
    pub fn new(scope: &str, subject: &str, ip: &str) -> Self {
        Self {
            account: format!("{scope}:{}", subject.to_lowercase()),
            address: format!("ip:{ip}"),
        }
    }

    /// 429 when the account or the address is locked.
    pub async fn check(&self, state: &AppState) -> Result<()> {
        let now = db::now();
        for key in [&self.account, &self.address] {
            if let Some(wait) = throttle::locked_for(&state.db, key, now).await? {
                tracing::warn!(key, wait, "throttled");
                return Err(ApiError::Throttled {
                    retry_after: wait as u64,
                });
            }
        }
        Ok(())
    }

    pub async fn failed(&self, state: &AppState) -> Result<()> {
        let now = db::now();
        let n = throttle::record_failure(&state.db, &self.account, ACCOUNT_FAILURES, now).await?;
        throttle::record_failure(&state.db, &self.address, state.auth.address_failures, now).await?;
        if n >= ACCOUNT_FAILURES {
            tracing::warn!(key = %self.account, "too many failures: locked");
        }
        Ok(())
    }

    pub async fn succeeded(&self, state: &AppState) -> Result<()> {
        throttle::reset(&state.db, &self.account).await?;
        Ok(())
    }
}
