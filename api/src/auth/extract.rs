//! Extractors: [`AuthUser`] (a full session or an API key), [`MaybeAuthUser`] (the same, or
//! nobody) and [`TwoFactorCaller`] (a full session or a pending-2FA token, for the 2FA calls).
//! Each logs why it rejected.

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, header, request::Parts},
};
use sqlx::Row as _;

use super::jwt::{self, JwtError, TokenKind};
use crate::{
    app::AppState,
    crypto,
    db::{self, users::UserRow},
    error::ApiError,
    policy::users::Person,
};

/// An authenticated caller with a full session (or an API key).
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user: UserRow,
    /// The session (refresh-token family); None for API keys.
    pub session: Option<String>,
    pub org_requires_2fa: bool,
}

impl AuthUser {
    /// The session of a caller signed in with a full session (password, and the 2FA code where
    /// enabled); 403 for an API key, which may not show or make API keys or change the
    /// password.
    pub fn require_session(&self) -> Result<&str, ApiError> {
        self.session.as_deref().ok_or_else(|| {
            tracing::info!(user = %self.user.uid, "rejected: an API key on a session-only call");
            ApiError::forbidden(
                "full_session_required",
                "This needs a signed-in session: an API key is not enough",
            )
        })
    }

    /// Whether this caller sees `uid`'s API key: it is themself, in a full session.
    pub fn sees_api_key_of(&self, uid: &str) -> bool {
        self.session.is_some() && self.user.uid == uid
    }

    pub fn person(&self) -> Person<'_> {
        Person {
            uid: &self.user.uid,
            role: &self.user.role,
            organization_id: &self.user.organization_id,
        }
    }
}

/// The caller if a credential was sent; a bad credential is still rejected.
pub struct MaybeAuthUser(pub Option<AuthUser>);

/// A caller of the 2FA calls: a full session, or a pending-2FA token of the given kind.
#[derive(Debug, Clone)]
pub struct TwoFactorCaller {
    pub user: UserRow,
    pub kind: TokenKind,
    pub org_requires_2fa: bool,
}

pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

