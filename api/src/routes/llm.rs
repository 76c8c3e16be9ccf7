//! The assistant's HTTP calls (spec 001 §7): `POST /v1/llm/{id}/logsummary {logs, entity}`, a short
//! summary of a log shown on the entity's page, and `GET /v1/llm/status`, whether an assistant is
//! configured (the console says how to configure one when not). The chat itself is the
//! `/aiChatResponse` websocket ([`super::streams`]). Prompts and answers are never logged.

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    ai::{self, AiError, context},
    assets,
    auth::AuthUser,
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    state::AppState,
};

/// A summary is a few sentences: the longest answer asked for.
const SUMMARY_MAX_TOKENS: u32 = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(log_summary))
        .routes(routes!(status))
}

/// The API's answer for an assistant that gave none.
pub fn ai_error(e: AiError) -> ApiError {
    match e {
        AiError::NotConfigured => ApiError::unavailable("ai_not_configured", ai::NOT_CONFIGURED),
        AiError::Limited(_) => ApiError::new(StatusCode::TOO_MANY_REQUESTS, "ai_rate_limited", e.to_string()),
        AiError::Budget(_) => ApiError::internal(e),
        other => {
            tracing::warn!(error = %other, "the assistant's provider failed");
            ApiError::new(StatusCode::BAD_GATEWAY, "ai_unavailable", other.to_string())
        }
    }
}

/// The configured assistant, after taking one request from the caller's budget (shared by every
/// API replica: the database).
pub async fn assistant_for<'s>(
    state: &'s AppState,
    caller: &AuthUser,
) -> std::result::Result<&'s ai::Assistant, AiError> {
    let assistant = state.ai.as_deref().ok_or(AiError::NotConfigured)?;
    assistant
        .limit
        .take(&state.db, &caller.user.uid, crate::db::now())
        .await?;
    Ok(assistant)
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LogSummaryRequest {
    /// The log's text (its last 3,000 characters are read).
    #[schema(required)]
    pub logs: String,
    /// The entity's kind as the console names it (informative; the id decides).
    pub entity: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LogSummary {
    pub success: bool,
    pub summary: String,
}

/// A short summary of a log of an asset the caller can view (its id in the path).
#[utoipa::path(post, path = "/v1/llm/{id}/logsummary", tag = "assistant", request_body = LogSummaryRequest,
    params(("id" = String, Path, description = "The project, insight or workflow the log is of")),
    responses(
        (status = 200, body = LogSummary),
        (status = 400, description = "The log is empty", body = ErrorBody),
        (status = 404, description = "No such item, or one the caller cannot see", body = ErrorBody),
        (status = 429, description = "The caller's requests to the assistant are over the minute's limit", body = ErrorBody),
        (status = 502, description = "The provider failed or could not be reached", body = ErrorBody),
        (status = 503, description = "No assistant is configured", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn log_summary(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<LogSummaryRequest>,
) -> Result<Json<LogSummary>> {
    let (asset, _) = assets::visible(&state, &caller.user, id.trim(), None)
        .await?
        .ok_or_else(|| assets::not_found(None))?;
    assets::require_feature(&state, &caller.user, asset.kind).await?;
    if req.logs.trim().is_empty() {
        return Err(ApiError::bad_request(
            "empty_log",
            "There is no log to summarise yet",
        ));
    }
    let assistant = assistant_for(&state, &caller).await.map_err(ai_error)?;
    let what = format!("the {} \"{}\"", asset.kind.label(), asset.name);
    let summary = assistant
        .provider
        .complete(&context::log_summary(&what, &req.logs), SUMMARY_MAX_TOKENS)
        .await
        .map_err(ai_error)?;
    Ok(Json(LogSummary {
        success: true,
        summary: summary.trim().to_owned(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct AssistantStatus {
    /// Whether an assistant is configured.
    pub configured: bool,
    /// The model it asks for (empty when the provider has a single one).
    pub model: String,
    /// Without an assistant: how an administrator configures one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<&'static str>,
}

/// Whether the assistant is configured, and with which model.
#[utoipa::path(get, path = "/v1/llm/status", tag = "assistant",
    responses((status = 200, body = AssistantStatus)),
    security(("bearer" = []), ("api_key" = [])))]
async fn status(State(state): State<AppState>, _caller: AuthUser) -> Json<AssistantStatus> {
    Json(match state.ai.as_deref() {
        Some(a) => AssistantStatus {
            configured: true,
            model: a.provider.model().to_owned(),
            help: None,
        },
        None => AssistantStatus {
            configured: false,
            model: String::new(),
            help: Some(ai::NOT_CONFIGURED),
        },
    })
}
