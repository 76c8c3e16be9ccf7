//! Flighting (feature flags per organization and role) and the client configuration.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::AuthUser,
    db::{
        activity::Activity,
        flighting,
        organizations::{self, OrganizationRow},
    },
    domain::{AccessLevel, EntityType, Feature, Role},
    error::{ApiError, AppJson, AppQuery, ErrorBody, Result},
    policy::{
        self,
        flags::{Flag, FlagChange, FlagError},
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_flighting, update_flighting))
        .routes(routes!(get_client_config))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrgQuery {
    /// Organization id (default: the caller's; only a superadmin may name another).
    pub organization: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct FlightingResponse {
    pub success: bool,
    pub message: String,
    pub organization: String,
    pub flightings: Vec<Flag>,
    /// Roles whose features the caller may switch (the role selector's choices).
    pub editable_roles: Vec<Role>,
}

async fn target_org(state: &AppState, caller: &AuthUser, q: OrgQuery) -> Result<OrganizationRow> {
    let id = q
        .organization
        .filter(|o| !o.is_empty())
        .unwrap_or_else(|| caller.user.organization_id.clone());
    let org = if policy::users::can_see_org(caller.person(), &id) {
        organizations::by_id(&state.db, &id).await?
    } else {
        None
    };
    org.ok_or_else(|| ApiError::not_found("organization_not_found", "Organization not found"))
}

fn response(caller: &AuthUser, org: String, flags: Vec<Flag>, message: &str) -> Json<FlightingResponse> {
    Json(FlightingResponse {
        success: true,
        message: message.into(),
        organization: org,
        flightings: flags,
        editable_roles: policy::flags::editable_roles(caller.user.role).to_vec(),
    })
}

/// An organization's flighting (members read their own organization's).
#[utoipa::path(get, path = "/v1/flighting", tag = "flighting", params(OrgQuery),
    responses((status = 200, body = FlightingResponse), (status = 404, description = "Organization not found", body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_flighting(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<OrgQuery>,
) -> Result<Json<FlightingResponse>> {
    let org = target_org(&state, &caller, q).await?;
    let flags = flighting::for_org(&state.db, &org.id).await?;
    Ok(response(&caller, org.id, flags, ""))
}

#[derive(Deserialize, ToSchema)]
pub struct FlightingUpdate {
    pub flightings: Vec<FlagChange>,
}

/// Change flighting: an administrator for their own organization (developer and management
/// roles), a superadmin for any organization (also the administrator role and `active`).
#[utoipa::path(put, path = "/v1/flighting", tag = "flighting", params(OrgQuery), request_body = FlightingUpdate,
    responses(
        (status = 200, description = "Flighting configuration updated!", body = FlightingResponse),
        (status = 400, description = "Unknown feature key or role", body = ErrorBody),
        (status = 403, description = "A change the caller may not make", body = ErrorBody),
        (status = 404, description = "Organization not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn update_flighting(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<OrgQuery>,
    AppJson(req): AppJson<FlightingUpdate>,
) -> Result<Json<FlightingResponse>> {
    let org = target_org(&state, &caller, q).await?;
    let current = flighting::for_org(&state.db, &org.id).await?;
    let flags =
        policy::flags::apply_update(caller.user.role, &current, &req.flightings).map_err(|e| match e {
            FlagError::UnknownKey(_) | FlagError::UnknownRole(_) | FlagError::Duplicate(_) => {
                ApiError::bad_request("invalid_flighting", e.to_string())
            }
            FlagError::NotAllowed => ApiError::forbidden("admin_required", e.to_string()),
            FlagError::AdministratorRole | FlagError::Active => {
                ApiError::forbidden("flighting_change_forbidden", e.to_string())
            }
        })?;
    flighting::upsert_all(&state.db, &org.id, &flags).await?;
    Activity::on_flighting(&caller.user, &org).record(&state.db).await;
    Ok(response(
        &caller,
        org.id,
        flags,
        "Flighting configuration updated!",
    ))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientConfig {
    pub environment: String,
    pub support_email: String,
    pub documentation_url: String,
    pub roles: Vec<Role>,
    pub feature_keys: Vec<Feature>,
    pub date_formats: Vec<String>,
    pub access_levels: Vec<AccessLevel>,
    pub entity_types: Vec<EntityType>,
    pub min_password_length: usize,
    pub two_factor_code_length: u32,
    /// Whether profile photos can be uploaded (object storage is configured).
    pub photo_upload: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ClientConfigResponse {
    pub success: bool,
    pub config: ClientConfig,
}

/// Client configuration (no sign-in needed).
#[utoipa::path(get, path = "/v1/config", tag = "flighting", responses((status = 200, body = ClientConfigResponse)))]
async fn get_client_config(State(state): State<AppState>) -> Json<ClientConfigResponse> {
    Json(ClientConfigResponse {
        success: true,
        config: ClientConfig {
            environment: "production".into(),
            support_email: state.settings.support_email.clone(),
            documentation_url: state.settings.docs_url.clone(),
            roles: Role::ALL.to_vec(),
            feature_keys: Feature::ALL.to_vec(),
            date_formats: super::users::DATE_FORMATS
                .iter()
                .map(|f| (*f).to_owned())
                .collect(),
            access_levels: AccessLevel::ALL.to_vec(),
            entity_types: EntityType::ALL.to_vec(),
            min_password_length: super::auth::MIN_PASSWORD,
            two_factor_code_length: crate::auth::totp::DIGITS.into(),
            photo_upload: state.s3.is_some(),
        },
    })
}
