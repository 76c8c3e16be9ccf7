//! Datasets (spec 000 §7, spec 001 §2/§5/§6/§7, issue 6): the list (all, created by me, shared
//! with me, samples), create, update, details, delete; the files of a dataset — a folder's page
//! with continuation, new folders, deleting files and whole folders, presigned upload and download
//! addresses bound to one key and one method, previews of the first rows, the temporary (7 days)
//! and permanent (API key) access URLs; sharing (view or edit, never execute) and the client
//! configuration.
//!
//! Files never pass through the API: the browser sends them straight to object storage with a
//! presigned address. Every path a client names is normalised by [`ludis_storage::keys`] and may
//! not leave the dataset's prefix; the prefix itself (`datasets/<namespace>/<id>/`) never leaves the server.
//! Every call goes through [`access::require`]: no access is 404, view access trying to write is
//! 403 'You need edit access'.

use std::collections::HashMap;

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
};
use base64::Engine as _;
use ludis_storage::{keys, objects, presign, preview};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    access,
    app::AppState,
    auth::AuthUser,
    cluster,
    db::{
        self, activity,
        assets::{self, AssetRow, Filter, KIND_DATASET, ListQuery, SortBy},
        datasets::{self, Dataset, DatasetRow},
        users::{self, UserRow},
    },
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    policy::sharing::Level,
    routes::{
        insights::{cluster_error, optional_text, required_text},
        shares::{self, photo},
    },
    views::Done,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_datasets))
        .routes(routes!(create_dataset))
        .routes(routes!(update_dataset))
        .routes(routes!(dataset_details))
        .routes(routes!(delete_dataset))
        .routes(routes!(list_files))
        .routes(routes!(create_directory))
        .routes(routes!(delete_objects))
        .routes(routes!(presigned_url))
        .routes(routes!(file_preview))
        .routes(routes!(access_url))
        .routes(routes!(download))
        .routes(routes!(share_dataset))
        .routes(routes!(share_list))
        .routes(routes!(get_config))
}

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
/// A folder page holds at most this many entries (files and folders).
pub const LIST_LIMIT_MAX: i32 = 1000;
pub const LIST_LIMIT_DEFAULT: i32 = 100;
/// How long a spreadsheet preview may take (in its child process).
const PREVIEW_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);
/// Paths one delete call may name.
const DELETE_PATHS_MAX: usize = 1000;
/// People shown on a listed dataset's row.
const SHARE_ICONS: usize = 5;
/// The extensions the console uploads (spec 001 §2).
pub const ACCEPTED_EXTENSIONS: [&str; 6] = [".csv", ".json", ".xml", ".txt", ".xlsx", ".xls"];

pub const EMPTY_NAME: &str = "Empty name not allowed";
pub const EMPTY_DESCRIPTION: &str = "Empty description not allowed";
pub const EMPTY_FOLDER: &str = "Empty folder name not allowed";
pub const NEED_EDIT: &str = "You need edit access";
pub const NO_STORAGE: &str = "Object storage is not configured";
pub const MANAGED: &str =
    "This dataset is managed by its resource (kubectl or GitOps); change or delete it there";
pub const NOTHING_TO_DELETE: &str = "Choose a file or folder to delete";
pub const FILE_NOT_FOUND: &str = "File not found";

// ---------------------------------------------------------------------------------------------
// Shared pieces

fn bad(code: &'static str, message: impl Into<std::borrow::Cow<'static, str>>) -> ApiError {
    ApiError::bad_request(code, message)
}

fn path_error(e: keys::KeyError) -> ApiError {
    ApiError::bad_request("invalid_path", e.to_string())
}

fn storage_error(e: ludis_storage::StorageError) -> ApiError {
    tracing::warn!(error = %e, "object storage failed");
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "storage_error",
        "Object storage did not answer as expected; try again",
    )
}

fn s3(state: &AppState) -> Result<(&aws_sdk_s3::Client, &presign::Presigner)> {
    match (&state.s3, &state.presigner) {
        (Some(s3), Some(p)) => Ok((s3, p)),
        _ => Err(ApiError::unavailable("storage_not_configured", NO_STORAGE)),
    }
}

/// Loads a dataset the caller has at least `need` on (404 without access; 'You need edit access'
/// for a viewer who writes).
async fn load(state: &AppState, caller: &AuthUser, id: &str, need: Level) -> Result<(Dataset, Level)> {
    let (_, level) = match access::require(state, &caller.user, KIND_DATASET, id.trim(), need).await {
        Err(ApiError::Client {
            status: StatusCode::FORBIDDEN,
            ..
        }) => {
            return Err(ApiError::forbidden("insufficient_access", NEED_EDIT));
        }
        other => other?,
    };
    let dataset = datasets::by_id(&state.db, id.trim())
        .await?
        .ok_or_else(|| access::not_found(KIND_DATASET))?;
    Ok((dataset, level))
}

fn deletion_policy(value: Option<&str>) -> Result<String> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(datasets::RETAIN.to_owned()),
        Some(v) if v.eq_ignore_ascii_case("retain") => Ok(datasets::RETAIN.to_owned()),
        Some(v) if v.eq_ignore_ascii_case("delete") => Ok(datasets::DELETE.to_owned()),
        Some(v) => Err(ApiError::bad_request(
            "invalid_deletion_policy",
            format!("Unknown deletion policy: {v} (Retain or Delete)"),
        )),
    }
}

