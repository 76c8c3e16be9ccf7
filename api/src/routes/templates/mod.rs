//! Template apps' data (spec 001 §7 and §9, issue 17; issue 11 of the bounds): the columns and
//! pages of the app's data file, k-means clusters and series for its charts, forecasts, and for
//! the wizard the data files of a dataset and whether one fits the row bound.
//!
//! The file is found and read by [`source`]: the one a call names, else the one stored with the
//! app, else the dataset's default. Every call is a computation of the template pool
//! ([`crate::templates::pool`]): at most `LUDIS_TEMPLATE_WORKERS` at a time, one at a time per
//! user, `LUDIS_TEMPLATE_TIMEOUT_SECS` for each call, and at most `LUDIS_TEMPLATE_MAX_ROWS` rows
//! read (a file with more is refused with 422, [`refusal`]). Access: view on the insight and view
//! on its dataset (no access to either: 404).

mod files;
mod forecast;
mod graph;
mod refusal;
mod source;
mod table;

use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::AuthUser,
    error::{ApiError, Result},
    state::AppState,
    templates::TemplateError,
};

pub use refusal::Refusal;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(table::column_names))
        .routes(routes!(table::paginate))
        .routes(routes!(graph::graph_data))
        .routes(routes!(forecast::forecast_data))
        .routes(routes!(files::data_files))
        .routes(routes!(files::check_rows))
}

/// Data file `file` of dataset `dataset_id` (view on it): normalised, a `.csv`, `.xlsx` or `.xls`
/// file, and there. What the wizard keeps with a new template app.
pub async fn checked_file(
    state: &AppState,
    caller: &AuthUser,
    dataset_id: &str,
    file: &str,
) -> Result<String> {
    Ok(source::Source::of_dataset(state, caller, dataset_id, Some(file))
        .await?
        .key)
}

/// A page holds at most this many rows.
pub const PAGE_MAX: usize = 1000;
/// The default page (spec 001 §9: the data table shows 10 rows from row 0).
pub const PAGE_DEFAULT: usize = 10;
/// Points sent back for a scatter or a series without aggregation (evenly spaced over the data).
pub const POINTS_MAX: usize = 5000;
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

/// A request refused before any data is read (a bad cluster count, horizon or aggregation).
fn refused(e: TemplateError) -> ApiError {
    bad("template_data", e.to_string())
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
    /// A `.csv`, `.xlsx` or `.xls` file of the dataset (relative); by default the app's own (chosen
    /// in the wizard), else the dataset's first `.csv` at the top level, else its first workbook
    /// there.
    pub file: Option<String>,
}