pub fn client_ip(parts: &Parts) -> String {
    parts
        .extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn missing() -> ApiError {
    ApiError::unauthorized("missing_token", "Authorization token is missing")
}

/// Verifies a sign-in bearer token (an access or a pending-2FA token): signature, algorithm,
/// issuer, audience and time; the caller checks which kind it needs.
pub fn claims(state: &AppState, token: &str) -> Result<jwt::Claims, ApiError> {
    state
        .auth
        .tokens
        .decode(token, TokenKind::SIGN_IN)
        .map_err(|e| match e {
            JwtError::Expired => {
                tracing::debug!("rejected: access token expired");
                ApiError::unauthorized("jwt_expired", "jwt expired")
            }
            JwtError::Invalid => {
                tracing::info!("rejected: invalid token");
                ApiError::unauthorized("invalid_token", "Invalid token")
            }
        })
}

/// The user, their organization's 2FA requirement and the session's state, in one query.
async fn load(
    state: &AppState,
    uid: &str,
    sid: &str,
) -> Result<Option<(UserRow, bool, Option<String>, Option<i64>, i64)>, ApiError> {
    let sql = format!(
        "SELECT {}, o.is_2fa_required AS org_2fa, f.id AS family_id, f.revoked_at AS family_revoked, \
         COALESCE(f.expires_at, 0) AS family_expires \
         FROM users u JOIN organizations o ON o.id = u.organization_id \
         LEFT JOIN token_families f ON f.id = $2 AND f.user_uid = u.uid WHERE u.uid = $1",
        db::users::COLUMNS
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(uid)
        .bind(sid)
        .fetch_optional(&state.db)
        .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some((
        UserRow::from_row(&row)?,
        row.try_get::<i64, _>("org_2fa")? != 0,
        row.try_get("family_id")?,
        row.try_get("family_revoked")?,
        row.try_get("family_expires")?,
    )))
}

fn check_active(user: &UserRow) -> Result<(), ApiError> {
    if user.status != "active" {
        tracing::info!(user = %user.uid, "rejected: account inactive");
        return Err(ApiError::forbidden(
            "account_inactive",
            "Your account is inactive",
        ));
    }
    Ok(())
}

async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Option<AuthUser>, ApiError> {
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        let sql = format!(
            "SELECT {}, o.is_2fa_required AS org_2fa FROM users u JOIN organizations o ON o.id = u.organization_id \
             WHERE u.api_key_hash = $1",
            db::users::COLUMNS
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(crypto::sha256_hex(key.trim()))
            .fetch_optional(&state.db)
            .await?;
        let Some(row) = row else {
            tracing::info!("rejected: unknown API key");
            return Err(ApiError::unauthorized("invalid_api_key", "Invalid API key"));
        };
        let user = UserRow::from_row(&row)?;
        check_active(&user)?;
        let org_requires_2fa = row.try_get::<i64, _>("org_2fa")? != 0;
        if org_requires_2fa && !user.has_2fa() {
            tracing::info!(user = %user.uid, "rejected: API key of a user without the 2FA their organization requires");
            return Err(ApiError::forbidden(
                "two_factor_enrollment_required",
                "Your organization requires two-factor authentication: API keys of users without it are refused. Sign in and enable it.",
            ));
        }
        return Ok(Some(AuthUser {
            user,
            session: None,
            org_requires_2fa,
        }));
    }
    let Some(token) = bearer(headers) else {
        return Ok(None);
    };
    let claims = claims(state, token)?;
    if claims.kind != TokenKind::Access {
        tracing::info!(user = %claims.sub, "rejected: pending-2FA token on a full-session route");
        return Err(ApiError::unauthorized(
            "two_factor_required",
            "Two-factor verification is required",
        ));
    }
    let Some((user, org_2fa, family, revoked, expires)) = load(state, &claims.sub, &claims.sid).await? else {
        tracing::info!(user = %claims.sub, "rejected: user no longer exists");
        return Err(ApiError::unauthorized("invalid_token", "Invalid token"));
    };
    if family.is_none() || revoked.is_some() || expires <= db::now() {
        tracing::info!(user = %claims.sub, "rejected: session revoked or expired");
        return Err(ApiError::unauthorized(
            "session_revoked",
            "Session has been revoked. Please sign in again.",
        ));
    }
    check_active(&user)?;
    if org_2fa && !user.has_2fa() {
        tracing::info!(user = %claims.sub, "rejected: organization requires 2FA, user not enrolled");
        return Err(ApiError::forbidden(
            "two_factor_enrollment_required",
            "Your organization requires two-factor authentication. Enable it to continue.",
        ));
    }
    Ok(Some(AuthUser {
        user,
        session: Some(claims.sid),
        org_requires_2fa: org_2fa,
    }))
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate(state, &parts.headers).await? {
            Some(user) => Ok(user),
            None => {
                tracing::debug!(path = %parts.uri.path(), "rejected: no credentials");
                Err(missing())
            }
        }
    }
}

impl FromRequestParts<AppState> for MaybeAuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(authenticate(state, &parts.headers).await?))
    }
}

impl FromRequestParts<AppState> for TwoFactorCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(&parts.headers).ok_or_else(missing)?;
        let claims = claims(state, token)?;
        let Some((user, org_2fa, family, revoked, expires)) = load(state, &claims.sub, &claims.sid).await?
        else {
            tracing::info!(user = %claims.sub, "rejected: user no longer exists");
            return Err(ApiError::unauthorized("invalid_token", "Invalid token"));
        };
        if claims.kind == TokenKind::Access && (family.is_none() || revoked.is_some() || expires <= db::now())
        {
            return Err(ApiError::unauthorized(
                "session_revoked",
                "Session has been revoked. Please sign in again.",
            ));
        }
        check_active(&user)?;
        Ok(Self {
            user,
            kind: claims.kind,
            org_requires_2fa: org_2fa,
        })
    }
}

/// The client address, for throttling and sign-in events.
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(client_ip(parts)))
    }
}