async fn record(state: &AppState, caller: &AuthUser, asset: &AssetRow, action: &str) {
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&asset.organization_id),
            entity_type: "datasets",
            entity_id: &asset.id,
            entity_name: &asset.name,
            action,
        },
    )
    .await;
}

/// Measures a dataset's objects and stores the numbers, in the background (after the API wrote
/// or deleted objects; the operator refreshes them too when it runs).
fn refresh_usage(state: &AppState, d: &Dataset) {
    let Some(s3) = state.s3.clone() else { return };
    let (db, id, bucket, prefix) = (
        state.db.clone(),
        d.asset.id.clone(),
        d.details.bucket.clone(),
        d.details.prefix.clone(),
    );
    tokio::spawn(async move {
        match ludis_storage::usage(&s3, &bucket, &prefix).await {
            Ok((count, bytes)) => {
                if let Err(e) = datasets::set_usage(&db, &id, count, bytes, db::now()).await {
                    tracing::warn!(dataset = %id, error = %e, "failed to store a dataset's usage");
                }
            }
            Err(e) => tracing::warn!(dataset = %id, error = %e, "failed to measure a dataset"),
        }
    });
}

/// Whether a dataset was not measured by the API in the last 10 seconds (and records now).
fn due_for_measure(id: &str) -> bool {
    use std::{
        sync::{LazyLock, Mutex},
        time::{Duration, Instant},
    };
    const EVERY: Duration = Duration::from_secs(10);
    static LAST: LazyLock<Mutex<HashMap<String, Instant>>> = LazyLock::new(Mutex::default);
    let Ok(mut last) = LAST.lock() else {
        return false;
    };
    let now = Instant::now();
    if last.get(id).is_some_and(|at| now.duration_since(*at) < EVERY) {
        return false;
    }
    if last.len() > 10_000 {
        last.retain(|_, at| now.duration_since(*at) < EVERY);
    }
    last.insert(id.to_owned(), now);
    true
}

// ---------------------------------------------------------------------------------------------
// Views

/// A person on a dataset: the owner, or one it is shared with.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DatasetOwner {
    pub first_name: String,
    pub last_name: String,
    pub photo_path: PhotoPath,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PhotoPath {
    /// A presigned address of the photo (one hour), or null.
    pub original: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShareIcon {
    pub id: String,
    pub name: String,
    pub photo_path: Option<String>,
}

/// One dataset as the caller sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DatasetView {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The dataset's folder in its bucket.
    pub path: String,
    pub img_path: Option<String>,
    pub user_uid: Option<String>,
    pub user: Option<DatasetOwner>,
    /// The owner's e-mail.
    pub repo_author: Option<String>,
    #[serde(rename = "shareIcons")]
    pub share_icons: Vec<ShareIcon>,
    /// view or edit (the owner has edit).
    pub access_level: String,
    pub is_owner: bool,
    /// A seeded sample (read-only for members).
    pub sample: bool,
    /// Applied with kubectl or GitOps: changed there, not here.
    pub managed: bool,
    pub object_count: i64,
    pub bytes: i64,
    /// Retain or Delete.
    pub deletion_policy: String,
    /// pending, ready, deleting or failed.
    pub status: String,
    pub status_message: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

async fn view(
    state: &AppState,
    caller: &AuthUser,
    d: &Dataset,
    level: Level,
    people: &HashMap<String, UserRow>,
    shared: &[&str],
) -> DatasetView {
    let (a, x) = (&d.asset, &d.details);
    let owner = a.owner_uid.as_ref().and_then(|u| people.get(u));
    let user = match owner {
        Some(u) => Some(DatasetOwner {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            photo_path: PhotoPath {
                original: photo(state, u).await,
            },
        }),
        None => None,
    };
    let mut share_icons = Vec::new();
    for uid in shared {
        if let Some(u) = people.get(*uid) {
            share_icons.push(ShareIcon {
                id: u.uid.clone(),
                name: format!("{} {}", u.first_name, u.last_name).trim().to_owned(),
                photo_path: photo(state, u).await,
            });
        }
    }
    DatasetView {
        id: a.id.clone(),
        name: a.name.clone(),
        description: a.description.clone(),
        path: x.prefix.clone(),
        img_path: a.img_path.clone(),
        user_uid: a.owner_uid.clone(),
        user,
        repo_author: owner.map(|u| u.email.clone()),
        share_icons,
        access_level: level.as_str().to_owned(),
        is_owner: a.owner_uid.as_deref() == Some(caller.user.uid.as_str()),
        sample: x.sample.is_some(),
        managed: a.is_managed(),
        object_count: x.object_count,
        bytes: x.bytes,
        deletion_policy: x.deletion_policy.clone(),
        status: x.status.clone(),
        status_message: x.status_message.clone(),
        created_at: a.created_at,
        updated_at: a.updated_at,
    }
}

/// The views of some datasets (owners and share icons loaded together).
async fn views(state: &AppState, caller: &AuthUser, items: &[(Dataset, Level)]) -> Result<Vec<DatasetView>> {
    let ids: Vec<String> = items.iter().map(|(d, _)| d.asset.id.clone()).collect();
    let shared = datasets::shared_people(&state.db, &ids, SHARE_ICONS).await?;
    let mut uids: Vec<String> = items
        .iter()
        .filter_map(|(d, _)| d.asset.owner_uid.clone())
        .collect();
    uids.extend(shared.iter().map(|(_, u)| u.clone()));
    let people: HashMap<String, UserRow> = users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid.clone(), u))
        .collect();
    let mut out = Vec::with_capacity(items.len());
    for (d, level) in items {
        let mine: Vec<&str> = shared
            .iter()
            .filter(|(a, _)| *a == d.asset.id)
            .map(|(_, u)| u.as_str())
            .collect();
        out.push(view(state, caller, d, *level, &people, &mine).await);
    }
    Ok(out)
}

