//! Sign-in, token refresh, logout and password change (two-factor authentication is in
//! [`super::two_factor`]).

use axum::{Json, extract::State, http::HeaderMap};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::{
        self, AuthUser,
        extract::{ClientIp, bearer},
        jwt::TokenKind,
        password,
        throttle::{Guard, Scope},
    },
    crypto,
    db::{
        self,
        activity::{self, Activity},
        organizations, tokens, users,
    },
    domain::ActivityAction,
    error::{ApiError, AppJson, ErrorBody, Result},
    state::AppState,
    views::{Done, UserView},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(refresh_token))
        .routes(routes!(logout))
        .routes(routes!(change_password))
}

pub const MIN_PASSWORD: usize = 6;
pub const PASSWORD_TOO_SHORT: &str = "Password must be at least 6 characters long";
const INVALID_CREDENTIALS: &str = "Invalid email or password";

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub user: Credentials,
}

#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
}

/// A sign-in answer. When `verified_2fa` is false the `token` is a pending-2FA token that opens
/// only the 2FA calls: verify (user has 2FA) or enable + verify (organization requires 2FA and the
/// user has none yet, `requires_2fa_enrollment`).
#[derive(Serialize, ToSchema)]
pub struct SessionResponse {
    pub success: bool,
    pub message: String,
    pub token: String,
    pub refresh_token: Option<String>,
    pub user: UserView,
    pub verified_2fa: bool,
    pub requires_2fa_enrollment: bool,
}

/// A dummy hash so unknown e-mails cost as much time as wrong passwords.
fn dummy_hash(state: &AppState) -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| password::hash_blocking("not a password", state.auth.hash).unwrap_or_default())
        .clone()
}

/// Sign in with e-mail and password.
#[utoipa::path(post, path = "/v1/auth/login", tag = "auth", request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in, or a pending-2FA token", body = SessionResponse),
        (status = 400, description = "Email and password are required", body = ErrorBody),
        (status = 401, description = "Invalid email or password", body = ErrorBody),
        (status = 403, description = "Your account is inactive", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    ))]
