//! Sharing, for every asset kind (spec 000 §4–§5, docs/design.md "The one access rule"): who has access
//! (`GET /v1/shares/sharedwith/{entityId}`), share and unshare (`POST /v1/applications/share`,
//! generic over `entity_type`), removing an entry or leaving a shared app
//! (`DELETE /v1/applications/share/{id}`), and the dataset folder share (issue 6).
//!
//! Every rule is decided here, never by the console: only editors share, up to edit; nobody
//! shares to themselves or changes the owner's entry; entries declared in the resource's
//! `spec.sharing` (origin `resource`) are changed there, not here; `execute` is not offered on
//! datasets; shares stay inside the asset's organization (an organization share names it, and a
//! person of another organization is answered exactly like an unknown address). A request is
//! validated entry by entry first and then written in one transaction: one bad entry changes
//! nothing. Not gated by a path prefix: each call checks the feature of the asset's kind.

use std::collections::{BTreeMap, HashMap, HashSet};

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets::{self, require_feature},
    auth::AuthUser,
    db::{
        self,
        activity::Activity,
        assets::AssetRow,
        organizations,
        shares::{self, Entry, ShareRow},
        users::{self, UserRow},
    },
    domain::{AccessLevel, ActivityAction, AssetKind, EntityType, ShareTarget, ShareType, StoredTarget},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    policy::sharing::{self, ShareDenied},
    state::AppState,
    views::{Done, presign_get, valid_email},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(shared_with))
        .routes(routes!(share))
        .routes(routes!(share_directory))
        .routes(routes!(remove_share))
}

/// Members listed in the share dialog at most.
const MEMBERS_MAX: i64 = 1000;

/// A refused share entry as an error: 400 for what the request asks, 403 for a non-editor.
fn denied(d: ShareDenied, kind: AssetKind) -> ApiError {
    let message = d.message();
    match d {
        ShareDenied::NotFound => assets::not_found(Some(kind)),
        ShareDenied::NotAnEditor => ApiError::forbidden("not_an_editor", message),
        ShareDenied::SelfShare => ApiError::bad_request("share_to_self", message),
        ShareDenied::OwnerEntry => ApiError::bad_request("owner_entry", message),
        ShareDenied::LevelNotOffered(_) => ApiError::bad_request("level_not_offered", message),
        ShareDenied::ManagedByResource => ApiError::bad_request("managed_by_resource", message),
    }
}

/// An asset the caller sees (of `kind`, or of any kind), with their level; the kind's 404
/// otherwise (an item's for any kind).
async fn visible(
    state: &AppState,
    user: &UserRow,
    kind: Option<AssetKind>,
    id: &str,
) -> Result<(AssetRow, AccessLevel)> {
    assets::visible(state, user, id.trim(), kind)
        .await?
        .ok_or_else(|| assets::not_found(kind))
}

// ---------------------------------------------------------------------------------------------
// Who has access

#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase", default)]
#[into_params(parameter_in = Query)]
pub struct SharedWithQuery {
    /// An entity type in any case (application, insight, project, project_v2, dataset,
    /// workflow, designer); default: the asset's own kind.
    pub entity_type: Option<String>,
}

/// A person in the share dialog.
#[derive(Serialize, ToSchema)]
pub struct Person {
    pub uid: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// A presigned GET of the profile photo (one hour).
    pub photo_url: Option<String>,
}

/// One entry of "People with access".
#[derive(Serialize, ToSchema)]
pub struct ShareEntryView {
    /// The share id (`DELETE /v1/applications/share/{id}` revokes it).
    pub id: String,
    /// User.
    pub to_entity_type: ShareTarget,
    /// The user's uid (empty for an e-mail declared in spec.sharing that has no account yet).
    pub to_entity_id: String,
    pub to_entity_uid: Option<String>,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub photo_url: Option<String>,
    /// view, execute or edit.
    pub access_level: AccessLevel,
    /// Declared in the resource's spec.sharing: cannot be changed or revoked in the console.
    pub managed: bool,
}

/// The organization entry of an asset.
#[derive(Serialize, ToSchema)]
pub struct OrganizationShare {
    pub id: String,
    pub name: String,
    /// The organization's level, or null when not shared with it.
    pub access_level: Option<AccessLevel>,
    pub managed: bool,
}

