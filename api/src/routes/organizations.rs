//! Organizations: list, get, create (with its namespace `ludis-<slug>` and default flighting),
//! update, delete (refused while it owns users or assets), seats, buckets, the 2FA requirement
//! and active-user counts.

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::users::paging;
use crate::{
    auth::AuthUser,
    cluster::{self, quota::QuotaLine},
    db::{self, activity::Activity, flighting, organizations, users},
    domain::{ActivityAction, Figure, Role},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result, ResultExt as _},
    policy::{self, flags::FlagChange},
    state::AppState,
    views::{Done, OrganizationView, valid_email},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_organizations))
        .routes(routes!(active_user_counts))
        .routes(routes!(list_buckets))
        .routes(routes!(get_bucket))
        .routes(routes!(create_organization))
        .routes(routes!(
            get_organization,
            update_organization,
            delete_organization
        ))
        .routes(routes!(available_seats))
        .routes(routes!(quota))
        .routes(routes!(set_2fa_required))
        .merge(super::organization_mail::router())
}

pub const TIERS: [&str; 2] = ["paid", "free"];

fn org_not_found() -> ApiError {
    ApiError::not_found("organization_not_found", "Organization not found")
}

fn superadmin_only(caller: &AuthUser, what: &str) -> Result<()> {
    if caller.user.role != Role::Superadmin {
        return Err(ApiError::forbidden(
            "superadmin_required",
            format!("Only a superadmin can {what} organizations"),
        ));
    }
    Ok(())
}

pub(super) fn admin_only(caller: &AuthUser) -> Result<()> {
    if !caller.user.role.is_admin() {
        return Err(ApiError::forbidden(
            "admin_required",
            "Only administrators can do this",
        ));
    }
    Ok(())
}

/// An organization the caller may see (their own, or any for a superadmin); 404 otherwise.
pub(super) async fn visible(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
) -> Result<organizations::OrganizationRow> {
    if !policy::users::can_see_org(caller.person(), id) {
        return Err(org_not_found());
    }
    organizations::by_id(&state.db, id)
        .await?
        .ok_or_else(org_not_found)
}

async fn view_of(state: &AppState, o: &organizations::OrganizationRow) -> Result<OrganizationView> {
    let active = users::count_active(&state.db, &o.id).await?;
    let flags = flighting::for_org(&state.db, &o.id).await?;
    Ok(OrganizationView::new(o, active, flags))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    pub page: Option<i64>,
    /// Default 10.
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct OrganizationList {
    pub success: bool,
    pub organizations: Vec<OrganizationView>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

/// Organizations: all for a superadmin, one's own otherwise.
#[utoipa::path(get, path = "/v1/organizations/list", tag = "organizations", params(PageQuery),
    responses((status = 200, body = OrganizationList)), security(("bearer" = [])))]
