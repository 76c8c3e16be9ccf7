//! Throttling of password and code guessing: 5 failures per account (or per user for 2FA codes)
//! within 15 minutes lock it for 15 minutes, and a per-client-address limit (a setting) does the
//! same for an address; success resets the account's count. Counters live in the database, so
//! every replica sees them.
//!
//! Each attempt is reserved before the slow check ([`Guard::reserve`], atomic in the database) and
//! counts as a failure unless it succeeds, so at most 5 guesses per account are ever checked in a
//! window, however many arrive at once.

use crate::{
    db::{
        self,
        throttle::{self, Reservation},
    },
    error::{ApiError, Result},
    state::AppState,
};

/// Failures per account within the window before it is locked.
pub const ACCOUNT_FAILURES: i64 = 5;

/// What is being guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A password at sign-in, per e-mail.
    Login,
    /// A 2FA code, per user.
    Totp,
    /// The current password of a signed-in user, per user.
    Password,
}

impl Scope {
    fn key_prefix(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Totp => "totp",
            Self::Password => "password",
        }
    }
}

/// The throttle keys of one kind of guess.
pub struct Guard {
    account: String,
    address: String,
}

/// A reserved attempt: a failure unless [`Attempt::succeeded`] is called.
#[must_use = "an attempt is a failure unless it succeeds"]
pub struct Attempt<'a> {
    guard: &'a Guard,
    state: &'a AppState,
}

impl Guard {
    /// `subject` is the e-mail (sign-in) or the uid.
    pub fn new(scope: Scope, subject: &str, ip: &str) -> Self {
        Self {
            account: format!("{}:{}", scope.key_prefix(), subject.to_lowercase()),
            address: format!("ip:{ip}"),
        }
    }

    /// Reserves an attempt of the account and of the address; 429 when either is locked.
    pub async fn reserve<'a>(&'a self, state: &'a AppState) -> Result<Attempt<'a>> {
        let now = db::now();
        if let Reservation::Locked { wait } =
            throttle::reserve(&state.db, &self.account, ACCOUNT_FAILURES, now).await?
        {
            return Err(locked(&self.account, wait));
        }
        let address_limit = state.auth.address_failures;
        if let Reservation::Locked { wait } =
            throttle::reserve(&state.db, &self.address, address_limit, now).await?
        {
            // Not checked, so not the account's failure.
            throttle::release(&state.db, &self.account, ACCOUNT_FAILURES).await?;
            return Err(locked(&self.address, wait));
        }
        Ok(Attempt { guard: self, state })
    }
}

fn locked(key: &str, wait: i64) -> ApiError {
    tracing::warn!(key, wait, "throttled");
    ApiError::Throttled {
        retry_after: wait as u64,
    }
}

impl Attempt<'_> {
    /// The guess was right: the account's count starts over and the address gets its attempt back.
    pub async fn succeeded(self) -> Result<()> {
        throttle::reset(&self.state.db, &self.guard.account).await?;
        throttle::release(
            &self.state.db,
            &self.guard.address,
            self.state.auth.address_failures,
        )
        .await?;
        Ok(())
    }

    /// The guess was wrong (already counted when it was reserved).
    pub fn failed(self) {
        tracing::info!(key = %self.guard.account, "failed attempt");
    }
}