async fn one_view(state: &AppState, caller: &AuthUser, d: Dataset, level: Level) -> Result<DatasetView> {
    views(state, caller, &[(d, level)])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a dataset view went missing"))
}

// ---------------------------------------------------------------------------------------------
// The list, one dataset, create, update, delete

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DatasetsQuery {
    /// all (default), owned ('Created by me'), shared ('Shared with me') or sample.
    pub filter: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 10).
    #[serde(alias = "page_size", alias = "limit")]
    pub page_size: Option<i64>,
    /// Part of the name or description.
    pub search: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DatasetsPage {
    pub success: bool,
    pub datasets: Vec<DatasetView>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
    pub total_pages: i64,
}

fn parse_filter(v: Option<&str>) -> Result<(Filter, bool)> {
    let v = v.map(|s| s.trim().to_lowercase()).unwrap_or_default();
    match v.as_str() {
        "" | "all" => Ok((Filter::All, false)),
        "owned" | "mine" | "created by me" | "created_by_me" => Ok((Filter::Owned, false)),
        "shared" | "shared with me" | "shared_with_me" => Ok((Filter::Shared, false)),
        "sample" | "samples" => Ok((Filter::All, true)),
        other => Err(ApiError::bad_request(
            "invalid_filter",
            format!("Unknown filter: {other} (all, owned, shared or sample)"),
        )),
    }
}

