//! Moving the assets of one owner to another in an organization.

use super::*;

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
pub(super) async fn migrate_entity_owner(
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
    let kind = AssetKind::parse_migration(&req.entity_type).ok_or_else(|| {
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
        role: caller.user.role,
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
        migrated =
            cluster::organizations::migrate_owner(client, &namespace, kind, &source.uid, &destination.uid)
                .await
                .map_err(|e| ApiError::Internal(e.context("failed to migrate asset owners")))?;
    }
    let rows =
        db::assets::move_owner(&state.db, kind, &org.id, &source.uid, &destination.uid, db::now()).await?;
    let migrated = migrated.max(usize::try_from(rows).unwrap_or(usize::MAX));
    Activity::owners_moved(&caller.user, kind, &source, &destination)
        .record(&state.db)
        .await;
    Ok(Json(MigrateResponse {
        success: true,
        message: "Entities migrated successfully".into(),
        migrated,
    }))
}
