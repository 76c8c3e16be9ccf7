//! One's own profile extras: the photo upload address, source-control details, the API key.

use super::*;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PresignQuery {
    /// Informational (the key is derived from the caller's uid).
    #[allow(dead_code)]
    pub user_name: Option<String>,
    /// `.png`, `.jpg` or `.jpeg`.
    pub ext: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PresignedPhoto {
    /// PUT the image here within 15 minutes.
    pub presigned_url: String,
    /// Save this as `photo_path` with `PUT /v1/users/{id}`.
    pub photo_path: String,
}

#[derive(Serialize, ToSchema)]
pub struct PhotoUploadResponse {
    pub success: bool,
    pub urls: Vec<PresignedPhoto>,
}

/// A presigned PUT address for a new profile photo (png, jpg or jpeg), valid 15 minutes, bound
/// to one key under `user asset images/<uid>/`.
#[utoipa::path(get, path = "/v1/users/presign_url", tag = "users", params(PresignQuery),
    responses(
        (status = 200, body = PhotoUploadResponse),
        (status = 400, description = "Only png, jpg and jpeg images are allowed", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn presign_photo_url(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<PresignQuery>,
) -> Result<Json<PhotoUploadResponse>> {
    let ext = q
        .ext
        .unwrap_or_default()
        .trim()
        .trim_start_matches('.')
        .to_lowercase();
    if !["png", "jpg", "jpeg"].contains(&ext.as_str()) {
        return Err(ApiError::bad_request(
            "invalid_image_type",
            "Only png, jpg and jpeg images are allowed",
        ));
    }
    let s3 = state
        .s3
        .as_ref()
        .ok_or_else(|| ApiError::unavailable("storage_not_configured", "Object storage is not configured"))?;
    let key = format!("{PHOTO_PREFIX}/{}/{}.{ext}", caller.user.uid, db::new_id());
    let config = aws_sdk_s3::presigning::PresigningConfig::expires_in(Duration::from_secs(15 * 60))
        .map_err(|e| ApiError::internal(format!("presigning config: {e}")))?;
    let presigned = s3
        .put_object()
        .bucket(&state.settings.s3_bucket)
        .key(&key)
        .presigned(config)
        .await
        .map_err(|e| ApiError::internal(format!("failed to presign a photo upload: {e}")))?;
    Ok(Json(PhotoUploadResponse {
        success: true,
        urls: vec![PresignedPhoto {
            presigned_url: presigned.uri().to_owned(),
            photo_path: key,
        }],
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct GitDetailRequest {
    pub git_username: Option<String>,
    pub git_token: Option<String>,
}

/// Save (both) or clear (neither) one's source-control username and token; the token is
/// encrypted at rest and never returned.
#[utoipa::path(put, path = "/v1/git_detail", tag = "users", request_body = GitDetailRequest,
    responses(
        (status = 200, description = "Profile updated successfully!", body = Done),
        (status = 400, description = "Please enter both the Git username and the personal access token", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn update_git_detail(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<GitDetailRequest>,
) -> Result<Json<Done>> {
    let pair = git_pair(req.git_username.as_deref(), req.git_token.as_deref())?;
    let (username, token) = match pair {
        Some((u, t)) => (Some(u), Some(state.auth.keyring.encrypt(&t))),
        None => (None, None),
    };
    users::set_git(&state.db, &caller.user.uid, username, token, db::now()).await?;
    Ok(Done::new("Profile updated successfully!"))
}

#[derive(Serialize, ToSchema)]
pub struct ApiKeyResponse {
    pub success: bool,
    pub message: String,
    /// Send as the `x-api-key` header.
    pub api_key: String,
}

/// Create or rotate one's API key (the old one stops working). Only in a full session (signed in
/// with the password, and the 2FA code where enabled), never with an API key.
#[utoipa::path(post, path = "/v1/users/{id}/api_key", tag = "users", params(("id" = String, Path)),
    responses(
        (status = 200, body = ApiKeyResponse),
        (status = 403, description = "Only the user can create their API key / This needs a signed-in session: an API key is not enough", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn create_api_key(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<ApiKeyResponse>> {
    if id != caller.user.uid {
        // Keys are personal: other users' keys cannot be read or made.
        visible_user(&state, &caller, &id).await?;
        return Err(ApiError::forbidden(
            "api_key_self_only",
            "Only the user can create their API key",
        ));
    }
    caller.require_session()?;
    let key = format!("ludis_{}", crypto::random_token(32));
    let (key_enc, key_hash) = (state.auth.keyring.encrypt(&key), crypto::sha256_hex(&key));
    users::set_api_key(&state.db, &caller.user.uid, &key_enc, &key_hash, db::now()).await?;
    Ok(Json(ApiKeyResponse {
        success: true,
        message: "API key created".into(),
        api_key: key,
    }))
}

/// Revoke a user's API key (the user, or an administrator of their organization).
#[utoipa::path(delete, path = "/v1/users/{id}/api_key", tag = "users", params(("id" = String, Path)),
    responses((status = 200, description = "API key revoked", body = Done), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn revoke_api_key(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let target = visible_user(&state, &caller, &id).await?;
    if target.uid != caller.user.uid {
        policy::users::check_update(caller.person(), person(&target), Changes::default())?;
    }
    users::clear_api_key(&state.db, &target.uid, db::now()).await?;
    Ok(Done::new("API key revoked"))
}