/// A member of the caller's organization, for "Select from Organization".
#[derive(Serialize, ToSchema)]
pub struct MemberView {
    pub uid: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub photo_url: Option<String>,
    /// Their own share's level, or null.
    pub access_level: Option<AccessLevel>,
}

#[derive(Serialize, ToSchema)]
pub struct SharedWithResponse {
    pub success: bool,
    pub entity_id: String,
    pub entity_type: EntityType,
    /// The caller's level.
    pub access_level: AccessLevel,
    /// The caller may share (edit).
    pub can_share: bool,
    /// The levels a share may grant (datasets: view and edit).
    pub levels: Vec<AccessLevel>,
    /// The owner (fixed), or null when the asset has no known owner.
    pub owner: Option<Person>,
    pub shares: Vec<ShareEntryView>,
    pub organization: Option<OrganizationShare>,
    /// The caller's organization without the owner and the caller; only when `can_share`.
    pub members: Vec<MemberView>,
}

async fn person(state: &AppState, u: &UserRow) -> Person {
    Person {
        uid: u.uid.clone(),
        email: u.email.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        photo_url: photo(state, u).await,
    }
}

pub(crate) async fn photo(state: &AppState, u: &UserRow) -> Option<String> {
    match u.photo_path.as_deref() {
        Some(key) => presign_get(state, key).await,
        None => None,
    }
}

/// Who has access to an asset (view access): the owner, the people and the organization it is
/// shared with (with the entries declared in its resource marked `managed`), and, for editors,
/// the members of their organization to pick from.
#[utoipa::path(get, path = "/v1/shares/sharedwith/{entityId}", tag = "sharing",
    params(("entityId" = String, Path, description = "Asset id"), SharedWithQuery),
    responses(
        (status = 200, body = SharedWithResponse),
        (status = 400, description = "Unknown entity type", body = ErrorBody),
        (status = 403, description = "The kind's feature is off for the caller's role", body = ErrorBody),
        (status = 404, description = "Not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(crate) async fn shared_with(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(entity_id): AppPath<String>,
    AppQuery(q): AppQuery<SharedWithQuery>,
) -> Result<Json<SharedWithResponse>> {
    let named = match q.entity_type.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => Some(EntityType::parse_any_case(t).ok_or_else(|| unknown_type(t))?),
        None => None,
    };
    // Without a kind, one kind-neutral 404 for a missing asset and an invisible one.
    let (asset, level) = visible(&state, &caller.user, named.map(EntityType::kind), &entity_id).await?;
    // A kind without an entity type (a notebook) is shared with its project, not on its own.
    let entity = named
        .or_else(|| asset.kind.entity_type())
        .ok_or_else(|| assets::not_found(None))?;
    require_feature(&state, &caller.user, asset.kind).await?;
    let can_share = level == AccessLevel::Edit;
    let entries = shares::for_asset(&state.db, &asset.id).await?;

    let mut uids: Vec<String> = entries
        .iter()
        .filter(|e| e.to_type == StoredTarget::User)
        .map(|e| e.to_id.clone())
        .collect();
    uids.extend(asset.owner_uid.clone());
    let people: HashMap<String, UserRow> = users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid.clone(), u))
        .collect();

    let owner = match asset.owner_uid.as_ref().and_then(|o| people.get(o)) {
        Some(u) => Some(person(&state, u).await),
        None => None,
    };
    let mut shares_out = Vec::new();
    let mut user_levels: HashMap<&str, AccessLevel> = HashMap::new();
    for e in entries.iter().filter(|e| e.level > AccessLevel::None) {
        match e.to_type {
            StoredTarget::User => {
                let Some(u) = people
                    .get(&e.to_id)
                    .filter(|u| u.organization_id == asset.organization_id)
                else {
                    continue; // a deleted user, or one outside the organization (no access)
                };
                let l = user_levels.entry(u.uid.as_str()).or_insert(e.level);
                *l = (*l).max(e.level);
                shares_out.push(ShareEntryView {
                    id: e.id.clone(),
                    to_entity_type: ShareTarget::User,
                    to_entity_id: u.uid.clone(),
                    to_entity_uid: Some(u.uid.clone()),
                    email: u.email.clone(),
                    first_name: u.first_name.clone(),
                    last_name: u.last_name.clone(),
                    photo_url: photo(&state, u).await,
                    access_level: e.level,
                    managed: e.is_managed(),
                });
            }
            StoredTarget::Email => shares_out.push(ShareEntryView {
                id: e.id.clone(),
                to_entity_type: ShareTarget::User,
                to_entity_id: String::new(),
                to_entity_uid: None,
                email: e.to_id.clone(),
                first_name: String::new(),
                last_name: String::new(),
                photo_url: None,
                access_level: e.level,
                managed: e.is_managed(),
            }),
            StoredTarget::Organization => {}
        }
    }
    let org_entries: Vec<&ShareRow> = entries
        .iter()
        .filter(|e| {
            e.to_type == StoredTarget::Organization
                && e.to_id == asset.organization_id
                && e.level > AccessLevel::None
        })
        .collect();
    let organization = organizations::by_id(&state.db, &asset.organization_id)
        .await?
        .map(|o| OrganizationShare {
            id: o.id,
            name: o.name,
            access_level: org_entries.iter().map(|e| e.level).max(),
            managed: org_entries.iter().any(|e| e.is_managed()),
        });
    let mut members = Vec::new();
    if can_share {
        for u in users::of_organization(&state.db, &asset.organization_id, MEMBERS_MAX).await? {
            if u.uid == caller.user.uid || asset.owner_uid.as_deref() == Some(u.uid.as_str()) {
                continue;
            }
            members.push(MemberView {
                access_level: user_levels.get(u.uid.as_str()).copied(),
                photo_url: photo(&state, &u).await,
                uid: u.uid,
                email: u.email,
                first_name: u.first_name,
                last_name: u.last_name,
            });
        }
    }
    Ok(Json(SharedWithResponse {
        success: true,
        entity_id: asset.id.clone(),
        entity_type: entity,
        access_level: level,
        can_share,
        levels: entity.kind().grantable(),
        owner,
        shares: shares_out,
        organization,
        members,
    }))
}

