//! Users: list, get, create, update, delete; profile photo upload URLs; source-control details;
//! API keys; moving asset ownership between users (`POST /v1/auth/migrateEntityOwner`).

use std::time::Duration;

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::{MIN_PASSWORD, PASSWORD_TOO_SHORT};
use crate::{
    app::AppState,
    auth::{AuthUser, password},
    crypto,
    db::{self, activity, organizations, users},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result, ResultExt as _},
    k8s,
    policy::{
        self,
        users::{Changes, Denied, Person},
    },
    views::{Done, UserView, valid_email},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_users, create_user))
        .routes(routes!(presign_photo_url))
        .routes(routes!(get_user, update_user, delete_user))
        .routes(routes!(create_api_key, revoke_api_key))
        .routes(routes!(update_git_detail))
        .routes(routes!(migrate_entity_owner))
}

pub const DATE_FORMATS: [&str; 5] = ["MM/DD/YY", "DD/MM/YY", "MMMM/DD/YY", "DD/MMMM/YY", "MM/DD/YYYY"];
pub const PHOTO_PREFIX: &str = "user asset images";
const GIT_BOTH: &str = "Please enter both the Git username and the personal access token";

impl From<Denied> for ApiError {
    fn from(d: Denied) -> Self {
        let status = StatusCode::from_u16(d.status()).unwrap_or(StatusCode::FORBIDDEN);
        ApiError::new(status, d.code(), d.to_string())
    }
}

fn person(u: &users::UserRow) -> Person<'_> {
    Person {
        uid: &u.uid,
        role: &u.role,
        organization_id: &u.organization_id,
    }
}

fn user_not_found() -> ApiError {
    ApiError::not_found("user_not_found", "User not found")
}

fn org_not_found() -> ApiError {
    ApiError::not_found("organization_not_found", "Organization not found")
}

/// A user the caller may see (same organization, or a superadmin); 404 otherwise.
async fn visible_user(state: &AppState, caller: &AuthUser, uid: &str) -> Result<users::UserRow> {
    let target = users::by_uid(&state.db, uid).await?.ok_or_else(user_not_found)?;
    if !policy::users::can_see(caller.person(), person(&target)) {
        return Err(user_not_found());
    }
    Ok(target)
}

async fn org_2fa(state: &AppState, org_id: &str) -> Result<bool> {
    Ok(organizations::by_id(&state.db, org_id)
        .await?
        .is_some_and(|o| o.is_2fa_required))
}

/// A user as the caller sees them: their own API key only in their own full session.
async fn view(state: &AppState, caller: &AuthUser, u: &users::UserRow, org_requires_2fa: bool) -> UserView {
    let view = if caller.sees_api_key_of(&u.uid) {
        UserView::own(u, org_requires_2fa, &state.auth.keyring)
    } else {
        UserView::new(u, org_requires_2fa)
    };
    view.with_photo_url(state).await
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// 1-based page (default 1).
    pub page: Option<i64>,
    /// Page size (default 10, at most 100).
    pub limit: Option<i64>,
    /// Organization id (a superadmin may pick any; others only their own).
    pub organization: Option<String>,
    /// Matches first name, last name or e-mail.
    pub search_term: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct UserList {
    pub success: bool,
    pub users: Vec<UserView>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

pub fn paging(page: Option<i64>, limit: Option<i64>, default_limit: i64) -> (i64, i64, i64) {
    let page = page.unwrap_or(1).max(1);
    let limit = limit.unwrap_or(default_limit).clamp(1, 100);
    (page, limit, (page - 1) * limit)
}

/// Users of an organization (the caller's own unless a superadmin picks another or all).
#[utoipa::path(get, path = "/v1/users", tag = "users", params(ListQuery),
    responses((status = 200, body = UserList), (status = 404, description = "Organization not found", body = ErrorBody)),
    security(("bearer" = [])))]
