//! Authentication: argon2id passwords, HS256 access tokens, rotating refresh tokens with reuse
//! detection, TOTP, throttling of guesses, and the extractors handlers take.
//!
//! Tokens: JWTs ([`jwt`], HS256, one audience per kind) for access, pending-2FA, and the app
//! proxy's tickets and cookies; an access token lives 15 minutes and names its
//! session (`sid`, a refresh-token family). A refresh token is opaque, stored as a digest, spent
//! on use and replaced by a new one of the same family; the family lives 7 days idle and 30 days
//! at most. Presenting a spent refresh token revokes the whole family (a thief and the victim
//! cannot both keep going). Logout revokes the family; access tokens of a revoked family stop
//! working at once because the extractor checks the family.

pub mod client_address;
pub mod extract;
pub mod jwt;
pub mod password;
pub mod throttle;
pub mod totp;

use std::sync::Arc;

use crate::{
    crypto::{self, Keyring},
    db::{self, tokens, users::UserRow},
    error::{ApiError, Result},
    state::AppState,
};

pub use extract::{AuthUser, MaybeAuthUser, TwoFactorCaller};

/// Pending-2FA tokens live 5 minutes.
pub const PENDING_TTL: i64 = 5 * 60;

/// Keys and parameters of authentication, built once from the settings.
pub struct AuthConfig {
    /// An HMAC key of the same secret, for the signed dataset URLs (not JWTs).
    pub jwt_key: ring::hmac::Key,
    /// The signing keys of every JWT: access and pending-2FA tokens, app tickets and app cookies.
    pub tokens: jwt::Keys,
    pub keyring: Keyring,
    pub hash: password::HashParams,
    pub access_ttl: i64,
    pub refresh_idle_ttl: i64,
    pub refresh_absolute_ttl: i64,
    pub address_failures: i64,
}

pub type Auth = Arc<AuthConfig>;

/// A signed-in session's tokens.
pub struct Tokens {
    pub token: String,
    pub refresh_token: String,
}

fn access_token(state: &AppState, uid: &str, sid: &str, now: i64) -> String {
    let claims = jwt::Claims::new(jwt::TokenKind::Access, uid, sid, now, state.auth.access_ttl);
    state.auth.tokens.encode(&claims)
}

/// A token that opens only the 2FA calls (`kind` is one of the pending-2FA kinds).
pub fn pending_token(state: &AppState, uid: &str, kind: jwt::TokenKind) -> String {
    let claims = jwt::Claims::new(kind, uid, "", db::now(), PENDING_TTL);
    state.auth.tokens.encode(&claims)
}

/// Starts a session (a new refresh-token family) for a user.
pub async fn start_session(state: &AppState, uid: &str) -> Result<Tokens> {
    let now = db::now();
    let family = db::new_id();
    let family_expires = now + state.auth.refresh_absolute_ttl;
    tokens::create_family(&state.db, &family, uid, now, family_expires).await?;
    let refresh = crypto::random_token(32);
    tokens::insert_refresh(
        &state.db,
        &family,
        &crypto::sha256_hex(&refresh),
        now,
        (now + state.auth.refresh_idle_ttl).min(family_expires),
    )
    .await?;
    Ok(Tokens {
        token: access_token(state, uid, &family, now),
        refresh_token: refresh,
    })
}

/// Ends every credential of a user but the session `keep`: the other sessions and the API key,
/// together (a password change or reset, a deactivation, a 2FA reset, a move to another
/// organization). A key made with a stolen password or session does not outlive the change.
pub async fn revoke_credentials(state: &AppState, uid: &str, keep: Option<&str>, reason: &str) -> Result<()> {
    let now = db::now();
    let mut tx = state.db.begin().await?;
    tokens::revoke_user_families(&mut *tx, uid, keep, now, reason).await?;
    db::users::clear_api_key(&mut *tx, uid, now).await?;
    tx.commit().await?;
    tracing::info!(user = uid, reason, "sessions and API key revoked");
    Ok(())
}

/// Checks a signed-in user's current password (a re-authentication before a sensitive change),
/// throttled like sign-in: 400 `wrong_password` when it is not theirs.
pub async fn confirm_password(state: &AppState, user: &UserRow, ip: &str, password: &str) -> Result<()> {
    let guard = throttle::Guard::new(throttle::Scope::Password, &user.uid, ip);
    let attempt = guard.reserve(state).await?;
    if !password::verify(password.to_owned(), user.password_hash.clone()).await {
        attempt.failed();
        return Err(ApiError::bad_request(
            "wrong_password",
            "Current password is incorrect",
        ));
    }
    attempt.succeeded().await
}

/// Whether `code` is a current 2FA code of `user` (one step of drift) that was not accepted
/// before; its step is spent, so it is never accepted again. `claimed_secret`, when sent (the
/// enrolment form echoes it), must be the user's secret. Throttling is the caller's.
pub async fn accept_totp(
    state: &AppState,
    user: &UserRow,
    code: &str,
    claimed_secret: Option<&str>,
) -> Result<bool> {
    let Some(sealed) = user.secret_2fa_enc.as_deref().filter(|_| user.enabled_2fa) else {
        return Ok(false);
    };
    let secret_b32 = state.auth.keyring.decrypt(sealed)?;
    if claimed_secret
        .map(str::trim)
        .is_some_and(|s| !s.is_empty() && !s.eq_ignore_ascii_case(&secret_b32))
    {
        return Ok(false);
    }
    let step = totp::verify(&secret_b32, code, db::now(), user.last_totp_step)
        .map_err(|e| ApiError::internal(format!("stored TOTP secret: {e}")))?;
    match step {
        Some(step) => Ok(db::users::spend_totp_step(&state.db, &user.uid, step).await?),
        None => Ok(false),
    }
}

/// Spends a refresh token and issues the next one of its family.
pub async fn rotate(state: &AppState, refresh: &str) -> Result<(String, Tokens)> {
    let now = db::now();
    let invalid = || ApiError::unauthorized("invalid_refresh_token", "Invalid refresh token");
    let row = tokens::find_refresh(&state.db, &crypto::sha256_hex(refresh))
        .await?
        .ok_or_else(invalid)?;
    if row.family_revoked_at.is_some() {
        return Err(ApiError::unauthorized(
            "session_revoked",
            "Session has been revoked. Please sign in again.",
        ));
    }
    let reused = || {
        ApiError::unauthorized(
            "refresh_token_reused",
            "Refresh token reuse detected; the session has been revoked. Please sign in again.",
        )
    };
    if row.spent_at.is_some() {
        tracing::warn!(family = %row.family_id, user = %row.user_uid, "spent refresh token presented: revoking its family");
        tokens::revoke_family(&state.db, &row.family_id, now, "refresh token reuse").await?;
        return Err(reused());
    }
    if now >= row.expires_at || now >= row.family_expires_at {
        return Err(ApiError::unauthorized(
            "refresh_token_expired",
            "Refresh token expired. Please sign in again.",
        ));
    }
    if !tokens::spend(&state.db, &row.id, now).await? {
        // Spent concurrently by someone else: same as reuse.
        tokens::revoke_family(&state.db, &row.family_id, now, "refresh token reuse").await?;
        return Err(reused());
    }
    let next = crypto::random_token(32);
    tokens::insert_refresh(
        &state.db,
        &row.family_id,
        &crypto::sha256_hex(&next),
        now,
        (now + state.auth.refresh_idle_ttl).min(row.family_expires_at),
    )
    .await?;
    Ok((
        row.user_uid.clone(),
        Tokens {
            token: access_token(state, &row.user_uid, &row.family_id, now),
            refresh_token: next,
        },
    ))
}
