//! What the console needs to know about datasets (accepted files, limits).

use super::*;

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
pub struct DatasetsConfigResponse {
    pub success: bool,
    pub config: DatasetsConfig,
}

/// What the console needs to know about dataset storage (never a secret).
#[utoipa::path(post, path = "/v1/datasets/getConfig", tag = "datasets",
    responses((status = 200, body = DatasetsConfigResponse)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn get_datasets_config(
    State(state): State<AppState>,
    caller: AuthUser,
) -> Result<Json<DatasetsConfigResponse>> {
    let bucket = cluster::organizations::bucket_of(&state, &caller.user.organization_id)
        .await
        .map_err(|e| ApiError::internal(format!("{e:#}")))?;
    Ok(Json(DatasetsConfigResponse {
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
