//! For the wizard, before the app exists: the data files a template app can read from a dataset
//! (its `.csv`, `.xlsx` and `.xls` files at the top level, with their sizes and the default), and
//! whether one of them fits the row bound.

use axum::{Json, extract::State};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    FileQuery, Refusal, refusal,
    source::{self, Source},
};
use crate::{
    assets,
    auth::AuthUser,
    db::datasets::DatasetRow,
    domain::AccessLevel,
    error::{AppPath, AppQuery, ErrorBody, Result},
    state::AppState,
    templates::{TemplateError, table},
};

#[derive(Serialize, ToSchema)]
pub struct DataFileView {
    /// Relative to the dataset.
    pub file: String,
    /// Bytes.
    pub size: i64,
    /// The size as the console writes it ("26.40 MB"), as the template calls' messages do.
    pub size_text: String,
}

#[derive(Serialize, ToSchema)]
pub struct DataFilesResponse {
    pub success: bool,
    /// In key order, at most 1,000.
    pub files: Vec<DataFileView>,
    /// What an app reads when no file is chosen: the first `.csv`, else the first workbook; null
    /// without any.
    #[schema(required)]
    pub default_file: Option<String>,
    /// The most rows a template app reads (`LUDIS_TEMPLATE_MAX_ROWS`).
    pub max_rows: usize,
}

/// The `.csv`, `.xlsx` and `.xls` files at the top of a dataset, for the template wizard (view on
/// the dataset).
#[utoipa::path(get, path = "/v1/templates/datasets/{id}/files", tag = "templates",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = DataFilesResponse),
        (status = 404, description = "Dataset not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn data_files(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<DataFilesResponse>> {
    let (dataset, _) = assets::load::<DatasetRow>(&state, &caller.user, id.trim(), AccessLevel::View).await?;
    let files = source::data_files(&state, &dataset.details.bucket, &dataset.details.prefix).await?;
    let default_file = source::default_file(files.clone()).map(|f| f.key);
    Ok(Json(DataFilesResponse {
        success: true,
        files: files
            .into_iter()
            .map(|f| DataFileView {
                size_text: refusal::size_text(f.size),
                file: f.key,
                size: f.size,
            })
            .collect(),
        default_file,
        max_rows: state.templates.max_rows(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct RowCheck {
    pub success: bool,
    pub file: String,
    pub size: i64,
    /// The file's data rows; null when it has more than `max_rows`.
    #[schema(required)]
    pub rows: Option<usize>,
    pub max_rows: usize,
    /// Whether template apps can read it.
    pub fits: bool,
    /// Why not, as the template calls would answer (422); null when it fits.
    #[schema(required)]
    pub message: Option<String>,
}

/// Whether a data file of a dataset fits the row bound of template apps, for the wizard (view on
/// the dataset). Counting stops one row past the bound.
#[utoipa::path(get, path = "/v1/templates/datasets/{id}/rows", tag = "templates",
    params(("id" = String, Path, description = "Dataset id"), FileQuery),
    responses(
        (status = 200, body = RowCheck),
        (status = 400, description = "Not a .csv, .xlsx or .xls file / an unreadable file", body = ErrorBody),
        (status = 404, description = "Dataset or file not found (or no access)", body = ErrorBody),
        (status = 503, description = "Every template worker stayed busy (Retry-After), or the time bound was passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn check_rows(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<FileQuery>,
) -> std::result::Result<Json<RowCheck>, Refusal> {
    let source = Source::of_dataset(&state, &caller, &id, q.file.as_deref()).await?;
    let rows = source
        .read(&state, &caller, |r, limits| match table::count(r, limits) {
            Ok(n) => Ok(Some(n)),
            Err(TemplateError::TooManyRows { .. }) => Ok(None),
            Err(e) => Err(e),
        })
        .await?;
    let max_rows = state.templates.max_rows();
    let message = rows
        .is_none()
        .then(|| refusal::too_many_rows(&source.facts(), max_rows));
    Ok(Json(RowCheck {
        success: true,
        fits: rows.is_some(),
        file: source.key,
        size: source.size,
        rows,
        max_rows,
        message,
    }))
}