async fn list_users(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ListQuery>,
) -> Result<Json<UserList>> {
    let (page, limit, offset) = paging(q.page, q.limit, 10);
    let org = q.organization.filter(|o| !o.is_empty());
    let org = match org {
        Some(o) if !policy::users::can_see_org(caller.person(), &o) => return Err(org_not_found()),
        Some(o) => Some(o),
        None if caller.user.role == policy::SUPERADMIN => None,
        None => Some(caller.user.organization_id.clone()),
    };
    let search = q.search_term.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let (rows, total) = users::list(&state.db, org.as_deref(), search, limit, offset).await?;
    let mut views = Vec::with_capacity(rows.len());
    for u in &rows {
        let required = org_2fa(&state, &u.organization_id).await?;
        views.push(view(&state, &caller, u, required).await);
    }
    Ok(Json(UserList {
        success: true,
        users: views,
        total,
        page,
        limit,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct UserResponse {
    pub success: bool,
    pub message: String,
    pub user: UserView,
}

/// One user (yourself, or someone of your organization; any user for a superadmin).
#[utoipa::path(get, path = "/v1/users/{id}", tag = "users", params(("id" = String, Path)),
    responses((status = 200, body = UserResponse), (status = 404, description = "User not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
async fn get_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<UserResponse>> {
    let target = if id == caller.user.uid {
        caller.user.clone()
    } else {
        visible_user(&state, &caller, &id).await?
    };
    let required = if target.organization_id == caller.user.organization_id {
        caller.org_requires_2fa
    } else {
        org_2fa(&state, &target.organization_id).await?
    };
    Ok(Json(UserResponse {
        success: true,
        message: String::new(),
        user: view(&state, &caller, &target, required).await,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateUserRequest {
    pub user: NewUserFields,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewUserFields {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    pub role: String,
    pub timezone: String,
    /// Organization id; defaults to the caller's (only a superadmin may name another).
    pub organization: Option<String>,
    pub cluster_id: Option<String>,
    pub date_format: Option<String>,
}

fn required(value: &str, message: &'static str, code: &'static str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(ApiError::bad_request(code, message));
    }
    Ok(())
}

fn check_date_format(f: &str) -> Result<()> {
    if !DATE_FORMATS.contains(&f) {
        return Err(ApiError::bad_request(
            "invalid_date_format",
            format!("Date format must be one of {}", DATE_FORMATS.join(", ")),
        ));
    }
    Ok(())
}

/// Seat check for one more active user in an organization.
async fn check_seat(state: &AppState, org: &organizations::OrganizationRow) -> Result<()> {
    let active = users::count_active(&state.db, &org.id).await?;
    if !policy::users::seat_available(org.max_seats, active) {
        return Err(ApiError::forbidden(
            "seat_limit_reached",
            format!(
                "Limit Reached: {} has {active} active users and {} seats. Remove a user or ask for more seats.",
                org.name, org.max_seats
            ),
        )
        .with("limitExceded", serde_json::Value::Bool(true)));
    }
    Ok(())
}

/// Add a user (administrators to their own organization; superadmins anywhere). Refused with
/// `limitExceded: true` when the organization has no free seat.
#[utoipa::path(post, path = "/v1/users", tag = "users", request_body = CreateUserRequest,
    responses(
        (status = 201, description = "User created successfully!", body = UserResponse),
        (status = 400, description = "A required field is missing or invalid", body = ErrorBody),
        (status = 403, description = "Not allowed, or Limit Reached (`limitExceded: true`)", body = ErrorBody),
        (status = 404, description = "Organization not found", body = ErrorBody),
        (status = 409, description = "A user with this email already exists", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn create_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateUserRequest>,
) -> Result<(StatusCode, Json<UserResponse>)> {
    let u = req.user;
    required(&u.first_name, "First name is required", "first_name_required")?;
    required(&u.last_name, "Last name is required", "last_name_required")?;
    required(&u.email, "Email is required", "email_required")?;
    if !valid_email(&u.email) {
        return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
    }
    required(&u.role, "Role is required", "role_required")?;
    required(&u.timezone, "Timezone is required", "timezone_required")?;
    if u.password.is_empty() {
        return Err(ApiError::bad_request("password_required", "Password is required"));
    }
    if u.password.chars().count() < MIN_PASSWORD {
        return Err(ApiError::bad_request("password_too_short", PASSWORD_TOO_SHORT));
    }
    let date_format = u
        .date_format
        .clone()
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "MM/DD/YY".into());
    check_date_format(&date_format)?;
    let org_id = u
        .organization
        .clone()
        .filter(|o| !o.is_empty())
        .unwrap_or_else(|| caller.user.organization_id.clone());
    policy::users::check_create(caller.person(), u.role.trim(), &org_id)?;
    let org = organizations::by_id(&state.db, &org_id)
        .await?
        .ok_or_else(org_not_found)?;
    check_seat(&state, &org).await?;
    let hash = password::hash(u.password.clone(), state.auth.hash).await?;
    let uid = db::new_id();
    users::insert(
        &state.db,
        &users::NewUser {
            uid: &uid,
            email: u.email.trim(),
            password_hash: &hash,
            first_name: u.first_name.trim(),
            last_name: u.last_name.trim(),
            role: u.role.trim(),
            organization_id: &org.id,
            cluster_id: u.cluster_id.as_deref().filter(|c| !c.is_empty()),
            timezone: u.timezone.trim(),
            date_format: &date_format,
        },
        db::now(),
    )
    .await
    .on_unique("users_email_key", || {
        ApiError::conflict("email_taken", "A user with this email already exists")
    })?;
    let created = users::by_uid(&state.db, &uid).await?.ok_or_else(user_not_found)?;
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&org.id),
            entity_type: "users",
            entity_id: &uid,
            entity_name: &created.email,
            action: "created",
        },
    )
    .await;
    Ok((
        StatusCode::CREATED,
        Json(UserResponse {
            success: true,
            message: "User created successfully!".into(),
            user: view(&state, &caller, &created, org.is_2fa_required).await,
        }),
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateUserRequest {
    pub user: UserChanges,
}

/// Fields a user update may carry. Fields a caller may not change are refused when their value
/// differs from the stored one; 2FA, API key and other fields are not accepted here at all.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct UserChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub timezone: Option<String>,
    pub date_format: Option<String>,
    /// An object key returned by `GET /v1/users/presign_url`.
    pub photo_path: Option<String>,
    pub git_username: Option<String>,
    pub git_token: Option<String>,
    /// Administrators only.
    pub email: Option<String>,
    /// Administrators only (superadmin only for `superadmin`).
    pub role: Option<String>,
    /// active or inactive; administrators only.
    pub status: Option<String>,
    /// Superadmins only.
    pub organization: Option<String>,
    pub cluster_id: Option<String>,
    /// A blank password is ignored; otherwise see the password rule.
    pub password: Option<String>,
}

fn changed<'a>(new: &'a Option<String>, old: &str) -> Option<&'a str> {
    new.as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != old)
}

/// Both source-control fields or neither; returns the pair to store.
fn git_pair(username: Option<&str>, token: Option<&str>) -> Result<Option<(String, String)>> {
    let username = username.map(str::trim).unwrap_or_default();
    let token = token.map(str::trim).unwrap_or_default();
    match (username.is_empty(), token.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Ok(Some((username.to_owned(), token.to_owned()))),
        _ => Err(ApiError::bad_request("git_details_incomplete", GIT_BOTH)),
    }
}

/// Update a user: one's own profile (names, time zone, date format, photo, source control), or,
/// for administrators, their organization's users (also e-mail, role, status, password).
#[utoipa::path(put, path = "/v1/users/{id}", tag = "users", params(("id" = String, Path)), request_body = UpdateUserRequest,
    responses(
        (status = 200, description = "User Updated successfully! / Profile updated successfully!", body = UserResponse),
        (status = 400, body = ErrorBody),
        (status = 403, description = "A change the caller may not make", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
        (status = 409, description = "A user with this email already exists", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn update_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateUserRequest>,
) -> Result<Json<UserResponse>> {
    let c = req.user;
    let target = visible_user(&state, &caller, &id).await?;
    let new_password = c.password.as_deref().filter(|p| !p.is_empty());
    let email = changed(&c.email, &target.email).map(str::to_lowercase);
    let changes = Changes {
        role: changed(&c.role, &target.role),
        organization_id: changed(&c.organization, &target.organization_id),
        status: changed(&c.status, &target.status),
        email: email.is_some(),
        password: new_password.is_some(),
    };
    policy::users::check_update(caller.person(), person(&target), changes)?;

    for (value, message, code) in [
        (&c.first_name, "First name is required", "first_name_required"),
        (&c.last_name, "Last name is required", "last_name_required"),
        (&c.timezone, "Timezone is required", "timezone_required"),
    ] {
        if let Some(v) = value {
            required(v, message, code)?;
        }
    }
    if let Some(e) = &email
        && !valid_email(e)
    {
        return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
    }
    if let Some(f) = c.date_format.as_deref().filter(|f| !f.is_empty()) {
        check_date_format(f)?;
    }
    if let Some(p) = new_password
        && p.chars().count() < MIN_PASSWORD
    {
        return Err(ApiError::bad_request("password_too_short", PASSWORD_TOO_SHORT));
    }
    let photo = c.photo_path.as_deref().map(str::trim).filter(|p| !p.is_empty());
    if let Some(p) = photo
        && (!p.starts_with(&format!("{PHOTO_PREFIX}/{}/", target.uid)) || p.contains(".."))
    {
        return Err(ApiError::bad_request("invalid_photo_path", "Invalid photo path"));
    }
    let git = if c.git_username.is_some() || c.git_token.is_some() {
        if caller.user.uid != target.uid {
            return Err(ApiError::forbidden(
                "git_details_self_only",
                "Only the user can change their source-control details",
            ));
        }
        Some(git_pair(c.git_username.as_deref(), c.git_token.as_deref())?)
    } else {
        None
    };
    let mut destination = None;
    if let Some(org_id) = changes.organization_id {
        let org = organizations::by_id(&state.db, org_id)
            .await?
            .ok_or_else(org_not_found)?;
        if target.status == "active" {
            check_seat(&state, &org).await?;
        }
        destination = Some(org.id);
    }
    if changes.status == Some("active") {
        let org = organizations::by_id(&state.db, &target.organization_id)
            .await?
            .ok_or_else(org_not_found)?;
        check_seat(&state, &org).await?;
    }
    let password_hash = match new_password {
        Some(p) => Some(password::hash(p.to_owned(), state.auth.hash).await?),
        None => None,
    };

    let now = db::now();
    let pick = |new: &Option<String>, old: &str| {
        new.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .unwrap_or(old)
            .to_owned()
    };
    let (git_username, git_token_enc) = match git {
        Some(Some((u, t))) => (Some(u), Some(state.auth.keyring.encrypt(&t))),
        Some(None) => (None, None),
        None => (target.git_username.clone(), target.git_token_enc.clone()),
    };
    sqlx::query(
        "UPDATE users SET first_name = $1, last_name = $2, timezone = $3, date_format = $4, photo_path = $5, \
         git_username = $6, git_token_enc = $7, email = $8, role = $9, status = $10, organization_id = $11, \
         cluster_id = $12, password_hash = $13, updated_at = $14 WHERE uid = $15",
    )
    .bind(pick(&c.first_name, &target.first_name))
    .bind(pick(&c.last_name, &target.last_name))
    .bind(pick(&c.timezone, &target.timezone))
    .bind(pick(&c.date_format, &target.date_format))
    .bind(photo.map(str::to_owned).or(target.photo_path.clone()))
    .bind(git_username)
    .bind(git_token_enc)
    .bind(email.unwrap_or(target.email.clone()))
    .bind(changes.role.unwrap_or(&target.role))
    .bind(changes.status.unwrap_or(&target.status))
    .bind(destination.unwrap_or(target.organization_id.clone()))
    .bind(
        c.cluster_id
            .as_deref()
            .map(|v| v.trim().to_owned())
            .or(target.cluster_id.clone())
            .filter(|v| !v.is_empty()),
    )
    .bind(password_hash.unwrap_or(target.password_hash.clone()))
    .bind(now)
    .bind(&target.uid)
    .execute(&state.db)
    .await
    .on_unique("users_email_key", || {
        ApiError::conflict("email_taken", "A user with this email already exists")
    })?;
    if changes.password || changes.organization_id.is_some() || changes.status == Some("inactive") {
        crate::auth::revoke_credentials(&state, &target.uid, None, "changed by an administrator").await?;
    }
    let updated = users::by_uid(&state.db, &target.uid)
        .await?
        .ok_or_else(user_not_found)?;
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&updated.organization_id),
            entity_type: "users",
            entity_id: &updated.uid,
            entity_name: &updated.email,
            action: "updated",
        },
    )
    .await;
    let required = org_2fa(&state, &updated.organization_id).await?;
    let message = if caller.user.uid == target.uid {
        "Profile updated successfully!"
    } else {
        "User Updated successfully!"
    };
    Ok(Json(UserResponse {
        success: true,
        message: message.into(),
        user: view(&state, &caller, &updated, required).await,
    }))
}

/// Delete a user (administrators in their organization; superadmins anywhere; not oneself).
#[utoipa::path(delete, path = "/v1/users/{id}", tag = "users", params(("id" = String, Path)),
    responses(
        (status = 200, description = "User Deleted", body = Done),
        (status = 403, body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn delete_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let target = visible_user(&state, &caller, &id).await?;
    policy::users::check_delete(caller.person(), person(&target))?;
    users::delete(&state.db, &target.uid).await?;
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&target.organization_id),
            entity_type: "users",
            entity_id: &target.uid,
            entity_name: &target.email,
            action: "deleted",
        },
    )
    .await;
    Ok(Done::new("User Deleted"))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PresignQuery {
    /// Informational (the key is derived from the caller's uid).
    #[allow(dead_code)]
    pub user_name: Option<String>,
    /// `.png`, `.jpg` or `.jpeg`.
    pub ext: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PresignedPhoto {
    /// PUT the image here within 15 minutes.
    pub presigned_url: String,
    /// Save this as `photo_path` with `PUT /v1/users/{id}`.
    pub photo_path: String,
}

#[derive(Serialize, ToSchema)]
pub struct PresignResponse {
    pub success: bool,
    pub urls: Vec<PresignedPhoto>,
}

/// A presigned PUT address for a new profile photo (png, jpg or jpeg), valid 15 minutes, bound
/// to one key under `user asset images/<uid>/`.
#[utoipa::path(get, path = "/v1/users/presign_url", tag = "users", params(PresignQuery),
    responses(
        (status = 200, body = PresignResponse),
        (status = 400, description = "Only png, jpg and jpeg images are allowed", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn presign_photo_url(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<PresignQuery>,
) -> Result<Json<PresignResponse>> {
    let ext = q
        .ext
        .unwrap_or_default()
        .trim()
        .trim_start_matches('.')
        .to_lowercase();
    if !["png", "jpg", "jpeg"].contains(&ext.as_str()) {
        return Err(ApiError::bad_request(
            "invalid_image_type",
            "Only png, jpg and jpeg images are allowed",
        ));
    }
    let s3 = state
        .s3
        .as_ref()
        .ok_or_else(|| ApiError::unavailable("storage_not_configured", "Object storage is not configured"))?;
    let key = format!("{PHOTO_PREFIX}/{}/{}.{ext}", caller.user.uid, db::new_id());
    let config = aws_sdk_s3::presigning::PresigningConfig::expires_in(Duration::from_secs(15 * 60))
        .map_err(|e| ApiError::internal(format!("presigning config: {e}")))?;
    let presigned = s3
        .put_object()
        .bucket(&state.settings.s3_bucket)
        .key(&key)
        .presigned(config)
        .await
        .map_err(|e| ApiError::internal(format!("failed to presign a photo upload: {e}")))?;
    Ok(Json(PresignResponse {
        success: true,
        urls: vec![PresignedPhoto {
            presigned_url: presigned.uri().to_owned(),
            photo_path: key,
        }],
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct GitDetailRequest {
    pub git_username: Option<String>,
    pub git_token: Option<String>,
}

/// Save (both) or clear (neither) one's source-control username and token; the token is
/// encrypted at rest and never returned.
#[utoipa::path(put, path = "/v1/git_detail", tag = "users", request_body = GitDetailRequest,
    responses(
        (status = 200, description = "Profile updated successfully!", body = Done),
        (status = 400, description = "Please enter both the Git username and the personal access token", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn update_git_detail(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<GitDetailRequest>,
) -> Result<Json<Done>> {
    let pair = git_pair(req.git_username.as_deref(), req.git_token.as_deref())?;
    let (username, token) = match pair {
        Some((u, t)) => (Some(u), Some(state.auth.keyring.encrypt(&t))),
        None => (None, None),
    };
    sqlx::query("UPDATE users SET git_username = $1, git_token_enc = $2, updated_at = $3 WHERE uid = $4")
        .bind(username)
        .bind(token)
        .bind(db::now())
        .bind(&caller.user.uid)
        .execute(&state.db)
        .await?;
    Ok(Done::new("Profile updated successfully!"))
}

#[derive(Serialize, ToSchema)]
pub struct ApiKeyResponse {
    pub success: bool,
    pub message: String,
    /// Send as the `x-api-key` header.
    pub api_key: String,
}

/// Create or rotate one's API key (the old one stops working). Only in a full session (signed in
/// with the password, and the 2FA code where enabled), never with an API key.
#[utoipa::path(post, path = "/v1/users/{id}/api_key", tag = "users", params(("id" = String, Path)),
    responses(
        (status = 200, body = ApiKeyResponse),
        (status = 403, description = "Only the user can create their API key / This needs a signed-in session: an API key is not enough", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn create_api_key(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<ApiKeyResponse>> {
    if id != caller.user.uid {
        // Keys are personal: other users' keys cannot be read or made.
        visible_user(&state, &caller, &id).await?;
        return Err(ApiError::forbidden(
            "api_key_self_only",
            "Only the user can create their API key",
        ));
    }
    caller.require_session()?;
    let key = format!("ludis_{}", crypto::random_token(32));
    sqlx::query("UPDATE users SET api_key_enc = $1, api_key_hash = $2, updated_at = $3 WHERE uid = $4")
        .bind(state.auth.keyring.encrypt(&key))
        .bind(crypto::sha256_hex(&key))
        .bind(db::now())
        .bind(&caller.user.uid)
        .execute(&state.db)
        .await?;
    Ok(Json(ApiKeyResponse {
        success: true,
        message: "API key created".into(),
        api_key: key,
    }))
}

/// Revoke a user's API key (the user, or an administrator of their organization).
#[utoipa::path(delete, path = "/v1/users/{id}/api_key", tag = "users", params(("id" = String, Path)),
    responses((status = 200, description = "API key revoked", body = Done), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn revoke_api_key(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let target = visible_user(&state, &caller, &id).await?;
    if target.uid != caller.user.uid {
        policy::users::check_update(caller.person(), person(&target), Changes::default())?;
    }
    users::clear_api_key(&state.db, &target.uid, db::now()).await?;
    Ok(Done::new("API key revoked"))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct MigrateRequest {
    /// insight (or application), project, workflow or dataset.
    pub entity_type: String,
    pub source_user_id: String,
    pub destination_user_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct MigrateResponse {
    pub success: bool,
    pub message: String,
    /// How many assets changed owner.
    pub migrated: usize,
}

/// Move the ownership of every asset of a kind from one user to another of the same
/// organization (administrators of that organization, or superadmins:
/// `policy::sharing::may_move_ownership`): the owner annotation of their resources when a
/// cluster is configured, and the owner in the database.
#[utoipa::path(post, path = "/v1/auth/migrateEntityOwner", tag = "users", request_body = MigrateRequest,
    responses(
        (status = 200, body = MigrateResponse),
        (status = 400, description = "Please fill in all fields / Unknown entity type", body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn migrate_entity_owner(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<MigrateRequest>,
) -> Result<Json<MigrateResponse>> {
    if [&req.entity_type, &req.source_user_id, &req.destination_user_id]
        .iter()
        .any(|v| v.trim().is_empty())
    {
        return Err(ApiError::bad_request(
            "fields_required",
            "Please fill in all fields",
        ));
    }
    let kind = k8s::AssetKind::parse(&req.entity_type).ok_or_else(|| {
        ApiError::bad_request(
            "unknown_entity_type",
            format!("Unknown entity type: {}", req.entity_type),
        )
    })?;
    let source = visible_user(&state, &caller, req.source_user_id.trim()).await?;
    let destination = visible_user(&state, &caller, req.destination_user_id.trim()).await?;
    let assets_of_source = policy::sharing::Asset {
        owner_uid: &source.uid,
        organization_id: &source.organization_id,
    };
    let mover = policy::sharing::Caller {
        uid: &caller.user.uid,
        organization_id: &caller.user.organization_id,
        role: &caller.user.role,
    };
    if !policy::sharing::may_move_ownership(mover, assets_of_source) {
        return Err(Denied::NotAdmin.into());
    }
    if source.organization_id != destination.organization_id {
        return Err(ApiError::bad_request(
            "different_organizations",
            "Source and destination users must belong to the same organization",
        ));
    }
    let org = organizations::by_id(&state.db, &source.organization_id)
        .await?
        .ok_or_else(org_not_found)?;
    // The resources first (a failure leaves the database as it was), then the rows.
    let mut migrated = 0;
    if let Some(client) = state.kube.as_ref() {
        let namespace = ludis_crds::organization_namespace(&org.slug);
        migrated = k8s::migrate_owner(client, &namespace, kind, &source.uid, &destination.uid)
            .await
            .map_err(|e| ApiError::Internal(e.context("failed to migrate asset owners")))?;
    }
    let rows = db::assets::move_owner(
        &state.db,
        match kind {
            k8s::AssetKind::Insight => db::assets::KIND_APPLICATION,
            k8s::AssetKind::Project => db::assets::KIND_PROJECT,
            k8s::AssetKind::Workflow => db::assets::KIND_WORKFLOW,
            k8s::AssetKind::Dataset => db::assets::KIND_DATASET,
        },
        &org.id,
        &source.uid,
        &destination.uid,
        db::now(),
    )
    .await?;
    let migrated = migrated.max(usize::try_from(rows).unwrap_or(usize::MAX));
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&org.id),
            entity_type: kind.metrics_entity(),
            entity_id: &source.uid,
            entity_name: &format!("{} -> {}", source.email, destination.email),
            action: "owner_migrated",
        },
    )
    .await;
    Ok(Json(MigrateResponse {
        success: true,
        message: "Entities migrated successfully".into(),
        migrated,
    }))
}
