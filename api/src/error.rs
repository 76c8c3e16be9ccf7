//! One error type for every handler. Client errors carry the spec's message and a stable
//! snake_case code; internal errors are logged with their cause and answered with a generic
//! message. The body is always `{"success": false, "message": …, "code": …}` (plus extra fields
//! such as `limitExceded` where the spec asks for them).

use std::borrow::Cow;

use axum::{
    Json,
    extract::{
        FromRequest, FromRequestParts, Request,
        rejection::{JsonRejection, PathRejection, QueryRejection},
    },
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::{IntoResponse, Response},
};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};
use utoipa::ToSchema;

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// The message of every internal error; the cause is in the log.
pub const INTERNAL_MESSAGE: &str = "Seems like something went wrong!";

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A client mistake, returned as it is.
    #[error("{message}")]
    Client {
        status: StatusCode,
        code: &'static str,
        message: Cow<'static, str>,
        extra: Option<Map<String, Value>>,
    },
    /// Too many failed attempts: 429 with `Retry-After`.
    #[error("too many attempts")]
    Throttled { retry_after: u64 },
    /// Anything else: logged, never shown.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The JSON body of every error.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always `false`.
    pub success: bool,
    /// A message for people (the spec's wording).
    pub message: String,
    /// A stable snake_case code for programs.
    pub code: String,
    /// Only on 'Limit Reached' (no free seat in the organization): `true`.
    #[serde(rename = "limitExceded", skip_serializing_if = "Option::is_none")]
    pub limit_exceded: Option<bool>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::Client {
            status,
            code,
            message: message.into(),
            extra: None,
        }
    }
    pub fn bad_request(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn unauthorized(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }
    pub fn not_found(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    pub fn unavailable(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }
    /// Adds a field to the error body (e.g. `limitExceded: true`).
    pub fn with(mut self, key: &str, value: Value) -> Self {
        if let Self::Client { extra, .. } = &mut self {
            extra.get_or_insert_with(Map::new).insert(key.to_owned(), value);
        }
        self
    }
    pub fn internal(context: impl std::fmt::Display) -> Self {
        Self::Internal(anyhow::anyhow!("{context}"))
    }
    /// The status this error answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Client { status, .. } => *status,
            Self::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// A failed cluster write: 409 when another tool owns a field the API would change
    /// ([`crate::cluster::apply::Conflict`]), else 502 with the API server's words.
    pub fn cluster(e: anyhow::Error) -> Self {
        tracing::warn!(error = format!("{e:#}"), "the cluster refused a change");
        if let Some(conflict) = e.downcast_ref::<crate::cluster::apply::Conflict>() {
            return ApiError::conflict("resource_conflict", conflict.message.clone());
        }
        // The API server's own words when it answered (e.g. a validation rule), else the cause.
        let detail = e
            .chain()
            .find_map(|c| match c.downcast_ref::<kube::Error>() {
                Some(kube::Error::Api(s)) => Some(s.message.clone()),
                _ => None,
            })
            .unwrap_or_else(|| e.to_string());
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            "cluster_error",
            format!("The cluster refused the change: {detail}"),
        )
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(anyhow::Error::new(e).context("database error"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let (code, message, extra, retry_after) = match self {
            Self::Client {
                code, message, extra, ..
            } => (code, message.into_owned(), extra, None),
            Self::Throttled { retry_after } => {
                let minutes = retry_after.div_ceil(60).max(1);
                (
                    "too_many_attempts",
                    format!(
                        "Too many failed attempts. Try again in {minutes} minute{}.",
                        if minutes == 1 { "" } else { "s" }
                    ),
                    None,
                    Some(retry_after),
                )
            }
            Self::Internal(e) => {
                tracing::error!(error = format!("{e:#}"), "internal error");
                ("internal_error", INTERNAL_MESSAGE.to_owned(), None, None)
            }
        };
        let mut body = Map::new();
        body.insert("success".into(), Value::Bool(false));
        body.insert("message".into(), Value::String(message));
        body.insert("code".into(), Value::String(code.into()));
        if let Some(extra) = extra {
            body.extend(extra);
        }
        let mut response = (status, Json(Value::Object(body))).into_response();
        if let Some(secs) = retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

/// Maps a unique-constraint violation of a named constraint to a client error.
pub trait ResultExt<T> {
    fn on_unique(self, constraint: &str, error: impl FnOnce() -> ApiError) -> Result<T>;
}

impl<T> ResultExt<T> for std::result::Result<T, sqlx::Error> {
    fn on_unique(self, constraint: &str, error: impl FnOnce() -> ApiError) -> Result<T> {
        self.map_err(|e| match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                // PostgreSQL names the constraint; SQLite names the columns ("users.email"), so
                // constraints are named `<table>_<columns>_key` and matched on both forms.
                let named = db.constraint() == Some(constraint);
                let columns = constraint
                    .strip_suffix("_key")
                    .and_then(|c| c.split_once('_'))
                    .map(|(table, cols)| format!("{table}.{cols}"));
                if named || columns.is_some_and(|c| db.message().contains(&c)) {
                    error()
                } else {
                    ApiError::from(e)
                }
            }
            _ => ApiError::from(e),
        })
    }
}

/// `Json` whose rejections use the API's error body.
pub struct AppJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Self(v)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            "The request body is too large (limit 1 MiB)",
        ),
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Expected a JSON body (Content-Type: application/json)",
        ),
        other => ApiError::bad_request(
            "invalid_body",
            format!("Invalid request body: {}", other.body_text()),
        ),
    }
}

/// `Query` whose rejections use the API's error body.
pub struct AppQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for AppQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Self(q.0))
            .map_err(|e: QueryRejection| {
                ApiError::bad_request("invalid_query", format!("Invalid query: {}", e.body_text()))
            })
    }
}

/// `Path` whose rejections use the API's error body.
pub struct AppPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for AppPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Self(p.0))
            .map_err(|e: PathRejection| {
                ApiError::bad_request("invalid_path", format!("Invalid path: {}", e.body_text()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn internal_errors_are_opaque() {
        let res = ApiError::internal("database password is hunter2").into_response();
        assert_eq!(res.status(), 500);
        let body = axum::body::to_bytes(res.into_body(), 1 << 16).await.unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["success"], false);
        assert_eq!(v["message"], INTERNAL_MESSAGE);
        assert_eq!(v["code"], "internal_error");
        assert!(!String::from_utf8_lossy(&body).contains("hunter2"));
    }

    #[tokio::test]
    async fn throttled_errors_say_when_to_retry() {
        let res = ApiError::Throttled { retry_after: 900 }.into_response();
        assert_eq!(res.status(), 429);
        assert_eq!(res.headers()["retry-after"], "900");
        let body = axum::body::to_bytes(res.into_body(), 1 << 16).await.unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["message"], "Too many failed attempts. Try again in 15 minutes.");
    }

    #[tokio::test]
    async fn extra_fields_join_the_body() {
        let res = ApiError::bad_request("seat_limit_reached", "Limit")
            .with("limitExceded", Value::Bool(true))
            .into_response();
        let body = axum::body::to_bytes(res.into_body(), 1 << 16).await.unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["limitExceded"], true);
        assert_eq!(v["code"], "seat_limit_reached");
    }
}
