//! Template apps' data (spec 001 §7 and §9, issue 17): the columns and pages of the app's data
//! file, k-means clusters and series for its charts, and forecasts.
//!
//! The data file is the first `.csv` at the top of the app's first dataset (in key order; else its
//! first `.xlsx` or `.xls`), or the one a request names with `file`. A CSV is read from object storage as a
//! stream, a record at a time: a file of any size is never held whole. A workbook (up to 20 MB, as
//! for previews) has its first sheet turned into CSV records in a temporary file by a worker
//! process — the preview's reader and its checks, so a crafted workbook costs the worker, not the
//! server — and that file is read the same way. Access: view on the insight and view on its dataset (no access
//! to either: 404). The numerics ([`crate::templates`]) run on a blocking thread.

use std::{io::Read, time::Duration};

use axum::{Json, extract::State};
use ludis_storage::{
    keys, objects,
    preview::{self, Format},
};
use serde::{Deserialize, Serialize};
use tokio_util::io::SyncIoBridge;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets,
    auth::AuthUser,
    db::{datasets::DatasetRow, insights::InsightRow},
    domain::AccessLevel,
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    routes::datasets::{path_error, s3, storage_error},
    state::AppState,
    templates::{
        TemplateError,
        aggregate::{self, Aggregation},
        forecast, kmeans, table,
    },
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(column_names))
        .routes(routes!(paginate))
        .routes(routes!(graph_data))
        .routes(routes!(forecast_data))
}

/// A page holds at most this many rows.
pub const PAGE_MAX: usize = 1000;
/// The default page (spec 001 §9: the data table shows 10 rows from row 0).
pub const PAGE_DEFAULT: usize = 10;
/// Points sent back for a scatter or a series without aggregation (evenly spaced over the data).
pub const POINTS_MAX: usize = 5000;
/// The most rows a computation reads into memory (k-means, series, forecast).
pub const ROWS_MAX: usize = 5_000_000;
/// The most points a forecast is made from (every point and its fitted value are sent back).
pub const FORECAST_POINTS_MAX: usize = 200_000;
/// Spec 001 §9: 4 clusters by default.
pub const CLUSTERS_DEFAULT: usize = 4;
/// Forecast steps ahead and moving-average window by default.
pub const HORIZON_DEFAULT: usize = 12;
pub const WINDOW_DEFAULT: usize = 3;
/// 'No aggregation' (spec 001 §9): the rows' own values.
pub const NO_AGGREGATION: &str = "No aggregation";

fn bad(code: &'static str, message: impl Into<std::borrow::Cow<'static, str>>) -> ApiError {
    ApiError::bad_request(code, message)
}

fn refused(e: TemplateError) -> ApiError {
    bad("template_data", e.to_string())
}

/// Where a template app's data is.
struct Source {
    bucket: String,
    prefix: String,
    /// Relative to the dataset.
    key: String,
}

