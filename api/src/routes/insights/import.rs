//! Importing a report: a PDF upload, spooled to disk and stored in object storage.

use super::*;

pub(super) fn multipart_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
            "The file is too large (limit 50 MiB)",
        )
    } else {
        ApiError::bad_request("invalid_body", format!("Invalid form: {}", e.body_text()))
    }
}

/// The stored name of an uploaded file: its last path segment with only letters, digits, `.`,
/// `-` and `_` (others become `_`), ending in `.pdf`.
pub fn report_file_name(name: Option<&str>) -> String {
    let base = name
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let mut clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    clean = clean.trim_start_matches('.').to_owned();
    if clean.is_empty() || clean.chars().all(|c| c == '_' || c == '.') {
        clean = "report".into();
    }
    if !clean.to_lowercase().ends_with(".pdf") {
        clean.push_str(".pdf");
    }
    clean
}

/// Import a PDF report (multipart form: name, description, file [, img_path]; at most 50 MiB).
/// The file is stored in the assets bucket under `reports/<insight id>/<file name>`.
#[utoipa::path(post, path = "/v1/applications/importreport", tag = "insights",
    request_body(content = ImportReportForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Report has successfully imported.", body = InsightMessage),
        (status = 400, description = "Empty name not allowed / Empty description not allowed / Attach a file / Only PDF files can be imported", body = ErrorBody),
        (status = 413, description = "The file is too large (limit 50 MiB)", body = ErrorBody),
        (status = 502, description = "The object storage or the cluster refused the report", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn import_report(
    State(state): State<AppState>,
    caller: AuthUser,
    form: std::result::Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let mut form = form.map_err(|e| {
        ApiError::bad_request(
            "invalid_body",
            format!("Expected a multipart/form-data body: {}", e.body_text()),
        )
    })?;
    let (mut name, mut description, mut img_path) = (String::new(), String::new(), String::new());
    let mut file: Option<(Option<String>, Spooled)> = None;
    while let Some(mut field) = form.next_field().await.map_err(multipart_error)? {
        match field.name().unwrap_or_default() {
            "name" => name = field.text().await.map_err(multipart_error)?,
            "description" => description = field.text().await.map_err(multipart_error)?,
            "img_path" => img_path = field.text().await.map_err(multipart_error)?,
            "file" => {
                let file_name = field.file_name().map(str::to_owned);
                file = Some((file_name, spool(&mut field).await?));
            }
            _ => {}
        }
    }
    let name = required_text(&name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = required_text(
        &description,
        EMPTY_DESCRIPTION,
        "description_required",
        DESCRIPTION_MAX,
    )?;
    let (file_name, spooled) = file
        .filter(|(_, f)| f.size > 0)
        .ok_or_else(|| bad("file_required", "Attach a file"))?;
    if !spooled.head.starts_with(b"%PDF-") {
        return Err(bad("not_a_pdf", "Only PDF files can be imported"));
    }
    let body = aws_sdk_s3::primitives::ByteStream::from_path(spooled.file.path())
        .await
        .map_err(|e| ApiError::internal(format!("failed to read the spooled report: {e}")))?;
    let img_path = image_path(&img_path, &caller.user.uid)?;
    let s3 = state
        .s3
        .clone()
        .ok_or_else(|| ApiError::unavailable("storage_not_configured", "Object storage is not configured"))?;

    let id = db::new_id();
    let key = insights::report_key(&id, &report_file_name(file_name.as_deref()));
    s3.put_object()
        .bucket(&state.settings.s3_bucket)
        .key(&key)
        .content_type("application/pdf")
        .body(body)
        .send()
        .await
        .map_err(|e| {
            tracing::error!(key, error = %aws_sdk_s3::error::DisplayErrorContext(&e), "failed to store an imported report");
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "storage_error",
                "The object storage refused the report",
            )
        })?;
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id,
            app_type: AppType::UserReport,
            status: InsightStatus::Uploaded,
            language: Language::Python,
            report_object: Some(key.clone()),
            ..Default::default()
        },
    )
    .await?;
    let created = create(&state, &caller, insight, "Report has successfully imported.").await;
    if created.is_err()
        && let Err(e) = s3
            .delete_object()
            .bucket(&state.settings.s3_bucket)
            .key(&key)
            .send()
            .await
    {
        tracing::warn!(key, error = %aws_sdk_s3::error::DisplayErrorContext(&e), "failed to remove the file of a report that was not created");
    }
    created
}

/// An uploaded report, written to a temporary file as it arrives (never held in memory whole;
/// removed when dropped), with its size and first bytes.
pub(super) struct Spooled {
    file: tempfile::NamedTempFile,
    size: usize,
    head: Vec<u8>,
}

pub(super) async fn spool(field: &mut axum::extract::multipart::Field<'_>) -> Result<Spooled> {
    use tokio::io::AsyncWriteExt as _;
    let file = tempfile::Builder::new()
        .prefix("ludis-report-")
        .tempfile()
        .map_err(|e| ApiError::internal(format!("failed to make a temporary file: {e}")))?;
    let mut out = tokio::fs::File::from_std(
        file.reopen()
            .map_err(|e| ApiError::internal(format!("failed to open the temporary file: {e}")))?,
    );
    let (mut size, mut head) = (0usize, Vec::with_capacity(5));
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        size += chunk.len();
        if size > REPORT_MAX_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "file_too_large",
                "The file is too large (limit 50 MiB)",
            ));
        }
        let want = 5usize.saturating_sub(head.len()).min(chunk.len());
        head.extend_from_slice(&chunk[..want]);
        out.write_all(&chunk)
            .await
            .map_err(|e| ApiError::internal(format!("failed to spool the report: {e}")))?;
    }
    out.flush()
        .await
        .map_err(|e| ApiError::internal(format!("failed to spool the report: {e}")))?;
    Ok(Spooled { file, size, head })
}

// ---------------------------------------------------------------------------------------------
// Update and delete
