//! The OpenAPI document of every route, built from the same routers the server runs
//! (utoipa-axum), served at `GET /v1/openapi.json` and committed as `api/openapi.json` (checked
//! by the `openapi_in_sync` test; regenerate with `cargo run -p ludis-api -- --print-openapi >
//! api/openapi.json`).

use std::sync::OnceLock;

use axum::{http::header, response::IntoResponse};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{app::AppState, routes};

#[derive(OpenApi)]
#[openapi(
    info(title = "Ludis API", description = "Identity, administration and the data-analytics platform's calls."),
    modifiers(&Security),
    tags(
        (name = "auth", description = "Sign-in, tokens and two-factor authentication"),
        (name = "users", description = "Users, profiles, API keys and ownership moves"),
        (name = "organizations", description = "Organizations, seats, buckets and the 2FA requirement"),
        (name = "flighting", description = "Feature flags per organization and role, and client configuration"),
        (name = "metrics", description = "Sign-ins, activity and usage"),
        (name = "insights", description = "Dashboards, reports and applications: list, create, import, run switch, pins"),
        (name = "sharing", description = "Who has access to an asset of any kind; share, unshare, leave"),
        (name = "comments", description = "The conversation on an asset"),
        (name = "datasets", description = "Datasets on object storage: list, create, files, presigned transfers, previews, access URLs, sharing"),
        (name = "health", description = "Liveness, readiness and this document"),
    )
)]
struct ApiDoc;

struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("x-api-key"))),
        );
    }
}

/// Every documented route, with its document.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(routes::health::router())
        .routes(routes!(openapi_json))
        .merge(routes::auth::router())
        .merge(routes::two_factor::router())
        .merge(routes::users::router())
        .merge(routes::organizations::router())
        .merge(routes::flighting::router())
        .merge(routes::metrics::router())
        .merge(routes::images::router())
        .merge(routes::insights::router())
        .merge(routes::shares::router())
        .merge(routes::comments::router())
        .merge(routes::datasets::router())
}

/// The document as pretty JSON with a trailing newline (the committed file's form).
pub fn document_json() -> String {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let (_, mut doc) = api().split_for_parts();
        doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
        let mut s = doc.to_pretty_json().expect("the OpenAPI document serializes");
        s.push('\n');
        s
    })
    .clone()
}

/// This document.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "health",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json")))]
async fn openapi_json() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], document_json())
}
