//! The one access rule, applied: loads the facts about an asset and a caller from the database
//! and asks [`policy::sharing::access`]. Every route, websocket and proxy that takes an asset id
//! goes through [`require`]; an asset the caller has no access to does not exist for them (404).

use crate::{
    app::AppState,
    db::{self, assets::AssetRow, users::UserRow},
    error::{ApiError, Result},
    policy::{
        self,
        sharing::{self, Asset, Caller, Denied, Level},
    },
};

/// The caller's level on a loaded asset.
pub async fn level(state: &AppState, user: &UserRow, asset: &AssetRow) -> Result<Level> {
    let caller = Caller {
        uid: &user.uid,
        organization_id: &user.organization_id,
        role: &user.role,
    };
    let facts = Asset {
        // No known owner: only the rule's administrators (and shares) reach it.
        owner_uid: asset.owner_uid.as_deref().unwrap_or(""),
        organization_id: &asset.organization_id,
    };
    // Owners and administrators need no share lookup.
    let quick = sharing::access(caller, facts, sharing::Shares::default());
    if quick == Level::Edit {
        return Ok(quick);
    }
    let shares = db::assets::caller_shares(&state.db, &asset.id, &user.uid, &user.organization_id).await?;
    Ok(sharing::access(caller, facts, shares))
}

/// The spec's label of an asset kind, as used in messages ('Application shared!').
pub fn label(kind: &str) -> &'static str {
    match kind {
        db::assets::KIND_APPLICATION => "Application",
        db::assets::KIND_PROJECT => "Project",
        db::assets::KIND_DATASET => "Dataset",
        db::assets::KIND_WORKFLOW => "Workflow",
        _ => "Item",
    }
}

/// The 404 of an asset kind (`application_not_found`, 'Application not found').
pub fn not_found(kind: &str) -> ApiError {
    let code = match kind {
        db::assets::KIND_APPLICATION => "application_not_found",
        db::assets::KIND_PROJECT => "project_not_found",
        db::assets::KIND_DATASET => "dataset_not_found",
        db::assets::KIND_WORKFLOW => "workflow_not_found",
        _ => "not_found",
    };
    ApiError::not_found(code, format!("{} not found", label(kind)))
}

/// The 403 of an action above the caller's level on a visible asset.
pub fn forbidden(kind: &str, need: Level) -> ApiError {
    let what = match need {
        Level::Edit => "edit",
        Level::Execute => "execute or edit",
        _ => "view",
    };
    ApiError::forbidden(
        "insufficient_access",
        format!("You need {what} access to this {}", label(kind).to_lowercase()),
    )
}

/// Loads an asset of `kind` and checks the caller has at least `need` on it: no access (or no
/// such asset, or another kind) is a 404, too little a 403.
pub async fn require(
    state: &AppState,
    user: &UserRow,
    kind: &str,
    asset_id: &str,
    need: Level,
) -> Result<(AssetRow, Level)> {
    let asset = db::assets::by_id(&state.db, asset_id)
        .await?
        .filter(|a| a.kind == kind)
        .ok_or_else(|| not_found(kind))?;
    let have = level(state, user, &asset).await?;
    match sharing::require(have, need) {
        Ok(()) => Ok((asset, have)),
        Err(Denied::NotFound) => Err(not_found(kind)),
        Err(Denied::Forbidden) => Err(forbidden(kind, need)),
    }
}

/// Whether the caller is an administrator of their organization (or a superadmin), for lists.
pub fn viewer(user: &UserRow) -> db::assets::Viewer<'_> {
    db::assets::Viewer {
        uid: &user.uid,
        organization_id: &user.organization_id,
        is_admin: policy::is_admin(&user.role),
        is_superadmin: user.role == policy::SUPERADMIN,
    }
}
