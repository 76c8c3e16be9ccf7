//! Two-factor authentication: enrolment (and switching it off) and code verification, which
//! completes a sign-in with a full session.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::SessionResponse;
use crate::{
    auth::{
        self, TwoFactorCaller,
        extract::ClientIp,
        jwt::TokenKind,
        throttle::{Guard, Scope},
        totp,
    },
    db::{
        self,
        activity::{self, Activity},
        users,
    },
    domain::{ActivityAction, Role},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    policy::{self, users::Person},
    state::AppState,
    views::UserView,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(enable_2fa))
        .routes(routes!(verify_2fa))
}

const INVALID_CODE: &str = "Invalid 2FA Code";

#[derive(Deserialize, ToSchema)]
pub struct Enable2faRequest {
    /// true: start enrolment (a new secret); false: switch 2FA off.
    pub enabled_2fa: bool,
    /// Switching off: the caller's current password (or send `code`).
    #[serde(default)]
    pub password: Option<String>,
    /// Switching off: a current 2FA code of the caller (or send `password`).
    #[serde(default)]
    pub code: Option<String>,
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
/// requirement gave them); an administrator may switch 2FA off for a user of their organization,
/// which also ends that user's sessions and API key. Switching off needs the caller's current
/// password or a current 2FA code of theirs.
#[utoipa::path(post, path = "/v1/auth/enable2fa/{uid}", tag = "auth", request_body = Enable2faRequest,
    params(("uid" = String, Path, description = "The user")),
    responses(
        (status = 200, body = Enable2faResponse),
        (status = 400, description = "Enter your password or a current 2FA code to switch two-factor authentication off / Current password is incorrect / Invalid 2FA Code", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Your organization requires two-factor authentication", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
        (status = 409, description = "Two-factor authentication is already enabled", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn enable_2fa(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
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
            role: caller.user.role,
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
                            role: t.role,
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
        if target.role == Role::Superadmin && caller.user.role != Role::Superadmin {
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
        let secret = totp::new_secret();
        let uri = totp::otpauth_url(&target.email, &secret)
            .map_err(|e| ApiError::internal(format!("failed to build the otpauth URI: {e}")))?;
        let qr = totp::qr_data_url(&uri)?;
        users::begin_2fa(&state.db, &target.uid, &state.auth.keyring.encrypt(&secret), now).await?;
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
    reauthenticate(&state, &caller.user, &ip, &req).await?;
    users::disable_2fa(&state.db, &target.uid, now).await?;
    if !is_self {
        // An administrator's reset: whoever holds the user's sessions or key starts over.
        auth::revoke_credentials(&state, &target.uid, None, "2FA reset by an administrator").await?;
    }
    Activity::on_user(&caller.user, &target, ActivityAction::TwoFactorDisabled)
        .record(&state.db)
        .await;
    Ok(Json(Enable2faResponse {
        success: true,
        message: "2FA Status Updated Successfully!".into(),
        secret: None,
        secret_2fa_qr: None,
        otpauth_url: None,
    }))
}

/// The caller proves it is them before 2FA goes off: their current password, or a current code
/// of their own 2FA (400 otherwise).
async fn reauthenticate(
    state: &AppState,
    caller: &users::UserRow,
    ip: &str,
    req: &Enable2faRequest,
) -> Result<()> {
    let password = req.password.as_deref().filter(|p| !p.is_empty());
    let code = req.code.as_deref().map(str::trim).filter(|c| !c.is_empty());
    match (password, code) {
        (Some(password), _) => auth::confirm_password(state, caller, ip, password).await,
        (None, Some(code)) => {
            let guard = Guard::new(Scope::Totp, &caller.uid, ip);
            let attempt = guard.reserve(state).await?;
            if !auth::accept_totp(state, caller, code, None).await? {
                attempt.failed();
                return Err(ApiError::bad_request("invalid_2fa_code", INVALID_CODE));
            }
            attempt.succeeded().await
        }
        (None, None) => Err(ApiError::bad_request(
            "reauthentication_required",
            "Enter your password or a current 2FA code to switch two-factor authentication off",
        )),
    }
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
    if user.secret_2fa_enc.is_none() || !user.enabled_2fa {
        return Err(ApiError::bad_request(
            "two_factor_not_enabled",
            "Two-factor authentication is not enabled",
        ));
    }
    let guard = Guard::new(Scope::Totp, &user.uid, &ip);
    let attempt = guard.reserve(&state).await?;
    if !auth::accept_totp(&state, user, code, req.secret.as_deref()).await? {
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
    users::confirm_2fa(&state.db, &user.uid, db::now()).await?;
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