async fn list_organizations(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<PageQuery>,
) -> Result<Json<OrganizationList>> {
    let (page, limit, offset) = paging(q.page, q.limit, 10);
    let only = (caller.user.role != Role::Superadmin).then_some(caller.user.organization_id.as_str());
    let (rows, total) = organizations::list(&state.db, only, limit, offset).await?;
    let mut list = Vec::with_capacity(rows.len());
    for o in &rows {
        list.push(view_of(&state, o).await?);
    }
    Ok(Json(OrganizationList {
        success: true,
        organizations: list,
        total,
        page,
        limit,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct OrganizationResponse {
    pub success: bool,
    pub message: String,
    pub organization: OrganizationView,
}

/// One organization (one's own, or any for a superadmin).
#[utoipa::path(get, path = "/v1/organizations/{id}", tag = "organizations", params(("id" = String, Path)),
    responses((status = 200, body = OrganizationResponse), (status = 404, description = "Organization not found", body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_organization(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<OrganizationResponse>> {
    let o = visible(&state, &caller, &id).await?;
    Ok(Json(OrganizationResponse {
        success: true,
        message: String::new(),
        organization: view_of(&state, &o).await?,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct OrganizationRequest {
    pub organization: OrganizationFields,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrganizationFields {
    pub name: Option<String>,
    pub admin_email: Option<String>,
    pub description: Option<String>,
    /// paid or free.
    pub tier: Option<String>,
    /// A number of at least 0.
    #[schema(value_type = Option<i64>)]
    pub max_seats: Option<Value>,
    pub bucket_id: Option<String>,
    pub is_2fa_required: Option<bool>,
    /// Minutes without use after which running previews, notebook servers and apps stop (0:
    /// never; at most a week). Default 60.
    #[schema(value_type = Option<i64>)]
    pub idle_minutes: Option<Value>,
    /// Whether an app's owner may pin it always on. Default false.
    pub allow_always_on: Option<bool>,
    /// Flighting to apply (the defaults otherwise).
    pub flightings: Option<Vec<FlagChange>>,
}

struct Valid {
    name: String,
    admin_email: String,
    description: String,
    tier: String,
    max_seats: i64,
    bucket_id: Option<String>,
    idle_minutes: i64,
}

/// A whole number sent as a number or a string (max seats, idle minutes).
fn parse_seats(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Validates an organization form, filling missing fields from `current` (for updates).
async fn validate(
    state: &AppState,
    f: &OrganizationFields,
    current: Option<&organizations::OrganizationRow>,
) -> Result<Valid> {
    let name = f
        .name
        .as_deref()
        .map(str::trim)
        .map(str::to_owned)
        .or_else(|| current.map(|c| c.name.clone()))
        .unwrap_or_default();
    if name.is_empty() {
        return Err(ApiError::bad_request(
            "name_required",
            "Organization name is required",
        ));
    }
    let admin_email = f
        .admin_email
        .as_deref()
        .map(|e| e.trim().to_lowercase())
        .or_else(|| current.map(|c| c.admin_email.clone()))
        .unwrap_or_default();
    if admin_email.is_empty() {
        return Err(ApiError::bad_request(
            "admin_email_required",
            "Admin email is required",
        ));
    }
    if !valid_email(&admin_email) {
        return Err(ApiError::bad_request(
            "invalid_admin_email",
            "Admin email is invalid",
        ));
    }
    let tier = f
        .tier
        .as_deref()
        .map(|t| t.trim().to_lowercase())
        .or_else(|| current.map(|c| c.tier.clone()))
        .unwrap_or_default();
    if tier.is_empty() {
        return Err(ApiError::bad_request("tier_required", "Tier is required"));
    }
    if !TIERS.contains(&tier.as_str()) {
        return Err(ApiError::bad_request("invalid_tier", "Tier must be paid or free"));
    }
    let max_seats = match (&f.max_seats, current) {
        (Some(v), _) => parse_seats(v).filter(|n| *n >= 0).ok_or_else(|| {
            ApiError::bad_request("invalid_max_seats", "Max seats must be a number of at least 0")
        })?,
        (None, Some(c)) => c.max_seats,
        (None, None) => {
            return Err(ApiError::bad_request(
                "max_seats_required",
                "Max seats is required",
            ));
        }
    };
    let bucket_id = match f.bucket_id.as_deref().map(str::trim) {
        Some("") => None,
        Some(id) => {
            organizations::bucket(&state.db, id)
                .await?
                .ok_or_else(|| ApiError::bad_request("unknown_bucket", "Bucket not found"))?;
            Some(id.to_owned())
        }
        None => current.and_then(|c| c.bucket_id.clone()),
    };
    Ok(Valid {
        name,
        admin_email,
        description: f
            .description
            .clone()
            .or_else(|| current.map(|c| c.description.clone()))
            .unwrap_or_default(),
        tier,
        max_seats,
        bucket_id,
        idle_minutes: match &f.idle_minutes {
            Some(v) => parse_seats(v)
                .filter(|n| (0..=crate::idle::MAX_IDLE_MINUTES).contains(n))
                .ok_or_else(|| ApiError::bad_request("invalid_idle_minutes", IDLE_MINUTES_INVALID))?,
            None => current.map_or(crate::idle::DEFAULT_IDLE_MINUTES, |c| c.idle_minutes),
        },
    })
}

/// The answer to an idle time out of bounds.
pub const IDLE_MINUTES_INVALID: &str =
    "Idle shutdown must be a number of minutes from 0 (never) to 10080 (a week)";

#[derive(Serialize, ToSchema)]
pub struct CreatedOrganization {
    pub success: bool,
    pub message: String,
    pub organization: OrganizationView,
    /// Whether the namespace was created (false when the API runs without a cluster).
    pub namespace_created: bool,
}

/// The answer to an organization whose namespace would be the platform's own.
pub const RESERVED_NAME: &str = "This name is reserved for the platform. Please choose another name.";

/// Whether the namespace of `slug` is free for a new organization `id` on the cluster (none
/// exists); always without a cluster.
async fn namespace_free(state: &AppState, slug: &str, id: &str) -> Result<bool> {
    let Some(client) = &state.kube else {
        return Ok(true);
    };
    let namespace = ludis_crds::organization_namespace(slug);
    let owner = cluster::organizations::namespace_owner(client, &namespace, id)
        .await
        .map_err(ApiError::Internal)?;
    Ok(owner == cluster::organizations::NamespaceOwner::Free)
}

/// Create an organization (superadmins): its namespace `ludis-<slug>` on the cluster and its
/// flighting (the defaults, or the `flightings` sent).
#[utoipa::path(post, path = "/v1/organizations", tag = "organizations", request_body = OrganizationRequest,
    responses(
        (status = 201, description = "Organization created successfully!", body = CreatedOrganization),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 409, description = "An organization with this name already exists", body = ErrorBody),
        (status = 502, description = "The namespace could not be created", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn create_organization(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<OrganizationRequest>,
) -> Result<(StatusCode, Json<CreatedOrganization>)> {
    superadmin_only(&caller, "create")?;
    let f = req.organization;
    let v = validate(&state, &f, None).await?;
    let flags = policy::flags::apply_update(
        Role::Superadmin,
        &policy::flags::defaults(),
        f.flightings.as_deref().unwrap_or(&[]),
    )
    .map_err(|e| ApiError::bad_request("invalid_flighting", e.to_string()))?;
    if organizations::by_name(&state.db, &v.name).await?.is_some() {
        return Err(name_taken());
    }
    let base = cluster::organizations::slugify(&v.name);
    let platform = |slug: &str| {
        cluster::organizations::is_platform_namespace(
            &ludis_crds::organization_namespace(slug),
            &state.settings.system_namespace,
        )
    };
    if platform(&base) {
        return Err(ApiError::bad_request("organization_name_reserved", RESERVED_NAME));
    }
    let id = db::new_id();
    let mut slug = base.clone();
    let mut n = 2;
    while organizations::slug_taken(&state.db, &slug).await?
        || platform(&slug)
        || !namespace_free(&state, &slug, &id).await?
    {
        slug = format!("{base}-{n}");
        n += 1;
    }
    let org = organizations::OrganizationRow {
        id,
        name: v.name,
        slug,
        admin_email: v.admin_email,
        description: v.description,
        tier: v.tier,
        max_seats: v.max_seats,
        bucket_id: v.bucket_id,
        is_2fa_required: f.is_2fa_required.unwrap_or(false),
        created_at: db::now(),
        idle_minutes: v.idle_minutes,
        allow_always_on: f.allow_always_on.unwrap_or(false),
    };
    organizations::insert(&state.db, &org)
        .await
        .on_unique("organizations_name_key", name_taken)?;
    flighting::upsert_all(&state.db, &org.id, &flags).await?;
    let namespace = ludis_crds::organization_namespace(&org.slug);
    let namespace_created = match &state.kube {
        Some(client) => {
            if let Err(e) = cluster::organizations::ensure_namespace_of(&state, client, &org).await {
                tracing::error!(error = format!("{e:#}"), %namespace, "namespace creation failed; undoing the organization");
                organizations::delete(&state.db, &org.id).await?;
                return Err(ApiError::new(
                    StatusCode::BAD_GATEWAY,
                    "namespace_failed",
                    "The organization's namespace could not be created on the cluster. Please try again.",
                ));
            }
            true
        }
        None => {
            tracing::warn!(%namespace, "no cluster configured: the organization's namespace is not created");
            false
        }
    };
    // The sample datasets, in the background (they need object storage, not the answer).
    crate::samples::spawn_for(&state, &org.id);
    Activity::on_organization(&caller.user, &org, ActivityAction::Created)
        .record(&state.db)
        .await;
    Ok((
        StatusCode::CREATED,
        Json(CreatedOrganization {
            success: true,
            message: "Organization created successfully!".into(),
            organization: view_of(&state, &org).await?,
            namespace_created,
        }),
    ))
}

fn name_taken() -> ApiError {
    ApiError::conflict(
        "organization_name_taken",
        "An organization with this name already exists",
    )
}

/// Update an organization (superadmins); `flightings`, when sent, replace its flighting.
#[utoipa::path(put, path = "/v1/organizations/{id}", tag = "organizations", params(("id" = String, Path)), request_body = OrganizationRequest,
    responses(
        (status = 200, description = "Organization updated successfully!", body = OrganizationResponse),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn update_organization(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<OrganizationRequest>,
) -> Result<Json<OrganizationResponse>> {
    let current = visible(&state, &caller, &id).await?;
    superadmin_only(&caller, "edit")?;
    let f = req.organization;
    let v = validate(&state, &f, Some(&current)).await?;
    if let Some(requested) = &f.flightings {
        let now = flighting::for_org(&state.db, &id).await?;
        let flags = policy::flags::apply_update(Role::Superadmin, &now, requested)
            .map_err(|e| ApiError::bad_request("invalid_flighting", e.to_string()))?;
        flighting::upsert_all(&state.db, &id, &flags).await?;
    }
    // The namespace names the organization's bucket for the operator and holds its tier's quota.
    let namespace_changed = v.bucket_id != current.bucket_id || v.tier != current.tier;
    let updated = organizations::OrganizationRow {
        name: v.name,
        admin_email: v.admin_email,
        description: v.description,
        tier: v.tier,
        max_seats: v.max_seats,
        bucket_id: v.bucket_id,
        is_2fa_required: f.is_2fa_required.unwrap_or(current.is_2fa_required),
        idle_minutes: v.idle_minutes,
        allow_always_on: f.allow_always_on.unwrap_or(current.allow_always_on),
        ..current
    };
    // The cluster first, so a refused change leaves both as they were.
    if namespace_changed && let Some(client) = &state.kube {
        let namespace = ludis_crds::organization_namespace(&updated.slug);
        if let Err(e) = cluster::organizations::ensure_namespace_of(&state, client, &updated).await {
            tracing::error!(error = format!("{e:#}"), %namespace, "the namespace's bucket or quota could not be set");
            return Err(ApiError::new(
                StatusCode::BAD_GATEWAY,
                "namespace_failed",
                "The organization's namespace could not be updated on the cluster. Please try again.",
            ));
        }
    }
    organizations::update(&state.db, &updated)
        .await
        .on_unique("organizations_name_key", name_taken)?;
    Activity::on_organization(&caller.user, &updated, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(OrganizationResponse {
        success: true,
        message: "Organization updated successfully!".into(),
        organization: view_of(&state, &updated).await?,
    }))
}

/// Delete an organization (superadmins), refused while it still has users or assets; its
/// namespace is deleted too.
#[utoipa::path(delete, path = "/v1/organizations/{id}", tag = "organizations", params(("id" = String, Path)),
    responses(
        (status = 200, description = "Organization Deleted!", body = Done),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "The organization still owns users or assets", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn delete_organization(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let org = visible(&state, &caller, &id).await?;
    superadmin_only(&caller, "delete")?;
    let namespace = ludis_crds::organization_namespace(&org.slug);
    let mut owned = Vec::new();
    let people = users::count_in_org(&state.db, &org.id).await?;
    if people > 0 {
        owned.push(format!("{people} user{}", if people == 1 { "" } else { "s" }));
    }
    if let Some(client) = &state.kube {
        let assets = cluster::organizations::count_assets(client, &namespace)
            .await
            .map_err(ApiError::Internal)?;
        owned.extend(assets.into_iter().map(|(kind, n)| kind.count(n)));
    }
    if !owned.is_empty() {
        return Err(ApiError::conflict(
            "organization_not_empty",
            format!(
                "{} still owns {}. Delete or move them before deleting the organization.",
                org.name,
                owned.join(", ")
            ),
        ));
    }
    if let Some(client) = &state.kube {
        cluster::organizations::delete_namespace(client, &namespace, &org.id)
            .await
            .map_err(ApiError::Internal)?;
    }
    organizations::delete(&state.db, &org.id).await?;
    Activity::on_organization(&caller.user, &org, ActivityAction::Deleted)
        .outside_organization()
        .record(&state.db)
        .await;
    Ok(Done::new("Organization Deleted!"))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Seats {
    pub success: bool,
    pub available_seats: i64,
    pub max_seats: i64,
    pub active_users: i64,
}

/// Free seats (checked before the add-user form opens).
#[utoipa::path(get, path = "/v1/organizations/{id}/availableSeats", tag = "organizations", params(("id" = String, Path)),
    responses((status = 200, body = Seats), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn available_seats(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Seats>> {
    let org = visible(&state, &caller, &id).await?;
    let active = users::count_active(&state.db, &org.id).await?;
    Ok(Json(Seats {
        success: true,
        available_seats: (org.max_seats - active).max(0),
        max_seats: org.max_seats,
        active_users: active,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct QuotaAnswer {
    pub success: bool,
    /// The tier the quota follows.
    pub tier: String,
    /// What the organization's pods use of what its quota allows, per resource (null: no quota
    /// applied, or no cluster).
    #[schema(required)]
    pub quota: Option<Vec<QuotaLine>>,
}

/// The organization's quota and what is used of it (its administrators, or superadmins): CPU,
/// memory and local disk its pods set aside, running pods, volumes and their storage.
#[utoipa::path(get, path = "/v1/organizations/{id}/quota", tag = "organizations", params(("id" = String, Path)),
    responses((status = 200, body = QuotaAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn quota(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<QuotaAnswer>> {
    let org = visible(&state, &caller, &id).await?;
    admin_only(&caller)?;
    let quota = match &state.kube {
        Some(client) => {
            let namespace = ludis_crds::organization_namespace(&org.slug);
            cluster::quota::usage(client, &namespace)
                .await
                .map_err(ApiError::cluster)?
        }
        None => None,
    };
    Ok(Json(QuotaAnswer {
        success: true,
        tier: org.tier,
        quota,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFaRequiredRequest {
    pub new2fa_required_status: bool,
}

/// Require (or stop requiring) 2FA for everyone in an organization (its administrators, or
/// superadmins). Members without 2FA are sent to enrolment at their next call.
#[utoipa::path(put, path = "/v1/organizations/{id}/2farequired", tag = "organizations", params(("id" = String, Path)),
    request_body = TwoFaRequiredRequest,
    responses((status = 200, description = "2FA Status Updated Successfully!", body = Done), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_2fa_required(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<TwoFaRequiredRequest>,
) -> Result<Json<Done>> {
    let org = visible(&state, &caller, &id).await?;
    admin_only(&caller)?;
    organizations::set_2fa_required(&state.db, &org.id, req.new2fa_required_status).await?;
    let action = if req.new2fa_required_status {
        ActivityAction::TwoFactorRequired
    } else {
        ActivityAction::TwoFactorNotRequired
    };
    Activity::on_organization(&caller.user, &org, action)
        .record(&state.db)
        .await;
    Ok(Done::new("2FA Status Updated Successfully!"))
}

#[derive(Serialize, ToSchema)]
pub struct ActiveUserCount {
    pub id: String,
    pub name: String,
    pub max_seats: i64,
    pub active_users: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ActiveUserCounts {
    pub success: bool,
    pub counts: Vec<ActiveUserCount>,
    /// What `active_users` counts: the seats in use (the `seatsInUse` figure's definition).
    pub definition: &'static str,
}

/// Active users (accounts not deactivated: the seats in use) per organization (all for a
/// superadmin; one's own for an administrator).
#[utoipa::path(get, path = "/v1/organizations/activeUserCounts", tag = "organizations",
    responses((status = 200, body = ActiveUserCounts), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn active_user_counts(
    State(state): State<AppState>,
    caller: AuthUser,
) -> Result<Json<ActiveUserCounts>> {
    admin_only(&caller)?;
    let only = (caller.user.role != Role::Superadmin).then_some(caller.user.organization_id.as_str());
    let rows = organizations::active_user_counts(&state.db, only).await?;
    Ok(Json(ActiveUserCounts {
        success: true,
        counts: rows
            .into_iter()
            .map(|(id, name, max_seats, active_users)| ActiveUserCount {
                id,
                name,
                max_seats,
                active_users,
            })
            .collect(),
        definition: Figure::SeatsInUse.definition(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Bucket {
    pub id: String,
    pub name: String,
    pub region: String,
}

#[derive(Serialize, ToSchema)]
pub struct BucketList {
    pub success: bool,
    pub buckets: Vec<Bucket>,
}

#[derive(Serialize, ToSchema)]
pub struct BucketResponse {
    pub success: bool,
    pub bucket: Bucket,
}

/// Object-storage buckets an organization can use (administrators).
#[utoipa::path(get, path = "/v1/organizations/buckets", tag = "organizations",
    responses((status = 200, body = BucketList), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_buckets(State(state): State<AppState>, caller: AuthUser) -> Result<Json<BucketList>> {
    admin_only(&caller)?;
    let buckets = organizations::buckets(&state.db).await?;
    Ok(Json(BucketList {
        success: true,
        buckets: buckets
            .into_iter()
            .map(|b| Bucket {
                id: b.id,
                name: b.name,
                region: b.region,
            })
            .collect(),
    }))
}

/// One bucket by id (administrators).
#[utoipa::path(get, path = "/v1/organizations/buckets/{id}", tag = "organizations", params(("id" = String, Path)),
    responses((status = 200, body = BucketResponse), (status = 404, description = "Bucket not found", body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_bucket(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<BucketResponse>> {
    admin_only(&caller)?;
    let b = organizations::bucket(&state.db, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("bucket_not_found", "Bucket not found"))?;
    Ok(Json(BucketResponse {
        success: true,
        bucket: Bucket {
            id: b.id,
            name: b.name,
            region: b.region,
        },
    }))
}
