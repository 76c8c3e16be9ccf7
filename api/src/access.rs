//! The one access rule, applied: loads the facts about an asset and a caller from the database
//! and asks [`policy::sharing::access`]. Every route, websocket and proxy that takes an asset id
//! goes through [`require`]; an asset the caller has no access to does not exist for them (404).

use crate::{
    app::AppState,
    db::{self, assets::AssetRow, users::UserRow},
    domain::{AccessLevel, AssetKind, Role},
    error::{ApiError, Result},
    policy::sharing::{self, Asset, Caller, Denied},
};

/// The caller's level on a loaded asset.
pub async fn level(state: &AppState, user: &UserRow, asset: &AssetRow) -> Result<AccessLevel> {
    let caller = Caller {
        uid: &user.uid,
        organization_id: &user.organization_id,
        role: user.role,
    };
    let facts = Asset {
        // No known owner: only the rule's administrators (and shares) reach it.
        owner_uid: asset.owner_uid.as_deref().unwrap_or(""),
        organization_id: &asset.organization_id,
    };
    // Owners and administrators need no share lookup.
    let quick = sharing::access(caller, facts, sharing::Shares::default());
    if quick == AccessLevel::Edit {
        return Ok(quick);
    }
    let shares = db::assets::caller_shares(&state.db, &asset.id, &user.uid, &user.organization_id).await?;
    Ok(sharing::access(caller, facts, shares))
}

/// The 404 of an asset kind (`application_not_found`, 'Application not found'), or of any kind
/// (`not_found`, 'Item not found').
pub fn not_found(kind: Option<AssetKind>) -> ApiError {
    match kind {
        Some(k) => ApiError::not_found(k.not_found_code(), format!("{} not found", k.label())),
        None => ApiError::not_found("not_found", "Item not found"),
    }
}

/// The 403 of an action above the caller's level on a visible asset.
pub fn forbidden(kind: AssetKind, need: AccessLevel) -> ApiError {
    ApiError::forbidden("insufficient_access", kind.forbidden_message(need))
}

/// Loads an asset of `kind` and checks the caller has at least `need` on it: no access (or no
/// such asset, or another kind) is a 404, too little a 403.
pub async fn require(
    state: &AppState,
    user: &UserRow,
    kind: AssetKind,
    asset_id: &str,
    need: AccessLevel,
) -> Result<(AssetRow, AccessLevel)> {
    let asset = db::assets::by_id(&state.db, asset_id)
        .await?
        .filter(|a| a.kind == kind)
        .ok_or_else(|| not_found(Some(kind)))?;
    let have = level(state, user, &asset).await?;
    match sharing::require(have, need) {
        Ok(()) => Ok((asset, have)),
        Err(Denied::NotFound) => Err(not_found(Some(kind))),
        Err(Denied::Forbidden) => Err(forbidden(kind, need)),
    }
}

/// Whether the caller is an administrator of their organization (or a superadmin), for lists.
pub fn viewer(user: &UserRow) -> db::assets::Viewer<'_> {
    db::assets::Viewer {
        uid: &user.uid,
        organization_id: &user.organization_id,
        is_admin: user.role.is_admin(),
        is_superadmin: user.role == Role::Superadmin,
    }
}
