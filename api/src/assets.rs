//! The asset layer: every route, websocket and proxy that takes an asset id goes through it.
//! [`load`] finds an asset of a kind with its details and the caller's level, by the one access
//! rule ([`policy::sharing::access`], docs/design.md "The one access rule"): an asset the caller has no access
//! to does not exist for them (404, the kind's own), an action above their level is a 403 with the
//! kind's message. [`require`] is the same without details, [`visible`] for calls that take an
//! asset of any kind; [`require_feature`] is the flighting switch of a kind.

use crate::{
    cluster::apply::Written,
    db::{
        self,
        assets::{AssetRow, Viewer},
        details::{Details, WithDetails},
        users::UserRow,
    },
    domain::{AccessLevel, AssetKind, Role},
    error::{ApiError, Result},
    policy::{
        self,
        sharing::{self, Asset, Caller, Denied},
    },
    state::AppState,
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

/// The rule's answer for a level: `need` or more passes, none is the kind's 404, too little its
/// 403.
fn check(kind: AssetKind, have: AccessLevel, need: AccessLevel) -> Result<()> {
    match sharing::require(have, need) {
        Ok(()) => Ok(()),
        Err(Denied::NotFound) => Err(not_found(Some(kind))),
        Err(Denied::Forbidden) => Err(forbidden(kind, need)),
    }
}

/// Asset `id` (of `kind`, or of any kind) with the caller's level, when the caller sees it.
pub async fn visible(
    state: &AppState,
    user: &UserRow,
    id: &str,
    kind: Option<AssetKind>,
) -> Result<Option<(AssetRow, AccessLevel)>> {
    let Some(asset) = db::assets::by_id(&state.db, id)
        .await?
        .filter(|a| kind.is_none_or(|k| a.kind == k))
    else {
        return Ok(None);
    };
    let have = level(state, user, &asset).await?;
    Ok((have > AccessLevel::None).then_some((asset, have)))
}

/// Asset `id` of `kind` with the caller's level, when it is at least `need` (the kind's 404 or
/// 403 otherwise).
pub async fn require(
    state: &AppState,
    user: &UserRow,
    kind: AssetKind,
    id: &str,
    need: AccessLevel,
) -> Result<(AssetRow, AccessLevel)> {
    let asset = db::assets::by_id(&state.db, id)
        .await?
        .filter(|a| a.kind == kind)
        .ok_or_else(|| not_found(Some(kind)))?;
    let have = level(state, user, &asset).await?;
    check(kind, have, need)?;
    Ok((asset, have))
}

/// Asset `id` of `D`'s kind with its details and the caller's level, when it is at least `need`
/// (the kind's 404 or 403 otherwise). One query for the rows, one for the caller's shares unless
/// they own or administer it.
pub async fn load<D: Details>(
    state: &AppState,
    user: &UserRow,
    id: &str,
    need: AccessLevel,
) -> Result<(WithDetails<D>, AccessLevel)> {
    let found = db::details::by_id::<D>(&state.db, id)
        .await?
        .ok_or_else(|| not_found(Some(D::KIND)))?;
    let have = level(state, user, &found.asset).await?;
    check(D::KIND, have, need)?;
    Ok((found, have))
}

/// Makes a new asset: applies its resource, then writes its rows with `insert` (a refused
/// resource leaves nothing: 409 or 502 as [`ApiError::cluster`] says; a failed write removes the
/// resource again).
pub async fn create<D: Written>(
    state: &AppState,
    a: &WithDetails<D>,
    insert: impl Future<Output = Result<(), sqlx::Error>>,
) -> Result<()> {
    D::apply(state, a).await.map_err(ApiError::cluster)?;
    if let Err(e) = insert.await {
        if let Err(undo) = D::delete(state, a).await {
            tracing::error!(id = %a.asset.id, error = format!("{undo:#}"), "failed to remove the resource of an asset whose rows were not written");
        }
        return Err(e.into());
    }
    Ok(())
}

/// The kind whose feature governs `asset`: its own, but a project of the notebook flavour (a
/// legacy project) is the `notebooks` feature's.
pub async fn feature_kind(state: &AppState, asset: &AssetRow) -> Result<AssetKind> {
    if asset.kind == AssetKind::ProjectV2
        && db::details::by_id::<crate::db::projects::ProjectRow>(&state.db, &asset.id)
            .await?
            .is_some_and(|p| p.details.is_notebook())
    {
        return Ok(AssetKind::Notebook);
    }
    Ok(asset.kind)
}

/// [`require_feature`] for one asset: the feature of its [`feature_kind`].
pub async fn require_asset_feature(state: &AppState, user: &UserRow, asset: &AssetRow) -> Result<()> {
    require_feature(state, user, feature_kind(state, asset).await?).await
}

/// The flighting switch of a kind: its feature must be on for the caller's role (403 otherwise),
/// for the calls of every kind that the path gate does not cover (sharing, the app proxy).
pub async fn require_feature(state: &AppState, user: &UserRow, kind: AssetKind) -> Result<()> {
    let feature = kind.feature();
    let flag = db::flighting::one(&state.db, &user.organization_id, feature).await?;
    if policy::flags::allowed(user.role, flag.as_ref()) {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "feature_disabled",
        format!("The {} feature is not enabled for your role", feature.name()),
    ))
}

/// The facts of the access rule about the caller, for the list queries.
pub fn viewer(user: &UserRow) -> Viewer<'_> {
    Viewer {
        uid: &user.uid,
        organization_id: &user.organization_id,
        is_admin: user.role.is_admin(),
        is_superadmin: user.role == Role::Superadmin,
    }
}