impl Source {
    /// The template app `id` and its dataset, both viewable by the caller, and its data file.
    async fn of(state: &AppState, caller: &AuthUser, id: &str, file: Option<&str>) -> Result<Self> {
        let (insight, _) =
            assets::load::<InsightRow>(state, &caller.user, id.trim(), AccessLevel::View).await?;
        if !insight.details.is_template {
            return Err(bad("not_a_template", "This insight is not a template app"));
        }
        let dataset_id = insight
            .details
            .dataset_ids
            .first()
            .ok_or_else(|| bad("dataset_required", "Dataset must be selected!"))?;
        let (dataset, _) =
            assets::load::<DatasetRow>(state, &caller.user, dataset_id, AccessLevel::View).await?;
        let (bucket, prefix) = (dataset.details.bucket, dataset.details.prefix);
        let key = match file.map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => keys::file(f).map_err(path_error)?,
            None => first_data_file(state, &bucket, &prefix).await?,
        };
        if data_format(&key).is_none() {
            return Err(bad("not_csv", NOT_DATA));
        }
        Ok(Self { bucket, prefix, key })
    }

    /// Runs `work` over the file's records (CSV, or a workbook's first sheet as CSV) on a
    /// blocking thread.
    async fn read<T: Send + 'static>(
        &self,
        state: &AppState,
        work: impl FnOnce(Box<dyn Read + Send>) -> std::result::Result<T, TemplateError> + Send + 'static,
    ) -> Result<T> {
        match data_format(&self.key) {
            Some(sheet @ (Format::Xlsx | Format::Xls)) => self.read_sheet(state, sheet, work).await,
            _ => self.read_csv(state, work).await,
        }
    }

    /// A workbook: read whole (refused above 20 MB before anything is downloaded), its first
    /// sheet written as CSV to a temporary file by a worker process, then read like a CSV.
    async fn read_sheet<T: Send + 'static>(
        &self,
        state: &AppState,
        format: Format,
        work: impl FnOnce(Box<dyn Read + Send>) -> std::result::Result<T, TemplateError> + Send + 'static,
    ) -> Result<T> {
        let (s3, _) = s3(state)?;
        match objects::head(s3, &self.bucket, &self.prefix, &self.key)
            .await
            .map_err(storage_error)?
        {
            None => return Err(ApiError::not_found("file_not_found", "File not found")),
            Some(size) if size > preview::SHEET_MAX_BYTES as i64 => {
                return Err(bad("workbook_too_large", preview::SHEET_TOO_LARGE));
            }
            Some(_) => {}
        }
        let (bytes, _) = objects::read_head(
            s3,
            &self.bucket,
            &self.prefix,
            &self.key,
            preview::SHEET_MAX_BYTES,
        )
        .await
        .map_err(storage_error)?
        .ok_or_else(|| ApiError::not_found("file_not_found", "File not found"))?;
        let worker = state.settings.preview_worker.clone();
        tokio::task::spawn_blocking(move || {
            let records = tempfile::NamedTempFile::new().map_err(|e| {
                TemplateError::Invalid(format!("failed to make room for the sheet's rows: {e}"))
            })?;
            let worker = (!worker.is_empty()).then(|| std::path::PathBuf::from(worker));
            preview::sheet_csv_isolated(worker.as_deref(), format, &bytes, records.path(), SHEET_TIMEOUT)
                .map_err(|e| TemplateError::Invalid(e.to_string()))?;
            let file = records
                .reopen()
                .map_err(|e| TemplateError::Invalid(format!("failed to read the sheet's rows: {e}")))?;
            // `records` (and its file) lives until the work is done.
            let out = work(Box::new(std::io::BufReader::new(file)));
            drop(records);
            out
        })
        .await
        .map_err(|e| ApiError::internal(format!("the template computation failed: {e}")))?
        .map_err(refused)
    }

    /// A CSV: its bytes, as they arrive.
    async fn read_csv<T: Send + 'static>(
        &self,
        state: &AppState,
        work: impl FnOnce(Box<dyn Read + Send>) -> std::result::Result<T, TemplateError> + Send + 'static,
    ) -> Result<T> {
        let (s3, _) = s3(state)?;
        let (body, _) = objects::open(s3, &self.bucket, &self.prefix, &self.key)
            .await
            .map_err(storage_error)?
            .ok_or_else(|| ApiError::not_found("file_not_found", "File not found"))?;
        let input = SyncIoBridge::new(body.into_async_read());
        tokio::task::spawn_blocking(move || work(Box::new(input)))
            .await
            .map_err(|e| ApiError::internal(format!("the template computation failed: {e}")))?
            .map_err(refused)
    }
}

/// How long a worker may take to turn a workbook's first sheet into CSV records.
const SHEET_TIMEOUT: Duration = Duration::from_secs(60);

const NOT_DATA: &str = "Template apps read .csv, .xlsx and .xls files";

/// The format of a data file a template app reads: CSV, XLSX or XLS.
fn data_format(key: &str) -> Option<Format> {
    preview::format_of(key).filter(|f| matches!(f, Format::Csv | Format::Xlsx | Format::Xls))
}

/// The data file at the top of the dataset: its first `.csv` in key order (read as a stream),
/// else its first workbook.
async fn first_data_file(state: &AppState, bucket: &str, prefix: &str) -> Result<String> {
    let (s3, _) = s3(state)?;
    let mut token = None;
    let mut workbook = None;
    loop {
        let page = objects::list_page(s3, bucket, prefix, "", 1000, token.as_deref())
            .await
            .map_err(storage_error)?;
        for f in &page.files {
            match data_format(&f.key) {
                Some(Format::Csv) => return Ok(f.key.clone()),
                Some(_) if workbook.is_none() => workbook = Some(f.key.clone()),
                _ => {}
            }
        }
        match page.next_token {
            Some(t) => token = Some(t),
            None => {
                return workbook.ok_or_else(|| {
                    bad(
                        "no_csv",
                        "The dataset has no .csv, .xlsx or .xls file at its top level; upload one or name it with `file`",
                    )
                });
            }
        }
    }
}

