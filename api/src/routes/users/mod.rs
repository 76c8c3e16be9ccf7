//! Users: list, get, create, update, delete; profile photo upload URLs; source-control details;
//! API keys; moving asset ownership between users (`POST /v1/auth/migrateEntityOwner`).

use std::time::Duration;

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::{MIN_PASSWORD, PASSWORD_TOO_SHORT};
use crate::{
    auth::{AuthUser, password},
    cluster, crypto,
    db::{self, activity::Activity, organizations, users},
    domain::{ActivityAction, AssetKind, Role, UserStatus},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result, ResultExt as _},
    policy::{
        self,
        users::{Changes, Denied, Person},
    },
    state::AppState,
    views::{Done, UserView, valid_email},
};

mod create;
mod ownership;
mod profile;
mod update;

use create::*;
use ownership::*;
use profile::*;
use update::*;

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
        role: u.role,
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
        None if caller.user.role == Role::Superadmin => None,
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
