//! Extractors: [`AuthUser`] (a full session or an API key), [`MaybeAuthUser`] (the same, or
//! nobody) and [`TwoFactorCaller`] (a full session or a pending-2FA token, for the 2FA calls).
//! Each logs why it rejected.

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, header, request::Parts},
};

use super::jwt::{self, JwtError, TokenKind};
use crate::{
    crypto,
    db::{
        self,
        users::{Caller, UserRow},
    },
    error::ApiError,
    policy::users::Person,
    state::AppState,
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
            role: self.user.role,
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

/// The client's address of a request ([`super::client_address`]).
pub fn client_ip(parts: &Parts, trusted: &crate::networks::Networks) -> String {
    parts
        .extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| super::client_address::client_address(c.0.ip(), &parts.headers, trusted).to_string())
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

/// The user, their organization's 2FA requirement and the session's state, in one query; whether
/// the session is live (exists, is the user's, not revoked, not expired).
async fn load(state: &AppState, uid: &str, sid: &str) -> Result<Option<(Caller, bool)>, ApiError> {
    Ok(db::users::with_session(&state.db, uid, sid)
        .await?
        .map(|(caller, s)| (caller, s.exists && !s.revoked && s.expires_at > db::now())))
}

fn check_active(user: &UserRow) -> Result<(), ApiError> {
    if !user.is_active() {
        tracing::info!(user = %user.uid, "rejected: account inactive");
        return Err(ApiError::forbidden(
            "account_inactive",
            "Your account is inactive",
        ));
    }
    Ok(())
}

pub(crate) async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<AuthUser>, ApiError> {
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        let found = db::users::by_api_key_hash(&state.db, &crypto::sha256_hex(key.trim())).await?;
        let Some(Caller {
            user,
            org_requires_2fa,
        }) = found
        else {
            tracing::info!("rejected: unknown API key");
            return Err(ApiError::unauthorized("invalid_api_key", "Invalid API key"));
        };
        check_active(&user)?;
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
    let Some((
        Caller {
            user,
            org_requires_2fa: org_2fa,
        },
        live,
    )) = load(state, &claims.sub, &claims.sid).await?
    else {
        tracing::info!(user = %claims.sub, "rejected: user no longer exists");
        return Err(ApiError::unauthorized("invalid_token", "Invalid token"));
    };
    if !live {
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

/// A caller already authenticated for this request (by the flighting gate), kept in its
/// extensions so the route's extractor does not look the credential up again.
#[derive(Clone)]
struct Authenticated(AuthUser);

/// The request's caller: the one already authenticated for it, else from its credential (and
/// then kept for the next extractor).
async fn authenticate_request(parts: &mut Parts, state: &AppState) -> Result<Option<AuthUser>, ApiError> {
    if let Some(Authenticated(user)) = parts.extensions.get::<Authenticated>() {
        return Ok(Some(user.clone()));
    }
    let caller = authenticate(state, &parts.headers).await?;
    if let Some(user) = &caller {
        parts.extensions.insert(Authenticated(user.clone()));
    }
    Ok(caller)
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate_request(parts, state).await? {
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
        Ok(Self(authenticate_request(parts, state).await?))
    }
}

impl FromRequestParts<AppState> for TwoFactorCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(&parts.headers).ok_or_else(missing)?;
        let claims = claims(state, token)?;
        let Some((
            Caller {
                user,
                org_requires_2fa: org_2fa,
            },
            live,
        )) = load(state, &claims.sub, &claims.sid).await?
        else {
            tracing::info!(user = %claims.sub, "rejected: user no longer exists");
            return Err(ApiError::unauthorized("invalid_token", "Invalid token"));
        };
        if claims.kind == TokenKind::Access && !live {
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

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(client_ip(parts, &state.settings.trusted_proxies)))
    }
}