async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(req): AppJson<LoginRequest>,
) -> Result<Json<SessionResponse>> {
    let email = req.user.email.trim().to_lowercase();
    if email.is_empty() || req.user.password.is_empty() {
        return Err(ApiError::bad_request(
            "credentials_required",
            "Email and password are required",
        ));
    }
    let guard = Guard::new(Scope::Login, &email, &ip);
    fn event<'a>(
        user: Option<&'a users::UserRow>,
        email: &'a str,
        ip: &'a str,
        success: bool,
        reason: &'a str,
    ) -> activity::LoginEvent<'a> {
        activity::LoginEvent {
            user_uid: user.map(|u| u.uid.as_str()),
            email,
            organization_id: user.map(|u| u.organization_id.as_str()),
            success,
            reason,
            ip,
        }
    }
    let attempt = match guard.reserve(&state).await {
        Ok(attempt) => attempt,
        Err(e) => {
            activity::record_login(&state.db, event(None, &email, &ip, false, "throttled")).await;
            return Err(e);
        }
    };
    let user = users::by_email(&state.db, &email).await?;
    let hash = user
        .as_ref()
        .map(|u| u.password_hash.clone())
        .unwrap_or_else(|| dummy_hash(&state));
    let ok = password::verify(req.user.password.clone(), hash).await && user.is_some();
    let Some(user) = user.filter(|_| ok) else {
        attempt.failed();
        let known = users::by_email(&state.db, &email).await?;
        activity::record_login(
            &state.db,
            event(known.as_ref(), &email, &ip, false, "bad_credentials"),
        )
        .await;
        return Err(ApiError::unauthorized("invalid_credentials", INVALID_CREDENTIALS));
    };
    attempt.succeeded().await?;
    if !user.is_active() {
        activity::record_login(&state.db, event(Some(&user), &email, &ip, false, "inactive")).await;
        return Err(ApiError::forbidden(
            "account_inactive",
            "Your account is inactive",
        ));
    }
    let org = organizations::by_id(&state.db, &user.organization_id)
        .await?
        .ok_or_else(|| ApiError::internal("user without organization"))?;
    // Until the second factor is in, the answer carries no secret (no API key).
    let pending_view = || async {
        UserView::new(&user, org.is_2fa_required)
            .with_photo_url(&state)
            .await
    };
    if user.has_2fa() {
        return Ok(Json(SessionResponse {
            success: true,
            message: "Enter your 2FA code".into(),
            token: auth::pending_token(&state, &user.uid, TokenKind::TwoFactorVerify),
            refresh_token: None,
            user: pending_view().await,
            verified_2fa: false,
            requires_2fa_enrollment: false,
        }));
    }
    if org.is_2fa_required {
        return Ok(Json(SessionResponse {
            success: true,
            message: "Your organization requires two-factor authentication. Enable it to continue.".into(),
            token: auth::pending_token(&state, &user.uid, TokenKind::TwoFactorEnroll),
            refresh_token: None,
            user: pending_view().await,
            verified_2fa: false,
            requires_2fa_enrollment: true,
        }));
    }
    let tokens = auth::start_session(&state, &user.uid).await?;
    activity::record_login(&state.db, event(Some(&user), &email, &ip, true, "password")).await;
    Ok(Json(SessionResponse {
        success: true,
        message: "Signed in successfully!".into(),
        token: tokens.token,
        refresh_token: Some(tokens.refresh_token),
        user: UserView::own(&user, org.is_2fa_required, &state.auth.keyring)
            .with_photo_url(&state)
            .await,
        verified_2fa: true,
        requires_2fa_enrollment: false,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct RefreshRequest {
    pub refresh_token: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct TokenPair {
    pub success: bool,
    pub token: String,
    pub refresh_token: String,
}

/// The refresh token from the `refresh_token` or `x-refresh-token` header, `Authorization:
/// Bearer`, or the JSON body.
fn refresh_from(headers: &HeaderMap, body: Option<&RefreshRequest>) -> Option<String> {
    ["refresh_token", "x-refresh-token", "refreshtoken"]
        .iter()
        .find_map(|h| headers.get(*h).and_then(|v| v.to_str().ok()))
        .map(str::to_owned)
        .or_else(|| body.and_then(|b| b.refresh_token.clone()))
        .or_else(|| {
            bearer(headers)
                .filter(|t| t.matches('.').count() != 2)
                .map(str::to_owned)
        })
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}

fn optional_body(body: &axum::body::Bytes) -> Result<Option<RefreshRequest>> {
    if body.is_empty() {
        return Ok(None);
    }
    serde_json::from_slice(body)
        .map(Some)
        .map_err(|e| ApiError::bad_request("invalid_body", format!("Invalid request body: {e}")))
}

/// Exchange a refresh token for a new access token and a new refresh token (the old one is
/// spent; presenting it again revokes the session).
#[utoipa::path(post, path = "/v1/auth/refreshtoken", tag = "auth",
    request_body(content = RefreshRequest, description = "Or send the token in the `refresh_token` header"),
    params(("refresh_token" = Option<String>, Header, description = "The refresh token")),
    responses(
        (status = 200, body = TokenPair),
        (status = 401, description = "Invalid, expired, reused or revoked refresh token", body = ErrorBody),
    ))]
async fn refresh_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<TokenPair>> {
    let body = optional_body(&body)?;
    let token = refresh_from(&headers, body.as_ref())
        .ok_or_else(|| ApiError::unauthorized("missing_refresh_token", "Refresh token is missing"))?;
    let (uid, tokens) = auth::rotate(&state, &token).await?;
    // The user must still be allowed in.
    let user = users::by_uid(&state.db, &uid).await?;
    let org = match &user {
        Some(u) => organizations::by_id(&state.db, &u.organization_id).await?,
        None => None,
    };
    let (Some(user), Some(org)) = (user, org) else {
        return Err(ApiError::unauthorized(
            "invalid_refresh_token",
            "Invalid refresh token",
        ));
    };
    if !user.is_active() {
        return Err(ApiError::forbidden(
            "account_inactive",
            "Your account is inactive",
        ));
    }
    if org.is_2fa_required && !user.has_2fa() {
        return Err(ApiError::unauthorized(
            "two_factor_enrollment_required",
            "Your organization requires two-factor authentication. Please sign in again to enable it.",
        ));
    }
    Ok(Json(TokenPair {
        success: true,
        token: tokens.token,
        refresh_token: tokens.refresh_token,
    }))
}

/// Sign out: revokes the session of the access token and/or of the refresh token sent.
#[utoipa::path(post, path = "/v1/auth/logout", tag = "auth",
    request_body(content = RefreshRequest, description = "Optional"),
    responses((status = 200, body = Done), (status = 401, body = ErrorBody)),
    security(("bearer" = [])))]