// ---------------------------------------------------------------------------------------------
// Share and unshare

#[derive(Deserialize, ToSchema)]
pub struct ShareRequest {
    pub share: ShareBody,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShareBody {
    /// The asset's id.
    pub entity_id: String,
    /// Application, Insight, Project, Project_V2, Dataset, Workflow or Designer (any case).
    #[schema(value_type = EntityType)]
    pub entity_type: String,
    /// The changes, applied together or not at all.
    pub shares: Vec<ShareChange>,
}

/// One change: share (grant a level) or unshare (remove the console entry) to people or the
/// asset's organization.
#[derive(Deserialize, Serialize, ToSchema, Default)]
#[serde(default)]
pub struct ShareChange {
    /// share (default) or unshare.
    #[schema(value_type = ShareType)]
    pub share_type: String,
    /// Users by e-mail, comma separated (or use to_entity_uid).
    pub email: String,
    /// view (default), execute or edit; `none` unshares.
    #[schema(value_type = AccessLevel)]
    pub access_level: String,
    /// User (default) or Organization (always the asset's own organization).
    #[schema(value_type = ShareTarget)]
    pub to_entity_type: String,
    /// A user's uid, instead of an e-mail.
    pub to_entity_uid: Option<String>,
}

fn unknown_type(t: &str) -> ApiError {
    ApiError::bad_request(
        "unknown_entity_type",
        format!("Unknown entity type: {t} (Application, Insight, Project, Project_V2, Dataset or Workflow)"),
    )
}

/// A user a share may name: a member of the asset's organization. Anyone else is answered like
/// an unknown address, so the call tells nothing about accounts elsewhere.
fn member(user: Option<UserRow>, asset: &AssetRow) -> Option<UserRow> {
    user.filter(|u| u.organization_id == asset.organization_id)
}

/// Checks every change of a request against the rule and returns the entries to set and the
/// targets to revoke (later changes to one target win). Nothing is written.
async fn plan(
    state: &AppState,
    caller: &UserRow,
    kind: AssetKind,
    asset: &AssetRow,
    level: AccessLevel,
    changes: &[ShareChange],
) -> Result<BTreeMap<(StoredTarget, String), AccessLevel>> {
    if level < AccessLevel::Edit {
        return Err(denied(ShareDenied::NotAnEditor, kind));
    }
    if changes.is_empty() {
        return Err(ApiError::bad_request("nothing_to_share", "Nothing to share"));
    }
    let managed: HashSet<(StoredTarget, String)> = shares::for_asset(&state.db, &asset.id)
        .await?
        .into_iter()
        .filter(ShareRow::is_managed)
        .map(|e| (e.to_type, e.to_id))
        .collect();
    let owner = asset.owner_uid.as_deref().unwrap_or_default();
    let mut out: BTreeMap<(StoredTarget, String), AccessLevel> = BTreeMap::new();
    for c in changes {
        let share_type = match c.share_type.trim().to_lowercase().as_str() {
            "" => ShareType::Share,
            t => t.parse().map_err(|_| {
                ApiError::bad_request(
                    "unknown_share_type",
                    format!("Unknown share type: {t} (share or unshare)"),
                )
            })?,
        };
        let grant = match share_type {
            ShareType::Share => {
                let l = c.access_level.trim();
                let l = if l.is_empty() { "view" } else { l };
                AccessLevel::parse(l).ok_or_else(|| {
                    ApiError::bad_request(
                        "unknown_access_level",
                        format!("Unknown access level: {l} (view, execute or edit)"),
                    )
                })?
            }
            ShareType::Unshare => AccessLevel::None,
        };
        let targets: Vec<(StoredTarget, String)> = match c.to_entity_type.trim().to_lowercase().as_str() {
            "" | "user" => {
                let mut uids = Vec::new();
                let emails = sharing::split_emails(&c.email);
                if !emails.is_empty() {
                    for e in emails {
                        if !valid_email(&e) {
                            return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
                        }
                        let user = member(users::by_email(&state.db, &e).await?, asset).ok_or_else(|| {
                            ApiError::bad_request("unknown_user", format!("No user with the e-mail {e}"))
                        })?;
                        uids.push(user.uid);
                    }
                } else if let Some(uid) = c
                    .to_entity_uid
                    .as_deref()
                    .map(str::trim)
                    .filter(|u| !u.is_empty())
                {
                    let user = member(users::by_uid(&state.db, uid).await?, asset).ok_or_else(|| {
                        ApiError::bad_request("unknown_user", format!("No user with the id {uid}"))
                    })?;
                    uids.push(user.uid);
                } else {
                    return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
                }
                uids.into_iter().map(|u| (StoredTarget::User, u)).collect()
            }
            "organization" => vec![(StoredTarget::Organization, asset.organization_id.clone())],
            other => {
                return Err(ApiError::bad_request(
                    "unknown_target_type",
                    format!("Unknown target: {other} (User or Organization)"),
                ));
            }
        };
        for target in targets {
            sharing::check_share(
                &caller.uid,
                level,
                kind,
                owner,
                &target.1,
                grant,
                managed.contains(&target),
            )
            .map_err(|d| denied(d, kind))?;
            out.insert(target, grant);
        }
    }
    Ok(out)
}

/// Share an asset of any kind with people (by e-mail, comma separated, or uid) and with its
/// organization, or unshare (edit access). Atomic: one refused entry changes nothing.
#[utoipa::path(post, path = "/v1/applications/share", tag = "sharing", request_body = ShareRequest,
    responses(
        (status = 200, description = "{type} shared! (e.g. Application shared!)", body = Done),
        (status = 400, description = "Cannot share to yourself! / Email is invalid! / No user with the e-mail … / the owner's entry / a managed entry / a level not offered", body = ErrorBody),
        (status = 403, description = "Only editors can share this item (or the kind's feature is off)", body = ErrorBody),
        (status = 404, description = "Not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(crate) async fn share(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<ShareRequest>,
) -> Result<Json<Done>> {
    let body = req.share;
    let t = body.entity_type.trim();
    let entity = if t.is_empty() {
        EntityType::Application
    } else {
        EntityType::parse_any_case(t).ok_or_else(|| unknown_type(t))?
    };
    let kind = entity.kind();
    if body.entity_id.trim().is_empty() {
        return Err(ApiError::bad_request(
            "entity_id_required",
            "entity_id is required",
        ));
    }
    require_feature(&state, &caller.user, kind).await?;
    let (asset, level) = visible(&state, &caller.user, Some(kind), &body.entity_id).await?;
    let changes = plan(&state, &caller.user, kind, &asset, level, &body.shares).await?;
    let sets: Vec<Entry<'_>> = changes
        .iter()
        .filter(|(_, l)| **l > AccessLevel::None)
        .map(|((to_type, to_id), l)| Entry {
            to_type: *to_type,
            to_id,
            level: *l,
        })
        .collect();
    let revokes: Vec<shares::Target<'_>> = changes
        .iter()
        .filter(|(_, l)| **l == AccessLevel::None)
        .map(|((to_type, to_id), _)| (*to_type, to_id.as_str()))
        .collect();
    shares::apply_console(&state.db, &asset.id, &sets, &revokes, &caller.user.uid, db::now()).await?;
    Activity::on_asset(&caller.user, &asset, ActivityAction::Shared)
        .record(&state.db)
        .await;
    Ok(Done::new(sharing::shared_message(entity.label())))
}

#[derive(Deserialize, ToSchema)]
pub struct DirectoryShareRequest {
    pub share: DirectoryShareBody,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct DirectoryShareBody {
    /// The dataset's id.
    pub entity_id: String,
    /// Dataset.
    #[schema(value_type = EntityType)]
    pub entity_type: String,
    /// The folder of the dataset to share.
    pub directory_id: String,
    pub shares: Vec<ShareChange>,
}

/// Share one folder of a dataset. Access is granted per dataset, never per folder (a folder share
/// would let a path decide access, which the one access rule does not): after the usual checks
/// (404 without access, 403 without edit), this answers 400 and points to the dataset share.
#[utoipa::path(put, path = "/v1/directory/share", tag = "sharing", request_body = DirectoryShareRequest,
    responses(
        (status = 200, description = "Not answered: after the access checks a folder share is always refused (400)", body = Done),
        (status = 400, description = "Folders are not shared on their own: share the dataset", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn share_directory(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<DirectoryShareRequest>,
) -> Result<Json<Done>> {
    require_feature(&state, &caller.user, AssetKind::Dataset).await?;
    let (_, level) = visible(
        &state,
        &caller.user,
        Some(AssetKind::Dataset),
        &req.share.entity_id,
    )
    .await?;
    if level < AccessLevel::Edit {
        return Err(denied(ShareDenied::NotAnEditor, AssetKind::Dataset));
    }
    Err(ApiError::bad_request(
        "folder_share_unsupported",
        "A folder cannot be shared on its own; share the dataset instead",
    ))
}

/// Revoke one share entry by its id (edit access on its asset; anyone may drop their own entry),
/// or, given an application id, remove an app shared with the caller from their insights (their
/// own entry is deleted; access that comes from the organization, a role or the resource's
/// spec.sharing cannot be removed this way: 409).
#[utoipa::path(delete, path = "/v1/applications/share/{id}", tag = "sharing",
    params(("id" = String, Path, description = "A share id, or an application id")),
    responses(
        (status = 200, description = "Access removed", body = Done),
        (status = 400, description = "A managed entry, the owner's entry, or the owner leaving", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 409, description = "The caller's access does not come from a share of their own", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn remove_share(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let me = &caller.user;
    if let Some(entry) = shares::by_id(&state.db, id.trim()).await? {
        let (asset, level) = assets::visible(&state, me, &entry.asset_id, None)
            .await?
            .ok_or_else(|| assets::not_found(Some(AssetKind::Insight)))?;
        require_feature(&state, me, asset.kind).await?;
        let own = entry.to_type == StoredTarget::User && entry.to_id == me.uid;
        if entry.is_managed() {
            return Err(denied(ShareDenied::ManagedByResource, asset.kind));
        }
        if !own {
            let owner = asset.owner_uid.as_deref().unwrap_or_default();
            sharing::check_share(
                &me.uid,
                level,
                asset.kind,
                owner,
                &entry.to_id,
                AccessLevel::None,
                false,
            )
            .map_err(|d| denied(d, asset.kind))?;
        }
        shares::delete_console_by_id(&state.db, &entry.id).await?;
        Activity::on_asset(me, &asset, ActivityAction::Unshared)
            .record(&state.db)
            .await;
        return Ok(Done::new("Access removed"));
    }
    let (asset, _) = visible(&state, me, Some(AssetKind::Insight), &id).await?;
    if asset.owner_uid.as_deref() == Some(me.uid.as_str()) {
        return Err(ApiError::bad_request(
            "owner_cannot_leave",
            "You own this application: delete it instead",
        ));
    }
    if !shares::delete_console(&state.db, &asset.id, StoredTarget::User, &me.uid).await? {
        return Err(ApiError::conflict(
            "access_not_removable",
            "Your access comes from your organization, your role or the application's resource, not from a share of your own; it cannot be removed here",
        ));
    }
    Activity::on_asset(me, &asset, ActivityAction::Unshared)
        .record(&state.db)
        .await;
    Ok(Done::new("Access removed"))
}
