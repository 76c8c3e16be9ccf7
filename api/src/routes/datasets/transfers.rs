//! Files in and out through object storage: presigned URLs bound to one key and method, the
//! dataset's access URLs and the permanent download address.

use super::*;

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PresignRequest {
    /// The file, relative to the dataset.
    pub path: String,
    /// PUT (upload, edit access) or GET (download, view access); also `upload`/`download`.
    #[schema(value_type = PresignMethod)]
    pub method: String,
}

/// The method a presigned address is good for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum PresignMethod {
    /// Upload (edit access).
    #[serde(rename = "PUT")]
    Put,
    /// Download (view access).
    #[serde(rename = "GET")]
    Get,
}

impl PresignMethod {
    fn as_str(self) -> &'static str {
        match self {
            Self::Put => "PUT",
            Self::Get => "GET",
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct DatasetPresignResponse {
    pub success: bool,
    /// The address, good for this one method and this one file.
    pub url: String,
    pub method: PresignMethod,
    /// The file, relative to the dataset.
    pub key: String,
    /// Seconds the address is valid.
    pub expires_in: u64,
}

pub(super) fn file_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// A presigned address to upload (PUT, 15 minutes, edit access) or download (GET, one hour, view
/// access) one file straight to or from object storage.
#[utoipa::path(post, path = "/v1/datasets/getpresignedurl/{id}", tag = "datasets", request_body = PresignRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = DatasetPresignResponse),
        (status = 400, description = "An invalid path or method", body = ErrorBody),
        (status = 403, description = "You need edit access (uploads)", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn presigned_url(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PresignRequest>,
) -> Result<Json<DatasetPresignResponse>> {
    let (method, need, expires) = match req.method.trim().to_uppercase().as_str() {
        "PUT" | "UPLOAD" => (PresignMethod::Put, AccessLevel::Edit, presign::UPLOAD_EXPIRES),
        "" | "GET" | "DOWNLOAD" => (PresignMethod::Get, AccessLevel::View, presign::DOWNLOAD_EXPIRES),
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
    let download_name = (method == PresignMethod::Get).then(|| file_name(&key));
    let url = presigner
        .url(
            method.as_str(),
            &dataset.details.bucket,
            &absolute,
            expires,
            download_name,
        )
        .await
        .map_err(|e| ApiError::internal(format!("failed to presign: {e}")))?;
    if method == PresignMethod::Put {
        Activity::on_asset(&caller.user, &dataset.asset, ActivityAction::Uploaded)
            .record(&state.db)
            .await;
    }
    Ok(Json(DatasetPresignResponse {
        success: true,
        url,
        method,
        key,
        expires_in: expires.as_secs(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct AccessUrlResponse {
    pub success: bool,
    /// Anyone with it can download the file for 7 days, no key needed — until the dataset's
    /// editors revoke it, the dataset is deleted or its maker loses access.
    pub temporary_url: String,
    /// When the temporary URL stops working (Unix seconds).
    pub expires_at: i64,
    /// Never expires; needs the header `x-api-key: <your API key>` (your access is checked on
    /// every use).
    pub permanent_url: String,
    /// The permanent URL as a project's container reaches this API (the snippets shown in a
    /// project use it); null when the API does not know where pods reach it.
    #[schema(required)]
    pub pod_url: Option<String>,
}

/// Where the API is reached: `LUDIS_PUBLIC_URL`, else this request's host and scheme.
pub(super) fn public_base(state: &AppState, headers: &HeaderMap) -> String {
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

/// The permanent download address of `key` of dataset `id` on the API at `base`.
fn download_url(base: &str, id: &str, key: &str) -> String {
    format!("{base}/v1/datasets/download/{id}?path={}", query_encode(key))
}

/// Percent-encodes a query value (everything but unreserved characters).
pub(super) fn query_encode(s: &str) -> String {
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

/// The two access URLs of a file (view access): a temporary one valid 7 days that needs no key
/// (listed to the dataset's editors, who may revoke it; it dies with the dataset and with its
/// maker's access), and a permanent one that needs the user's API key and never expires.
#[utoipa::path(post, path = "/v1/datasets/get/ludisurl/{id}", tag = "datasets", request_body = PathRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = AccessUrlResponse),
        (status = 400, description = "An invalid path", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn access_url(
    State(state): State<AppState>,
    caller: AuthUser,
    headers: HeaderMap,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PathRequest>,
) -> Result<Json<AccessUrlResponse>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::View).await?;
    let key = keys::file(&req.path).map_err(path_error)?;
    s3(&state)?;
    let base = public_base(&state, &headers);
    let (temporary_url, expires_at) = super::links::create(&state, &caller, &dataset, &key, &base).await?;
    Ok(Json(AccessUrlResponse {
        success: true,
        temporary_url,
        expires_at,
        permanent_url: download_url(&base, &dataset.asset.id, &key),
        pod_url: state
            .settings
            .pod_api_base()
            .map(|base| download_url(base, &dataset.asset.id, &key)),
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
pub(super) async fn download(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<DownloadQuery>,
) -> Result<Response> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::View).await?;
    let key = keys::file(&q.path).map_err(path_error)?;
    redirect_to_file(&state, &dataset, &key, presign::DOWNLOAD_EXPIRES).await
}

/// A redirect to a presigned download of `key` of `dataset`, valid `expires` (404 'File not
/// found' when there is no such file).
pub(super) async fn redirect_to_file(
    state: &AppState,
    dataset: &Dataset,
    key: &str,
    expires: std::time::Duration,
) -> Result<Response> {
    let (s3, presigner) = s3(state)?;
    let (bucket, prefix) = (&dataset.details.bucket, &dataset.details.prefix);
    if objects::head(s3, bucket, prefix, key)
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
            &keys::absolute(prefix, key),
            expires,
            Some(file_name(key)),
        )
        .await
        .map_err(|e| ApiError::internal(format!("failed to presign: {e}")))?;
    Ok(Redirect::to(&url).into_response())
}

// ---------------------------------------------------------------------------------------------
// Sharing and configuration