async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Done>> {
    let body = optional_body(&body)?;
    let now = db::now();
    let mut revoked = false;
    // An access token, even an expired one, names its session once its signature checks out.
    if let Some(token) = bearer(&headers).filter(|t| t.matches('.').count() == 2) {
        let claims: auth::jwt::Claims = state
            .auth
            .tokens
            .decode_expired(token, TokenKind::SIGN_IN)
            .map_err(|_| ApiError::unauthorized("invalid_token", "Invalid token"))?;
        if !claims.sid.is_empty() {
            tokens::revoke_family(&state.db, &claims.sid, now, "logout").await?;
            revoked = true;
        }
    }
    if let Some(refresh) = refresh_from(&headers, body.as_ref()).filter(|t| t.matches('.').count() != 2)
        && let Some(row) = tokens::find_refresh(&state.db, &crypto::sha256_hex(&refresh)).await?
    {
        tokens::revoke_family(&state.db, &row.family_id, now, "logout").await?;
        revoked = true;
    }
    if !revoked {
        return Err(ApiError::unauthorized(
            "missing_token",
            "Authorization token is missing",
        ));
    }
    Ok(Done::new("Signed out"))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub new_password: String,
    #[serde(default)]
    pub confirm_password: String,
}

/// Change one's own password (in a signed-in session, not with an API key); other sessions and
/// the API key are revoked.
#[utoipa::path(put, path = "/v1/auth/changepassword", tag = "auth", request_body = ChangePasswordRequest,
    responses(
        (status = 200, description = "Password Updated", body = Done),
        (status = 400, description = "All password fields are required / Password must be at least 6 characters long / New password and confirm password do not match / Current password is incorrect", body = ErrorBody),
        (status = 429, body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    caller: AuthUser,
    AppJson(req): AppJson<ChangePasswordRequest>,
) -> Result<Json<Done>> {
    let session = caller.require_session()?;
    if req.current_password.is_empty() || req.new_password.is_empty() || req.confirm_password.is_empty() {
        return Err(ApiError::bad_request(
            "password_fields_required",
            "All password fields are required",
        ));
    }
    if req.new_password.chars().count() < MIN_PASSWORD {
        return Err(ApiError::bad_request("password_too_short", PASSWORD_TOO_SHORT));
    }
    if req.new_password != req.confirm_password {
        return Err(ApiError::bad_request(
            "password_mismatch",
            "New password and confirm password do not match",
        ));
    }
    auth::confirm_password(&state, &caller.user, &ip, &req.current_password).await?;
    let hash = password::hash(req.new_password, state.auth.hash).await?;
    let now = db::now();
    db::users::set_password_hash(&state.db, &caller.user.uid, &hash, now).await?;
    auth::revoke_credentials(&state, &caller.user.uid, Some(session), "password changed").await?;
    Activity::on_user(&caller.user, &caller.user, ActivityAction::PasswordChanged)
        .record(&state.db)
        .await;
    Ok(Done::new("Password Updated"))
}
