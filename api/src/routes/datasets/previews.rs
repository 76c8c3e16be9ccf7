//! Previews: the first rows of a file of each accepted type.

use super::*;

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
pub(super) async fn file_preview(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PathRequest>,
) -> Result<Json<PreviewResponse>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::View).await?;
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
