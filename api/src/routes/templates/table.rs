//! The app's data file as a table: its column names, and a page of its rows with its row count.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{FileQuery, PAGE_DEFAULT, PAGE_MAX, Refusal, bad, source::Source};
use crate::{
    auth::AuthUser,
    error::{AppJson, AppPath, AppQuery, ErrorBody},
    state::AppState,
    templates::table,
};

#[derive(Serialize, ToSchema)]
pub struct ColumnsResponse {
    pub success: bool,
    /// The data file, relative to the dataset.
    pub file: String,
    pub columns: Vec<String>,
}

/// The data file's column names (view on the app and its dataset).
#[utoipa::path(get, path = "/v1/templates/col.names/{id}", tag = "templates",
    params(("id" = String, Path, description = "Template app id"), FileQuery),
    responses(
        (status = 200, body = ColumnsResponse),
        (status = 400, description = "Not a template app / no .csv, .xlsx or .xls file / an unreadable file", body = ErrorBody),
        (status = 404, description = "App, dataset or file not found (or no access)", body = ErrorBody),
        (status = 503, description = "Every template worker stayed busy (Retry-After), or the time bound was passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn column_names(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<FileQuery>,
) -> Result<Json<ColumnsResponse>, Refusal> {
    let source = Source::of_app(&state, &caller, &id, q.file.as_deref()).await?;
    let columns = source.read(&state, &caller, |r, _| table::columns(r)).await?;
    Ok(Json(ColumnsResponse {
        success: true,
        file: source.key,
        columns,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(default)]
pub struct PageRequest {
    /// The first row (0 is the first after the header).
    pub start: usize,
    /// Rows wanted, at most 1,000.
    pub count: usize,
    pub file: Option<String>,
}

impl Default for PageRequest {
    fn default() -> Self {
        Self {
            start: 0,
            count: PAGE_DEFAULT,
            file: None,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PageResponse {
    pub success: bool,
    pub file: String,
    /// Each row by column name: numbers as numbers, empty cells null.
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<serde_json::Map<String, serde_json::Value>>,
    /// The rows in the file.
    pub count: usize,
}

/// `count` rows from `start`, and how many rows the file has (spec 001 §3: rows plus a count).
#[utoipa::path(post, path = "/v1/templates/data.paginate/{id}", tag = "templates", request_body = PageRequest,
    params(("id" = String, Path, description = "Template app id")),
    responses(
        (status = 200, body = PageResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 422, description = "The file has more rows than template apps read (LUDIS_TEMPLATE_MAX_ROWS)", body = ErrorBody),
        (status = 503, description = "Every template worker stayed busy (Retry-After), or the time bound was passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn paginate(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PageRequest>,
) -> Result<Json<PageResponse>, Refusal> {
    if req.count == 0 || req.count > PAGE_MAX {
        return Err(bad("invalid_count", format!("Ask for 1 to {PAGE_MAX} rows")).into());
    }
    let source = Source::of_app(&state, &caller, &id, req.file.as_deref()).await?;
    let (start, count) = (req.start, req.count);
    let page = source
        .read(&state, &caller, move |r, limits| {
            table::page(r, start, count, limits)
        })
        .await?;
    Ok(Json(PageResponse {
        success: true,
        file: source.key,
        rows: page.rows,
        count: page.count,
    }))
}
