//! Sign-in, token refresh, logout, password change and two-factor authentication.

use axum::{Json, extract::State, http::HeaderMap};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    app::AppState,
    auth::{
        self, AuthUser, TwoFactorCaller,
        extract::{ClientIp, bearer},
        jwt::TokenKind,
        password,
        throttle::{Guard, Scope},
        totp,
    },
    crypto,
    db::{self, activity, organizations, tokens, users},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    policy::{self, users::Person},
    views::{Done, UserView},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(refresh_token))
        .routes(routes!(logout))
        .routes(routes!(change_password))
        .routes(routes!(enable_2fa))
        .routes(routes!(verify_2fa))
}

pub const MIN_PASSWORD: usize = 6;
pub const PASSWORD_TOO_SHORT: &str = "Password must be at least 6 characters long";
const INVALID_CREDENTIALS: &str = "Invalid email or password";
const INVALID_CODE: &str = "Invalid 2FA Code";

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
    if user.status != "active" {
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
    if user.status != "active" {
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
        let claims = auth::jwt::decode(token, &state.auth.jwt_key, i64::MIN)
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
    let guard = Guard::new(Scope::Password, &caller.user.uid, &ip);
    let attempt = guard.reserve(&state).await?;
    if !password::verify(req.current_password, caller.user.password_hash.clone()).await {
        attempt.failed();
        return Err(ApiError::bad_request(
            "wrong_password",
            "Current password is incorrect",
        ));
    }
    attempt.succeeded().await?;
    let hash = password::hash(req.new_password, state.auth.hash).await?;
    let now = db::now();
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE uid = $3")
        .bind(hash)
        .bind(now)
        .bind(&caller.user.uid)
        .execute(&state.db)
        .await?;
    auth::revoke_credentials(&state, &caller.user.uid, Some(session), "password changed").await?;
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&caller.user.organization_id),
            entity_type: "users",
            entity_id: &caller.user.uid,
            entity_name: &caller.user.email,
            action: "password_changed",
        },
    )
    .await;
    Ok(Done::new("Password Updated"))
}

#[derive(Deserialize, ToSchema)]
pub struct Enable2faRequest {
    /// true: start enrolment (a new secret); false: switch 2FA off.
    pub enabled_2fa: bool,
}

/// Enrolment data: the secret for manual entry, the `otpauth://` URI and its QR image.
#[derive(Serialize, ToSchema)]
pub struct Enable2faResponse {
    pub success: bool,
    pub message: String,
    pub secret: Option<String>,
    /// A `data:image/svg+xml;base64,…` QR image of `otpauth_url`.
    pub secret_2fa_qr: Option<String>,
    pub otpauth_url: Option<String>,
}

