//! The route table: one module per resource, each exporting its `router()` (documented with
//! utoipa, so the OpenAPI document is built from the same routers the server runs), merged here
//! with the app proxy, the console's files and the layers every request passes ([`gates`]).

pub mod apps;
pub mod auth;
pub mod comments;
pub mod console;
pub mod datasets;
pub mod flighting;
mod gates;
pub mod health;
pub mod images;
pub mod insights;
pub mod llm;
pub mod metrics;
pub mod notebooks;
mod organization_compute;
mod organization_mail;
pub mod organizations;
pub mod people;
pub mod projects;
pub mod shares;
pub mod streams;
pub mod templates;
pub mod two_factor;
pub mod users;
pub mod web3;
pub mod workflows;

pub(crate) use projects::run::set_running as set_preview_running;

use std::time::Duration;

use axum::{Router, extract::DefaultBodyLimit, http::StatusCode, middleware, response::IntoResponse as _};
use tower_http::{catch_panic::CatchPanicLayer, timeout::TimeoutLayer};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{error::ApiError, openapi, state::AppState, telemetry};

/// JSON bodies are limited to 1 MiB; files go straight to object storage.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Every documented route, with its document ([`crate::openapi`]).
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::document())
        .merge(health::router())
        .routes(routes!(openapi::openapi_json))
        .merge(auth::router())
        .merge(two_factor::router())
        .merge(users::router())
        .merge(organizations::router())
        .merge(organization_compute::router())
        .merge(flighting::router())
        .merge(metrics::router())
        .merge(images::router())
        .merge(insights::router())
        .merge(shares::router())
        .merge(comments::router())
        .merge(llm::router())
        .merge(templates::router())
        .merge(datasets::router())
        .merge(projects::router())
        .merge(notebooks::router())
        .merge(workflows::router())
        .merge(web3::router())
}

/// The whole server: the documented routes (flighting gate, body limit, request timeout), any
/// other `/v1`/`/v2` path 404, the console's files, and the app proxy (no timeout, no body limit);
/// every request passes the apps-host gate, tracing, the panic catcher, the request metrics and
/// the request id ([`telemetry::http`]).
pub fn router(state: AppState) -> Router {
    let console = console::service(&state.settings.console_dir);
    let (api, _) = api().split_for_parts();
    let timed = Router::new()
        .merge(api)
        .route("/v1/{*rest}", axum::routing::any(gates::not_found))
        .route("/v2/{*rest}", axum::routing::any(gates::not_found))
        .fallback_service(console)
        .layer(middleware::from_fn_with_state(state.clone(), gates::feature_gate))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(state.settings.request_timeout),
        ));
    // The app proxy streams bodies and websockets: no request timeout, no body limit.
    let routes = Router::new()
        .merge(apps::router())
        .merge(projects::git_http::router(&state))
        .merge(streams::router())
        .merge(timed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            gates::apps_host_gate,
        ))
        .layer(telemetry::http::trace_layer())
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("a handler panicked").into_response()
        }));
    telemetry::http::observed(routes, state.metrics.clone()).with_state(state)
}
