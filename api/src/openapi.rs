//! The OpenAPI document of every route, built from the same routers the server runs
//! (utoipa-axum), served at `GET /v1/openapi.json` and committed as `api/openapi.json` (checked
//! by the `openapi_in_sync` test; regenerate with `cargo run -p ludis-api -- --print-openapi >
//! api/openapi.json`).

use std::sync::OnceLock;

use crate::routes;
use axum::{http::header, response::IntoResponse};
use utoipa::{
    Modify, OpenApi,
    openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
};

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
        (name = "assistant", description = "Ludis AI: log summaries and whether a provider is configured (the chat is the /aiChatResponse websocket)"),
        (name = "templates", description = "Template apps' data: columns, pages, k-means, series and forecasts over their dataset's file"),
        (name = "datasets", description = "Datasets on object storage: list, create, files, presigned transfers, previews, access URLs, sharing"),
        (name = "projects", description = "Projects v2: git-backed workspaces, their files, environment variables, preview and images"),
        (name = "notebooks", description = "Legacy projects and their Jupyter notebooks: lists, create (from a form or a template), notebooks, JupyterLab, preview, commit"),
        (name = "workflows", description = "Workflows v2: visual and written-as-code DAGs, publish, schedule, runs, task logs, mark and clear"),
        (name = "web3", description = "Web3 collections: validate and add (superadmins; adding starts the indexing job), list, the transaction graph and the holders' overlap"),
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

/// The document's heading (info, tags, security schemes); the paths come from the route table
/// ([`routes::api`]).
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as pretty JSON with a trailing newline (the committed file's form).
pub fn document_json() -> String {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let (_, mut doc) = routes::api().split_for_parts();
        doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
        let mut s = doc.to_pretty_json().expect("the OpenAPI document serializes");
        s.push('\n');
        s
    })
    .clone()
}

/// Test support: the fields `value` sends are exactly the ones its schema marks required. Given
/// its emptiest value (every `Option` None), a field sent anyway must be required and a field
/// left out must not be, so a typed client can trust the document.
#[cfg(test)]
pub fn assert_sent_as_documented<T: utoipa::ToSchema + serde::Serialize>(value: &T) {
    use std::collections::BTreeSet;
    let schema = serde_json::to_value(T::schema()).expect("a schema serializes");
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(|f| f.as_str()).collect())
        .unwrap_or_default();
    let sent = serde_json::to_value(value).expect("an answer serializes");
    let sent: BTreeSet<&str> = sent
        .as_object()
        .expect("an answer is an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        sent,
        required,
        "{}: the fields sent are not the ones the document requires",
        T::name()
    );
}

/// This document.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "health",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json")))]
pub async fn openapi_json() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], document_json())
}