/// Turn 2FA on (returns a new secret and QR image; confirmed by a first code at verify2fa) or off.
/// A user enrols themself (with a full session, or the enrolment token their organization's
/// requirement gave them); an administrator may switch 2FA off for a user of their organization.
#[utoipa::path(post, path = "/v1/auth/enable2fa/{uid}", tag = "auth", request_body = Enable2faRequest,
    params(("uid" = String, Path, description = "The user")),
    responses(
        (status = 200, body = Enable2faResponse),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Your organization requires two-factor authentication", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
        (status = 409, description = "Two-factor authentication is already enabled", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn enable_2fa(
    State(state): State<AppState>,
    caller: TwoFactorCaller,
    AppPath(uid): AppPath<String>,
    AppJson(req): AppJson<Enable2faRequest>,
) -> Result<Json<Enable2faResponse>> {
    if caller.kind == TokenKind::TwoFactorVerify {
        return Err(ApiError::unauthorized(
            "two_factor_required",
            "Two-factor verification is required",
        ));
    }
    let is_self = caller.user.uid == uid;
    let target = if is_self {
        caller.user.clone()
    } else {
        let actor = Person {
            uid: &caller.user.uid,
            role: &caller.user.role,
            organization_id: &caller.user.organization_id,
        };
        let target = users::by_uid(&state.db, &uid).await?;
        let target = target
            .filter(|t| {
                caller.kind == TokenKind::Access
                    && policy::users::can_see(
                        actor,
                        Person {
                            uid: &t.uid,
                            role: &t.role,
                            organization_id: &t.organization_id,
                        },
                    )
            })
            .ok_or_else(|| ApiError::not_found("user_not_found", "User not found"))?;
        if req.enabled_2fa || !policy::users::administers(actor, &target.organization_id) {
            return Err(ApiError::forbidden(
                "two_factor_self_only",
                "Only the user can enable two-factor authentication; administrators may only switch it off",
            ));
        }
        if target.role == policy::SUPERADMIN && caller.user.role != policy::SUPERADMIN {
            return Err(ApiError::forbidden(
                "superadmin_target",
                "Only a superadmin can change a superadmin",
            ));
        }
        target
    };
    let now = db::now();
    if req.enabled_2fa {
        if target.has_2fa() {
            return Err(ApiError::conflict(
                "two_factor_already_enabled",
                "Two-factor authentication is already enabled",
            ));
        }
        let secret = totp::base32_encode(&crypto::random_bytes(20));
        let uri = totp::otpauth_uri(&target.email, &secret);
        let qr = totp::qr_data_url(&uri)?;
        sqlx::query(
            "UPDATE users SET enabled_2fa = 1, confirmed_2fa = 0, secret_2fa_enc = $1, last_totp_step = 0, \
             updated_at = $2 WHERE uid = $3",
        )
        .bind(state.auth.keyring.encrypt(&secret))
        .bind(now)
        .bind(&target.uid)
        .execute(&state.db)
        .await?;
        return Ok(Json(Enable2faResponse {
            success: true,
            message: "Scan the QR code, then enter a code to finish".into(),
            secret: Some(secret),
            secret_2fa_qr: Some(qr),
            otpauth_url: Some(uri),
        }));
    }
    if is_self && caller.org_requires_2fa {
        return Err(ApiError::forbidden(
            "two_factor_required_by_organization",
            "Your organization requires two-factor authentication",
        ));
    }
    sqlx::query(
        "UPDATE users SET enabled_2fa = 0, confirmed_2fa = 0, secret_2fa_enc = NULL, updated_at = $1 WHERE uid = $2",
    )
    .bind(now)
    .bind(&target.uid)
    .execute(&state.db)
    .await?;
    if !is_self {
        // An administrator's reset: whoever holds the user's sessions or key starts over.
        auth::revoke_credentials(&state, &target.uid, None, "2FA reset by an administrator").await?;
    }
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&target.organization_id),
            entity_type: "users",
            entity_id: &target.uid,
            entity_name: &target.email,
            action: "2fa_disabled",
        },
    )
    .await;
    Ok(Json(Enable2faResponse {
        success: true,
        message: "2FA Status Updated Successfully!".into(),
        secret: None,
        secret_2fa_qr: None,
        otpauth_url: None,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct Verify2faRequest {
    /// The secret shown at enrolment (optional; when sent it must match).
    #[serde(default)]
    pub secret: Option<String>,
    /// The 6-digit code.
    #[serde(default)]
    pub token: String,
}

/// Check a TOTP code: confirms enrolment and/or completes sign-in with a full session. A code is
/// accepted once; 5 failures within 15 minutes lock 2FA for that user for 15 minutes.
#[utoipa::path(post, path = "/v1/auth/verify2fa", tag = "auth", request_body = Verify2faRequest,
    responses(
        (status = 200, description = "2FA Verified", body = SessionResponse),
        (status = 400, description = "2FA code is required / Two-factor authentication is not enabled", body = ErrorBody),
        (status = 401, description = "Invalid 2FA Code", body = ErrorBody),
        (status = 429, body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn verify_2fa(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    caller: TwoFactorCaller,
    AppJson(req): AppJson<Verify2faRequest>,
) -> Result<Json<SessionResponse>> {
    let code = req.token.trim();
    if code.is_empty() {
        return Err(ApiError::bad_request("code_required", "2FA code is required"));
    }
    let user = &caller.user;
    let Some(sealed) = user.secret_2fa_enc.as_deref().filter(|_| user.enabled_2fa) else {
        return Err(ApiError::bad_request(
            "two_factor_not_enabled",
            "Two-factor authentication is not enabled",
        ));
    };
    let guard = Guard::new(Scope::Totp, &user.uid, &ip);
    let attempt = guard.reserve(&state).await?;
    let secret_b32 = state.auth.keyring.decrypt(sealed)?;
    let secret = totp::base32_decode(&secret_b32)
        .ok_or_else(|| ApiError::internal("stored TOTP secret is not base32"))?;
    let secret_matches = req
        .secret
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .is_none_or(|s| s.eq_ignore_ascii_case(&secret_b32));
    let now = db::now();
    let step = totp::verify(&secret, code, now, user.last_totp_step).filter(|_| secret_matches);
    let accepted = match step {
        Some(step) => users::spend_totp_step(&state.db, &user.uid, step).await?,
        None => false,
    };
    if !accepted {
        attempt.failed();
        activity::record_login(
            &state.db,
            activity::LoginEvent {
                user_uid: Some(&user.uid),
                email: &user.email,
                organization_id: Some(&user.organization_id),
                success: false,
                reason: "bad_2fa_code",
                ip: &ip,
            },
        )
        .await;
        return Err(ApiError::unauthorized("invalid_2fa_code", INVALID_CODE));
    }
    attempt.succeeded().await?;
    sqlx::query("UPDATE users SET confirmed_2fa = 1, updated_at = $1 WHERE uid = $2")
        .bind(now)
        .bind(&user.uid)
        .execute(&state.db)
        .await?;
    let user = users::by_uid(&state.db, &user.uid)
        .await?
        .ok_or_else(|| ApiError::unauthorized("invalid_token", "Invalid token"))?;
    let tokens = auth::start_session(&state, &user.uid).await?;
    activity::record_login(
        &state.db,
        activity::LoginEvent {
            user_uid: Some(&user.uid),
            email: &user.email,
            organization_id: Some(&user.organization_id),
            success: true,
            reason: "2fa",
            ip: &ip,
        },
    )
    .await;
    Ok(Json(SessionResponse {
        success: true,
        message: "2FA Verified".into(),
        token: tokens.token,
        refresh_token: Some(tokens.refresh_token),
        user: UserView::own(&user, caller.org_requires_2fa, &state.auth.keyring)
            .with_photo_url(&state)
            .await,
        verified_2fa: true,
        requires_2fa_enrollment: false,
    }))
}
