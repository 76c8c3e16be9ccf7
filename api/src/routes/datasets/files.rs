//! A dataset's files and folders: listing page by page (tokens bound to the folder), creating
//! folders, deleting objects.

use super::*;

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
pub(super) fn seal_token(state: &AppState, dataset: &str, folder: &str, raw: &str) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let tag = ring::hmac::sign(
        &state.auth.jwt_key,
        token_message(dataset, folder, raw).as_bytes(),
    );
    format!("{}.{}", b64.encode(raw), b64.encode(tag.as_ref()))
}

pub(super) fn token_message(dataset: &str, folder: &str, raw: &str) -> String {
    format!("dataset-list\0{dataset}\0{folder}\0{raw}")
}

pub(super) fn open_token(state: &AppState, dataset: &str, folder: &str, token: &str) -> Result<String> {
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
pub(super) async fn list_files(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ListFilesRequest>,
) -> Result<Json<FileListing>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::View).await?;
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
    /// The dataset's id (or send it as `id`).
    #[serde(alias = "datasetId")]
    pub dataset_id: Option<String>,
    /// The dataset's id, when `dataset_id` is not sent.
    pub id: Option<String>,
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
pub(super) async fn create_directory(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateDirectoryRequest>,
) -> Result<Json<CreateDirectoryResponse>> {
    let dataset_id = [&req.dataset_id, &req.id]
        .into_iter()
        .flatten()
        .map(|i| i.trim())
        .find(|i| !i.is_empty())
        .ok_or_else(|| bad("id_required", "dataset_id (the dataset's id) is required"))?;
    let (dataset, _) = load(&state, &caller, dataset_id, AccessLevel::Edit).await?;
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
pub(super) async fn delete_objects(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<DeleteObjectsRequest>,
) -> Result<Json<DeleteObjectsResponse>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
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
    Activity::on_asset(&caller.user, &dataset.asset, ActivityAction::DeletedFiles)
        .record(&state.db)
        .await;
    Ok(Json(DeleteObjectsResponse {
        success: true,
        message: "File(s) Deleted!".into(),
        deleted: deleted as i64,
    }))
}
