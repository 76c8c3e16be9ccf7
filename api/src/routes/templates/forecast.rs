//! Forecasts of a column over another (the optimization template).

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{HORIZON_DEFAULT, Refusal, WINDOW_DEFAULT, refused, source::Source};
use crate::{
    auth::AuthUser,
    error::{AppJson, AppPath, ErrorBody},
    state::AppState,
    templates::{forecast, table},
};

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
        (status = 422, description = "The file has more rows than template apps read (LUDIS_TEMPLATE_MAX_ROWS)", body = ErrorBody),
        (status = 503, description = "Every template worker stayed busy (Retry-After), or the time bound was passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn forecast_data(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ForecastRequest>,
) -> Result<Json<ForecastResponse>, Refusal> {
    let horizon = req.horizon.unwrap_or(HORIZON_DEFAULT);
    let window = req.window.unwrap_or(WINDOW_DEFAULT);
    forecast::check_horizon(horizon).map_err(refused)?;
    let source = Source::of_app(&state, &caller, &id, req.file.as_deref()).await?;
    let (x, y) = (req.x, req.y);
    let (labels, series, made) = source
        .read(&state, &caller, move |r, limits| {
            let (labels, series): (Vec<String>, Vec<f64>) =
                table::keyed(r, &x, &y, limits)?.into_iter().unzip();
            let made = forecast::forecast(&series, horizon, window, &limits.cancel)?;
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