/// The datasets the caller may see, newest change first: all, created by them, shared with them
/// (by a share to them or to their organization; the samples are listed apart) or the samples;
/// with search and pages.
#[utoipa::path(get, path = "/v1/datasets/listdatasets", tag = "datasets", params(DatasetsQuery),
    responses((status = 200, body = DatasetsPage), (status = 400, description = "Unknown filter", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
async fn list_datasets(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<DatasetsQuery>,
) -> Result<Json<DatasetsPage>> {
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(10).clamp(1, 100);
    let (filter, samples) = parse_filter(q.filter.as_deref())?;
    // Samples have their own list; 'Shared with me' is what colleagues shared.
    let details = if samples {
        Some(("datasets", "d.sample IS NOT NULL".to_owned(), Vec::new()))
    } else if filter == Filter::Shared {
        Some(("datasets", "d.sample IS NULL".to_owned(), Vec::new()))
    } else {
        None
    };
    let query = ListQuery {
        kind: KIND_DATASET,
        filter,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details,
    };
    let (listed, total) = assets::list(&state.db, access::viewer(&caller.user), &query).await?;
    let ids: Vec<String> = listed.iter().map(|l| l.asset.id.clone()).collect();
    let mut details: HashMap<String, DatasetRow> = datasets::details_of(&state.db, &ids)
        .await?
        .into_iter()
        .map(|d| (d.id.clone(), d))
        .collect();
    let items: Vec<(Dataset, Level)> = listed
        .into_iter()
        .filter_map(|l| {
            let d = details.remove(&l.asset.id)?;
            Some((
                Dataset {
                    asset: l.asset,
                    details: d,
                },
                l.level,
            ))
        })
        .collect();
    Ok(Json(DatasetsPage {
        success: true,
        datasets: views(&state, &caller, &items).await?,
        total,
        page,
        page_size,
        total_pages: (total + page_size - 1) / page_size,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct DatasetResponse {
    pub success: bool,
    pub dataset: DatasetView,
}

#[derive(Serialize, ToSchema)]
pub struct DatasetMessage {
    pub success: bool,
    pub message: String,
    pub dataset: DatasetView,
}

#[derive(Deserialize, ToSchema)]
pub struct DatasetRequest {
    pub dataset: DatasetFields,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct DatasetFields {
    pub name: String,
    pub description: String,
    /// Retain (default) or Delete: what happens to the files when the dataset is deleted
    /// (create only).
    pub deletion_policy: Option<String>,
}

/// Create a dataset: its folder in the organization's bucket, its Dataset resource and its rows.
/// The caller owns it. Files are then uploaded with presigned addresses.
#[utoipa::path(post, path = "/v1/datasets/createdataset", tag = "datasets", request_body = DatasetRequest,
    responses(
        (status = 201, description = "Dataset Created Successfully", body = DatasetMessage),
        (status = 400, description = "Empty name not allowed", body = ErrorBody),
        (status = 502, description = "The cluster or object storage refused", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn create_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<DatasetRequest>,
) -> Result<(StatusCode, Json<DatasetMessage>)> {
    let f = req.dataset;
    let name = required_text(&f.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = optional_text(&f.description, DESCRIPTION_MAX)?;
    let policy = deletion_policy(f.deletion_policy.as_deref())?;
    let (s3, _) = s3(&state)?;
    let org = &caller.user.organization_id;
    let id = db::new_id();
    let (bucket, prefix) = cluster::datasets::location(&state, org, &id)
        .await
        .map_err(|e| ApiError::internal(format!("{e:#}")))?;
    ludis_storage::ensure_bucket(s3, &bucket)
        .await
        .map_err(storage_error)?;
    let placement = cluster::datasets::placement(&state, org, &id, &name)
        .await
        .map_err(cluster_error)?;
    let now = db::now();
    let has_resource = placement.is_some();
    let (namespace, resource_name) = placement.unzip();
    let dataset = Dataset {
        asset: AssetRow {
            id: id.clone(),
            kind: KIND_DATASET.into(),
            organization_id: org.clone(),
            owner_uid: Some(caller.user.uid.clone()),
            name,
            description,
            img_path: None,
            namespace,
            resource_name,
            origin: assets::ORIGIN_API.into(),
            views: 0,
            created_at: now,
            updated_at: now,
        },
        details: DatasetRow {
            id: id.clone(),
            bucket,
            prefix,
            deletion_policy: policy,
            // With a cluster the operator confirms the storage; without one it is ready now.
            status: if has_resource {
                datasets::PENDING
            } else {
                datasets::READY
            }
            .into(),
            ..Default::default()
        },
    };
    // The resource first: a refused resource leaves nothing behind.
    cluster::datasets::apply(&state, &dataset)
        .await
        .map_err(cluster_error)?;
    if let Err(e) = datasets::insert(&state.db, &dataset).await {
        if let Err(undo) = cluster::datasets::delete(&state, &dataset).await {
            tracing::warn!(dataset = %id, error = format!("{undo:#}"), "failed to remove the resource of a dataset that was not saved");
        }
        return Err(e.into());
    }
    record(&state, &caller, &dataset.asset, "created").await;
    let view = one_view(&state, &caller, dataset, Level::Edit).await?;
    Ok((
        StatusCode::CREATED,
        Json(DatasetMessage {
            success: true,
            message: "Dataset Created Successfully".into(),
            dataset: view,
        }),
    ))
}

/// Rename a dataset or change its description (edit access; both required).
#[utoipa::path(put, path = "/v1/datasets/updatedataset/{id}", tag = "datasets", request_body = DatasetRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "Dataset Updated Successfully", body = DatasetMessage),
        (status = 400, description = "Empty name not allowed / Empty description not allowed", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource, or another tool owns the field", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn update_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<DatasetRequest>,
) -> Result<Json<DatasetMessage>> {
    let (mut dataset, level) = load(&state, &caller, &id, Level::Edit).await?;
    let name = required_text(&req.dataset.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = required_text(
        &req.dataset.description,
        EMPTY_DESCRIPTION,
        "description_required",
        DESCRIPTION_MAX,
    )?;
    if dataset.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    dataset.asset.name = name;
    dataset.asset.description = description;
    dataset.asset.updated_at = db::now();
    cluster::datasets::apply(&state, &dataset)
        .await
        .map_err(cluster_error)?;
    datasets::update(&state.db, &dataset).await?;
    record(&state, &caller, &dataset.asset, "updated").await;
    Ok(Json(DatasetMessage {
        success: true,
        message: "Dataset Updated Successfully".into(),
        dataset: one_view(&state, &caller, dataset, level).await?,
    }))
}

/// One dataset (view access): owner or share information, size and status.
#[utoipa::path(post, path = "/v1/datasets/getdatasetdetails/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses((status = 200, body = DatasetResponse), (status = 404, description = "Dataset not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
async fn dataset_details(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<DatasetResponse>> {
    let (dataset, level) = load(&state, &caller, &id, Level::View).await?;
    // Files arrive straight from browsers, so the API does not see them: measure again in the
    // background (at most every 10 s per dataset; the operator also does every minute). The
    // answer carries the last numbers.
    if due_for_measure(&dataset.asset.id) {
        refresh_usage(&state, &dataset);
    }
    Ok(Json(DatasetResponse {
        success: true,
        dataset: one_view(&state, &caller, dataset, level).await?,
    }))
}

/// Delete a dataset (edit access). Its files go with it when its deletion policy is Delete
/// (the operator's finalizer; without a cluster, the API), and stay with Retain.
#[utoipa::path(delete, path = "/v1/datasets/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "Dataset Deleted!", body = Done),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn delete_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (dataset, _) = load(&state, &caller, &id, Level::Edit).await?;
    if dataset.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    let in_cluster = state.kube.is_some() && dataset.asset.resource_name.is_some();
    if in_cluster {
        cluster::datasets::delete(&state, &dataset)
            .await
            .map_err(cluster_error)?;
    } else if dataset.details.deletes_data() {
        let (s3, _) = s3(&state)?;
        ludis_storage::delete_prefix(s3, &dataset.details.bucket, &dataset.details.prefix)
            .await
            .map_err(storage_error)?;
    }
    assets::delete(&state.db, &dataset.asset.id).await?;
    record(&state, &caller, &dataset.asset, "deleted").await;
    Ok(Done::new("Dataset Deleted!"))
}

// ---------------------------------------------------------------------------------------------
// Files

#[derive(Deserialize, ToSchema, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct ListFilesRequest {
    /// The folder to list, relative to the dataset ('' or '/' for the top).
    pub path: String,
    /// Entries per page, 1 to 1000 (default 100).
    pub limit: Option<i32>,
    /// The `NextContinuationToken` of the previous page.
    #[serde(
        alias = "nextContinuationToken",
        alias = "ContinuationToken",
        alias = "NextContinuationToken"
    )]
    pub continuation_token: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FileEntry {
    /// Relative to the dataset.
    pub key: String,
    pub size: i64,
    /// RFC 3339.
    pub last_modified: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FolderEntry {
    /// Relative to the dataset, ending in '/'.
    pub prefix: String,
}

/// One page of a folder, in the shape of S3's ListObjectsV2.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FileListing {
    #[serde(rename = "success")]
    pub success: bool,
    /// The dataset's name.
    pub name: String,
    /// The folder listed ('' for the top).
    pub prefix: String,
    pub contents: Vec<FileEntry>,
    pub common_prefixes: Vec<FolderEntry>,
    pub is_truncated: bool,
    pub continuation_token: Option<String>,
    pub next_continuation_token: Option<String>,
    /// Files on this page.
    pub file_count: i64,
    /// Files and folders on this page.
    pub key_count: i64,
}

/// A continuation token handed to clients: the storage server's token, bound to this dataset and
/// folder by an HMAC, so a token cannot be replayed against another dataset or folder.
fn seal_token(state: &AppState, dataset: &str, folder: &str, raw: &str) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let tag = ring::hmac::sign(
        &state.auth.jwt_key,
        token_message(dataset, folder, raw).as_bytes(),
    );
    format!("{}.{}", b64.encode(raw), b64.encode(tag.as_ref()))
}

fn token_message(dataset: &str, folder: &str, raw: &str) -> String {
    format!("dataset-list\0{dataset}\0{folder}\0{raw}")
}

fn open_token(state: &AppState, dataset: &str, folder: &str, token: &str) -> Result<String> {
    let invalid = || {
        bad(
            "invalid_token",
            "The continuation token is not valid for this folder",
        )
    };
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let (raw, tag) = token.trim().split_once('.').ok_or_else(invalid)?;
    let raw = String::from_utf8(b64.decode(raw).map_err(|_| invalid())?).map_err(|_| invalid())?;
    let tag = b64.decode(tag).map_err(|_| invalid())?;
    ring::hmac::verify(
        &state.auth.jwt_key,
        token_message(dataset, folder, &raw).as_bytes(),
        &tag,
    )
    .map_err(|_| invalid())?;
    Ok(raw)
}

/// One page of a folder of the dataset (view access): its files and its folders, with a token
/// for the next page.
#[utoipa::path(post, path = "/v1/datasets/listfiles/{id}", tag = "datasets", request_body = ListFilesRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = FileListing),
        (status = 400, description = "An invalid path or continuation token", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn list_files(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ListFilesRequest>,
) -> Result<Json<FileListing>> {
    let (dataset, _) = load(&state, &caller, &id, Level::View).await?;
    let folder = keys::folder(&req.path).map_err(path_error)?;
    let limit = req.limit.unwrap_or(LIST_LIMIT_DEFAULT).clamp(1, LIST_LIMIT_MAX);
    let token = match req
        .continuation_token
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        Some(t) => Some(open_token(&state, &dataset.asset.id, &folder, t)?),
        None => None,
    };
    let (s3, _) = s3(&state)?;
    let page = objects::list_page(
        s3,
        &dataset.details.bucket,
        &dataset.details.prefix,
        &folder,
        limit,
        token.as_deref(),
    )
    .await
    .map_err(storage_error)?;
    let file_count = page.files.len() as i64;
    let key_count = file_count + page.folders.len() as i64;
    Ok(Json(FileListing {
        success: true,
        name: dataset.asset.name.clone(),
        continuation_token: req.continuation_token.filter(|t| !t.trim().is_empty()),
        next_continuation_token: page
            .next_token
            .as_deref()
            .map(|t| seal_token(&state, &dataset.asset.id, &folder, t)),
        prefix: folder,
        contents: page
            .files
            .into_iter()
            .map(|f| FileEntry {
                key: f.key,
                size: f.size,
                last_modified: f.last_modified,
            })
            .collect(),
        common_prefixes: page
            .folders
            .into_iter()
            .map(|prefix| FolderEntry { prefix })
            .collect(),
        is_truncated: page.is_truncated,
        file_count,
        key_count,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct CreateDirectoryRequest {
    /// The dataset's id (also accepted as `id`).
    #[serde(alias = "id", alias = "datasetId")]
    pub dataset_id: String,
    /// The current folder ('' for the top).
    pub path: String,
    /// The new folder's name.
    pub name: String,
}

#[derive(Serialize, ToSchema)]
pub struct CreateDirectoryResponse {
    pub success: bool,
    pub message: String,
    /// The new folder, relative to the dataset, ending in '/'.
    #[serde(rename = "Key")]
    pub key: String,
}

/// Make a folder: the current folder plus the name plus '/' (edit access).
#[utoipa::path(post, path = "/v1/datasets/createdatasetdirectory", tag = "datasets", request_body = CreateDirectoryRequest,
    responses(
        (status = 200, description = "Folder created", body = CreateDirectoryResponse),
        (status = 400, description = "Empty folder name not allowed / an invalid path", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn create_directory(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateDirectoryRequest>,
) -> Result<Json<CreateDirectoryResponse>> {
    if req.dataset_id.trim().is_empty() {
        return Err(bad("id_required", "dataset_id (the dataset's id) is required"));
    }
    let (dataset, _) = load(&state, &caller, &req.dataset_id, Level::Edit).await?;
    if req.name.trim().is_empty() {
        return Err(bad("folder_name_required", EMPTY_FOLDER));
    }
    let key = keys::new_folder(&req.path, &req.name).map_err(path_error)?;
    let (s3, _) = s3(&state)?;
    objects::create_folder(s3, &dataset.details.bucket, &dataset.details.prefix, &key)
        .await
        .map_err(storage_error)?;
    Ok(Json(CreateDirectoryResponse {
        success: true,
        message: "Folder created".into(),
        key,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct DeleteObjectsRequest {
    /// One file, or a folder (ending in '/') with everything in it.
    pub path: Option<String>,
    /// Several files and folders.
    pub paths: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DeleteObjectsResponse {
    pub success: bool,
    pub message: String,
    /// Objects removed.
    pub deleted: i64,
}

/// Delete files, and folders with everything in them (edit access). Every path is checked before
/// anything is deleted.
#[utoipa::path(post, path = "/v1/datasets/deletedatasetobject/{id}", tag = "datasets", request_body = DeleteObjectsRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "File(s) Deleted!", body = DeleteObjectsResponse),
        (status = 400, description = "An invalid path / Choose a file or folder to delete", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn delete_objects(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<DeleteObjectsRequest>,
) -> Result<Json<DeleteObjectsResponse>> {
    let (dataset, _) = load(&state, &caller, &id, Level::Edit).await?;
    let named: Vec<&String> = req.path.iter().chain(req.paths.iter()).collect();
    if named.len() > DELETE_PATHS_MAX {
        return Err(ApiError::bad_request(
            "too_many_paths",
            format!("At most {DELETE_PATHS_MAX} paths can be deleted at once"),
        ));
    }
    let mut paths = Vec::with_capacity(named.len());
    for p in named {
        let key = keys::normalise(p).map_err(path_error)?;
        if key.is_empty() {
            return Err(bad("nothing_to_delete", NOTHING_TO_DELETE));
        }
        paths.push(key);
    }
    if paths.is_empty() {
        return Err(bad("nothing_to_delete", NOTHING_TO_DELETE));
    }
    paths.sort();
    paths.dedup();
    let (s3, _) = s3(&state)?;
    let mut deleted = 0usize;
    for key in &paths {
        deleted += objects::delete(s3, &dataset.details.bucket, &dataset.details.prefix, key)
            .await
            .map_err(storage_error)?;
    }
    refresh_usage(&state, &dataset);
    record(&state, &caller, &dataset.asset, "deleted files").await;
    Ok(Json(DeleteObjectsResponse {
        success: true,
        message: "File(s) Deleted!".into(),
        deleted: deleted as i64,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PresignRequest {
    /// The file, relative to the dataset.
    pub path: String,
    /// PUT (upload, edit access) or GET (download, view access); also `upload`/`download`.
    pub method: String,
}

#[derive(Serialize, ToSchema)]
pub struct PresignResponse {
    pub success: bool,
    /// The address, good for this one method and this one file.
    pub url: String,
    pub method: String,
    /// The file, relative to the dataset.
    pub key: String,
    /// Seconds the address is valid.
    pub expires_in: u64,
}

fn file_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// A presigned address to upload (PUT, 15 minutes, edit access) or download (GET, one hour, view
/// access) one file straight to or from object storage.
#[utoipa::path(post, path = "/v1/datasets/getpresignedurl/{id}", tag = "datasets", request_body = PresignRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = PresignResponse),
        (status = 400, description = "An invalid path or method", body = ErrorBody),
        (status = 403, description = "You need edit access (uploads)", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn presigned_url(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PresignRequest>,
) -> Result<Json<PresignResponse>> {
    let (method, need, expires) = match req.method.trim().to_uppercase().as_str() {
        "PUT" | "UPLOAD" => ("PUT", Level::Edit, presign::UPLOAD_EXPIRES),
        "" | "GET" | "DOWNLOAD" => ("GET", Level::View, presign::DOWNLOAD_EXPIRES),
        other => {
            return Err(ApiError::bad_request(
                "invalid_method",
                format!("Unknown method: {other} (PUT to upload, GET to download)"),
            ));
        }
    };
    let (dataset, _) = load(&state, &caller, &id, need).await?;
    let key = keys::file(&req.path).map_err(path_error)?;
    let (_, presigner) = s3(&state)?;
    let absolute = keys::absolute(&dataset.details.prefix, &key);
    let download_name = (method == "GET").then(|| file_name(&key));
    let url = presigner
        .url(method, &dataset.details.bucket, &absolute, expires, download_name)
        .map_err(|e| ApiError::internal(format!("failed to presign: {e}")))?;
    if method == "PUT" {
        record(&state, &caller, &dataset.asset, "uploaded").await;
    }
    Ok(Json(PresignResponse {
        success: true,
        url,
        method: method.into(),
        key,
        expires_in: expires.as_secs(),
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PathRequest {
    /// The file, relative to the dataset.
    pub path: String,
}

#[derive(Serialize, ToSchema)]
pub struct PreviewResponse {
    pub success: bool,
    /// The file, relative to the dataset.
    pub key: String,
    /// Its size in bytes.
    pub size: i64,
    #[schema(value_type = Object)]
    pub preview: preview::Preview,
}

/// The first rows of a csv, json, xml or txt file, or of the first sheet of an xlsx or xls
/// workbook (view access). Text formats read at most the first MiB; workbooks up to 20 MB.
#[utoipa::path(post, path = "/v1/datasets/getfilepreview/{id}", tag = "datasets", request_body = PathRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = PreviewResponse),
        (status = 400, description = "An invalid path, a type without preview, a workbook too large or not valid", body = ErrorBody),
        (status = 404, description = "Dataset not found / File not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn file_preview(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PathRequest>,
) -> Result<Json<PreviewResponse>> {
    let (dataset, _) = load(&state, &caller, &id, Level::View).await?;
    let key = keys::file(&req.path).map_err(path_error)?;
    let format = preview::format_of(&key).ok_or_else(|| {
        bad(
            "preview_unsupported",
            "Preview is available for .csv, .json, .xml, .txt, .xlsx and .xls files",
        )
    })?;
    let spreadsheet = matches!(format, preview::Format::Xlsx | preview::Format::Xls);
    let max = if spreadsheet {
        preview::SHEET_MAX_BYTES
    } else {
        preview::TEXT_MAX_BYTES
    };
    let (s3, _) = s3(&state)?;
    let (bucket, prefix) = (&dataset.details.bucket, &dataset.details.prefix);
    if spreadsheet {
        // A workbook is read whole: refuse a large one before downloading anything.
        match objects::head(s3, bucket, prefix, &key)
            .await
            .map_err(storage_error)?
        {
            None => return Err(ApiError::not_found("file_not_found", FILE_NOT_FOUND)),
            Some(size) if size > max as i64 => {
                return Err(bad(
                    "preview_too_large",
                    "The file is too large to preview (spreadsheets up to 20 MB)",
                ));
            }
            Some(_) => {}
        }
    }
    let (bytes, size) = objects::read_head(s3, bucket, prefix, &key, max)
        .await
        .map_err(storage_error)?
        .ok_or_else(|| ApiError::not_found("file_not_found", FILE_NOT_FOUND))?;
    let complete = bytes.len() as i64 >= size;
    let worker = state.settings.preview_worker.clone();
    let preview = tokio::task::spawn_blocking(move || {
        if spreadsheet {
            // Workbook readers trust sizes written in the file: a crafted one can make them
            // abort the process on an impossible allocation, or run for long. A child process
            // (killed after PREVIEW_TIMEOUT) takes that risk instead of the server.
            if worker.is_empty() {
                preview::preview_isolated(format, &bytes, complete, PREVIEW_TIMEOUT)
            } else {
                preview::preview_in_worker(
                    std::path::Path::new(&worker),
                    format,
                    &bytes,
                    complete,
                    PREVIEW_TIMEOUT,
                )
            }
        } else {
            preview::preview(format, &bytes, complete)
        }
    })
    .await
    .map_err(|e| ApiError::internal(format!("the preview task failed: {e}")))?
    .map_err(|e| ApiError::bad_request("preview_failed", e.to_string()))?;
    Ok(Json(PreviewResponse {
        success: true,
        key,
        size,
        preview,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct AccessUrlResponse {
    pub success: bool,
    /// Anyone with it can download the file for 7 days; no key needed.
    pub temporary_url: String,
    /// When the temporary URL stops working (Unix seconds).
    pub expires_at: i64,
    /// Never expires; needs the header `x-api-key: <your API key>` (your access is checked on
    /// every use).
    pub permanent_url: String,
}

/// Where the API is reached: `LUDIS_PUBLIC_URL`, else this request's host and scheme.
fn public_base(state: &AppState, headers: &HeaderMap) -> String {
    let configured = state.settings.public_url.trim().trim_end_matches('/');
    if !configured.is_empty() {
        return configured.to_owned();
    }
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(',').next().unwrap_or(v).trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let host = header("x-forwarded-host")
        .or_else(|| header(header::HOST.as_str()))
        .unwrap_or_else(|| state.settings.listen.to_string());
    let scheme = header("x-forwarded-proto")
        .filter(|p| p == "https" || p == "http")
        .unwrap_or_else(|| "http".into());
    format!("{scheme}://{host}")
}

/// Percent-encodes a query value (everything but unreserved characters).
fn query_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The two access URLs of a file (view access): a temporary one valid 7 days that needs no key,
/// and a permanent one that needs the user's API key and never expires.
#[utoipa::path(post, path = "/v1/datasets/get/ludisurl/{id}", tag = "datasets", request_body = PathRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = AccessUrlResponse),
        (status = 400, description = "An invalid path", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn access_url(
    State(state): State<AppState>,
    caller: AuthUser,
    headers: HeaderMap,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PathRequest>,
) -> Result<Json<AccessUrlResponse>> {
    let (dataset, _) = load(&state, &caller, &id, Level::View).await?;
    let key = keys::file(&req.path).map_err(path_error)?;
    let (_, presigner) = s3(&state)?;
    let absolute = keys::absolute(&dataset.details.prefix, &key);
    let temporary_url = presigner
        .url(
            "GET",
            &dataset.details.bucket,
            &absolute,
            presign::ACCESS_URL_EXPIRES,
            None,
        )
        .map_err(|e| ApiError::internal(format!("failed to presign: {e}")))?;
    Ok(Json(AccessUrlResponse {
        success: true,
        temporary_url,
        expires_at: db::now() + presign::ACCESS_URL_EXPIRES.as_secs() as i64,
        permanent_url: format!(
            "{}/v1/datasets/download/{}?path={}",
            public_base(&state, &headers),
            dataset.asset.id,
            query_encode(&key)
        ),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DownloadQuery {
    /// The file, relative to the dataset.
    pub path: String,
}

/// The permanent URL of a file: with an API key (`x-api-key`) or a bearer token and view access,
/// a redirect to a fresh presigned download (one hour).
#[utoipa::path(get, path = "/v1/datasets/download/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id"), DownloadQuery),
    responses(
        (status = 302, description = "To a presigned download"),
        (status = 401, description = "No or an invalid API key", body = ErrorBody),
        (status = 404, description = "Dataset not found / File not found", body = ErrorBody),
    ),
    security(("api_key" = []), ("bearer" = [])))]
async fn download(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<DownloadQuery>,
) -> Result<Response> {
    let (dataset, _) = load(&state, &caller, &id, Level::View).await?;
    let key = keys::file(&q.path).map_err(path_error)?;
    let (s3, presigner) = s3(&state)?;
    let (bucket, prefix) = (&dataset.details.bucket, &dataset.details.prefix);
    if objects::head(s3, bucket, prefix, &key)
        .await
        .map_err(storage_error)?
        .is_none()
    {
        return Err(ApiError::not_found("file_not_found", FILE_NOT_FOUND));
    }
    let url = presigner
        .url(
            "GET",
            bucket,
            &keys::absolute(prefix, &key),
            presign::DOWNLOAD_EXPIRES,
            Some(file_name(&key)),
        )
        .map_err(|e| ApiError::internal(format!("failed to presign: {e}")))?;
    Ok(Redirect::to(&url).into_response())
}

// ---------------------------------------------------------------------------------------------
// Sharing and configuration

/// Share a dataset with people or its organization at view or edit (never execute), or unshare
/// (edit access). The body is `POST /v1/applications/share`'s; the entity type is Dataset.
#[utoipa::path(post, path = "/v1/datasets/share", tag = "datasets", request_body = shares::ShareRequest,
    responses(
        (status = 200, description = "Dataset shared!", body = Done),
        (status = 400, description = "Cannot share to yourself! / Email is invalid! / execute is not offered on datasets / …", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn share_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(mut req): AppJson<shares::ShareRequest>,
) -> Result<Json<Done>> {
    req.share.entity_type = "Dataset".into();
    shares::share(State(state), caller, AppJson(req)).await
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShareListQuery {
    /// The dataset's id.
    #[serde(alias = "id", alias = "datasetId", alias = "entity_id")]
    pub dataset_id: String,
}

/// Who has access to a dataset (view access): `GET /v1/shares/sharedwith/{id}` for a dataset.
#[utoipa::path(get, path = "/v1/datasets/share/list", tag = "datasets", params(ShareListQuery),
    responses(
        (status = 200, body = shares::SharedWithResponse),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn share_list(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ShareListQuery>,
) -> Result<Json<shares::SharedWithResponse>> {
    shares::shared_with(
        State(state),
        caller,
        AppPath(q.dataset_id),
        AppQuery(shares::SharedWithQuery {
            entity_type: Some("dataset".into()),
        }),
    )
    .await
}

#[derive(Serialize, ToSchema)]
pub struct DatasetsConfig {
    /// The caller's organization's bucket.
    pub bucket: String,
    pub region: String,
    pub upload_expires_in: u64,
    pub download_expires_in: u64,
    pub access_url_expires_in: u64,
    pub max_list_limit: i32,
    pub default_list_limit: i32,
    pub accepted_extensions: Vec<String>,
    pub preview_rows: usize,
    /// Whether object storage is configured (uploads and downloads work).
    pub storage: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ConfigResponse {
    pub success: bool,
    pub config: DatasetsConfig,
}

/// What the console needs to know about dataset storage (never a secret).
#[utoipa::path(post, path = "/v1/datasets/getConfig", tag = "datasets",
    responses((status = 200, body = ConfigResponse)),
    security(("bearer" = []), ("api_key" = [])))]
async fn get_config(State(state): State<AppState>, caller: AuthUser) -> Result<Json<ConfigResponse>> {
    let bucket = cluster::datasets::bucket_of(&state, &caller.user.organization_id)
        .await
        .map_err(|e| ApiError::internal(format!("{e:#}")))?;
    Ok(Json(ConfigResponse {
        success: true,
        config: DatasetsConfig {
            bucket,
            region: state.settings.s3_region.clone(),
            upload_expires_in: presign::UPLOAD_EXPIRES.as_secs(),
            download_expires_in: presign::DOWNLOAD_EXPIRES.as_secs(),
            access_url_expires_in: presign::ACCESS_URL_EXPIRES.as_secs(),
            max_list_limit: LIST_LIMIT_MAX,
            default_list_limit: LIST_LIMIT_DEFAULT,
            accepted_extensions: ACCEPTED_EXTENSIONS.iter().map(|e| (*e).to_owned()).collect(),
            preview_rows: preview::PREVIEW_ROWS,
            storage: state.s3.is_some(),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_and_unknown_ones_are_refused() {
        assert_eq!(parse_filter(None).unwrap(), (Filter::All, false));
        assert_eq!(
            parse_filter(Some("Created by me")).unwrap(),
            (Filter::Owned, false)
        );
        assert_eq!(parse_filter(Some("shared")).unwrap(), (Filter::Shared, false));
        assert_eq!(parse_filter(Some("sample")).unwrap(), (Filter::All, true));
        assert!(parse_filter(Some("starred")).is_err());
    }

    #[test]
    fn deletion_policies_parse() {
        assert_eq!(deletion_policy(None).unwrap(), "Retain");
        assert_eq!(deletion_policy(Some("delete")).unwrap(), "Delete");
        assert!(deletion_policy(Some("keep")).is_err());
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(query_encode("a b/ü&c.csv"), "a%20b%2F%C3%BC%26c.csv");
    }

    #[test]
    fn file_names_are_the_last_segment() {
        assert_eq!(file_name("a/b/c.csv"), "c.csv");
        assert_eq!(file_name("c.csv"), "c.csv");
    }
}