/// Every [`spacing`]-th item, so that at most [`POINTS_MAX`] are sent.
fn spaced<T: Clone>(all: &[T]) -> Vec<T> {
    all.iter().step_by(spacing(all.len())).cloned().collect()
}

/// The step between the points sent back out of `len`.
fn spacing(len: usize) -> usize {
    len.div_ceil(POINTS_MAX).max(1)
}

#[derive(Deserialize, IntoParams, Default)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct FileQuery {
    /// A `.csv`, `.xlsx` or `.xls` file of the dataset (relative); by default its first `.csv` at
    /// the top level, else its first workbook there.
    pub file: Option<String>,
}

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
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn column_names(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<FileQuery>,
) -> Result<Json<ColumnsResponse>> {
    let source = Source::of(&state, &caller, &id, q.file.as_deref()).await?;
    let columns = source.read(&state, table::columns).await?;
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
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn paginate(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PageRequest>,
) -> Result<Json<PageResponse>> {
    if req.count == 0 || req.count > PAGE_MAX {
        return Err(bad("invalid_count", format!("Ask for 1 to {PAGE_MAX} rows")));
    }
    let source = Source::of(&state, &caller, &id, req.file.as_deref()).await?;
    let (start, count) = (req.start, req.count);
    let page = source.read(&state, move |r| table::page(r, start, count)).await?;
    Ok(Json(PageResponse {
        success: true,
        file: source.key,
        rows: page.rows,
        count: page.count,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GraphRequest {
    /// K-means over two or three numeric columns (kmeans2d, kmeans3d).
    Kmeans {
        columns: Vec<String>,
        /// 1 to 9 (4 by default).
        #[serde(default)]
        clusters: Option<usize>,
        #[serde(default)]
        file: Option<String>,
    },
    /// `y` by `x`: one value a distinct `x` with an aggregation (sum, mean, median, variance,
    /// count), or the rows' own pairs with none ('No aggregation').
    Series {
        x: String,
        y: String,
        #[serde(default)]
        aggregation: Option<String>,
        #[serde(default)]
        file: Option<String>,
    },
}

#[derive(Serialize, ToSchema)]
pub struct ClusterView {
    pub centroid: Vec<f64>,
    pub size: usize,
}

#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum GraphResponse {
    Kmeans {
        success: bool,
        file: String,
        columns: Vec<String>,
        clusters: Vec<ClusterView>,
        inertia: f64,
        /// Evenly spaced points (at most 5,000): the columns' values, then the cluster.
        points: Vec<Vec<f64>>,
        /// Rows clustered, and rows left out for a cell that is not a number.
        total: usize,
        skipped: usize,
    },
    Series {
        success: bool,
        file: String,
        labels: Vec<String>,
        /// Null where a group has no value (the variance of one value).
        values: Vec<Option<f64>>,
        /// Without aggregation: the rows in the file, of which `labels` are evenly spaced.
        total: usize,
    },
}

/// The numbers behind a template's chart: k-means clusters, or a series (view on the app and its
/// dataset).
#[utoipa::path(post, path = "/v1/templates/graph.data/{id}", tag = "templates", request_body = GraphRequest,
    params(("id" = String, Path, description = "Template app id")),
    responses(
        (status = 200, body = GraphResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn graph_data(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<GraphRequest>,
) -> Result<Json<GraphResponse>> {
    match req {
        GraphRequest::Kmeans {
            columns,
            clusters,
            file,
        } => {
            if !(2..=3).contains(&columns.len()) {
                return Err(bad("invalid_columns", "K-means takes two or three columns"));
            }
            let k = clusters.unwrap_or(CLUSTERS_DEFAULT);
            kmeans::check_clusters(k).map_err(refused)?;
            let source = Source::of(&state, &caller, &id, file.as_deref()).await?;
            let names = columns.clone();
            let (found, values, skipped) = source
                .read(&state, move |r| {
                    let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
                    let (values, skipped) = table::numbers(r, &wanted, ROWS_MAX)?;
                    let found = kmeans::cluster(values.clone(), wanted.len(), k)?;
                    Ok((found, values, skipped))
                })
                .await?;
            // Only the points sent back are built (each with its cluster).
            let total = found.labels.len();
            let points = values
                .chunks(columns.len())
                .zip(&found.labels)
                .step_by(spacing(total))
                .map(|(p, l)| p.iter().copied().chain([*l as f64]).collect())
                .collect();
            Ok(Json(GraphResponse::Kmeans {
                success: true,
                file: source.key,
                columns,
                clusters: found
                    .centroids
                    .into_iter()
                    .zip(found.sizes)
                    .map(|(centroid, size)| ClusterView { centroid, size })
                    .collect(),
                inertia: found.inertia,
                points,
                total,
                skipped,
            }))
        }
        GraphRequest::Series {
            x,
            y,
            aggregation,
            file,
        } => {
            let how = match aggregation.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
                None => None,
                Some(a) if a.eq_ignore_ascii_case(NO_AGGREGATION) => None,
                Some(a) => Some(a.parse::<Aggregation>().map_err(refused)?),
            };
            let source = Source::of(&state, &caller, &id, file.as_deref()).await?;
            let pairs = source
                .read(&state, move |r| table::keyed(r, &x, &y, ROWS_MAX))
                .await?;
            let total = pairs.len();
            let (labels, values) = match how {
                Some(how) => aggregate::by_group(pairs, how).into_iter().unzip(),
                None => spaced(&pairs).into_iter().map(|(k, v)| (k, Some(v))).unzip(),
            };
            Ok(Json(GraphResponse::Series {
                success: true,
                file: source.key,
                labels,
                values,
                total,
            }))
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct ForecastRequest {
    /// The column of the time axis (its text labels the points).
    pub x: String,
    /// The numeric column to forecast.
    pub y: String,
    /// Steps ahead (12 by default, at most 1,000).
    #[serde(default)]
    pub horizon: Option<usize>,
    /// The moving average's window (3 by default).
    #[serde(default)]
    pub window: Option<usize>,
    #[serde(default)]
    pub file: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ForecastResponse {
    pub success: bool,
    pub file: String,
    /// The chosen exponential-smoothing model, e.g. "ETS(A,A,N)".
    pub model: String,
    /// The time axis and the series, in the file's order.
    pub x: Vec<String>,
    pub y: Vec<f64>,
    /// 'Fitted Values': one-step-ahead predictions of `y`.
    pub fitted: Vec<f64>,
    /// 'Moving Average': null until the window is full.
    pub moving_average: Vec<Option<f64>>,
    /// 'Forecast': the steps after the last point, with the 95 % interval.
    pub forecast: Vec<f64>,
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
}

/// Fitted values, moving average and forecast of `y` over `x` (view on the app and its dataset).
/// The method: exponential smoothing with the model chosen by AICc (AutoETS, no seasonality).
#[utoipa::path(post, path = "/v1/templates/forecast/{id}", tag = "templates", request_body = ForecastRequest,
    params(("id" = String, Path, description = "Template app id")),
    responses(
        (status = 200, body = ForecastResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn forecast_data(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ForecastRequest>,
) -> Result<Json<ForecastResponse>> {
    let horizon = req.horizon.unwrap_or(HORIZON_DEFAULT);
    let window = req.window.unwrap_or(WINDOW_DEFAULT);
    forecast::check_horizon(horizon).map_err(refused)?;
    let source = Source::of(&state, &caller, &id, req.file.as_deref()).await?;
    let (x, y) = (req.x, req.y);
    let (labels, series, made) = source
        .read(&state, move |r| {
            let (labels, series): (Vec<String>, Vec<f64>) =
                table::keyed(r, &x, &y, FORECAST_POINTS_MAX)?.into_iter().unzip();
            let made = forecast::forecast(&series, horizon, window)?;
            Ok((labels, series, made))
        })
        .await?;
    Ok(Json(ForecastResponse {
        success: true,
        file: source.key,
        model: made.model,
        x: labels,
        y: series,
        fitted: made.fitted,
        moving_average: made.moving_average,
        forecast: made.forecast,
        lower: made.lower,
        upper: made.upper,
    }))
}
