//! The provider client: one OpenAI-compatible chat-completions endpoint (`LUDIS_AI_URL`, `…/v1`),
//! asked with `"stream": true` and read as server-sent events (`data: {chunk}` lines, then
//! `data: [DONE]`). Any provider speaking it works: a hosted one, vLLM, Ollama, llama.cpp's server.
//! Prompts and answers are never logged; only the status and reason of a failure are.

use std::{pin::Pin, time::Duration};

use axum::body::Bytes;
use eventsource_stream::Eventsource as _;
use futures::{Stream, StreamExt as _, TryStreamExt as _, future};
use http_body_util::{BodyDataStream, BodyExt as _, Full, Limited};
use hyper::{Request, Uri, header};
use serde::{Deserialize, Serialize};

use super::{AiError, ChatMessage};
use crate::{
    outbound::HttpsClient,
    settings::{Secret, Settings},
};

/// How long the provider may take to answer the request (its headers).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the provider may be silent between two parts of an answer.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The most of a failed answer's body read for its reason.
const ERROR_BODY_MAX: usize = 16 * 1024;

/// The parts of an answer, as they come.
pub type Tokens = Pin<Box<dyn Stream<Item = Result<String, AiError>> + Send>>;

/// A configured provider.
pub struct Provider {
    endpoint: Uri,
    model: String,
    key: Secret,
    max_tokens: u32,
    client: HttpsClient,
}

/// Checks `LUDIS_AI_URL`: an `http(s)://host[:port][/path]` base without credentials, query or
/// fragment; `/chat/completions` is added to its path.
pub fn endpoint(base: &str) -> Result<Uri, String> {
    let base = base.trim();
    let url = url::Url::parse(base).map_err(|e| format!("LUDIS_AI_URL {base:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https")
        || url.host_str().is_none_or(str::is_empty)
        || !url.username().is_empty()
        || url.password().is_some()
        || url.query().is_some()
        || url.fragment().is_some()
    {
        return Err(format!(
            "LUDIS_AI_URL {base:?} must be an http(s) base URL like https://provider.example/v1, \
             without credentials (use LUDIS_AI_KEY), query or fragment"
        ));
    }
    let full = format!("{}/chat/completions", url.as_str().trim_end_matches('/'));
    full.parse().map_err(|e| format!("LUDIS_AI_URL {base:?}: {e}"))
}

impl Provider {
    /// The provider `LUDIS_AI_URL` names, or `None` when it is empty.
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Option<Self>> {
        if settings.ai_url.trim().is_empty() {
            return Ok(None);
        }
        let endpoint = endpoint(&settings.ai_url).map_err(anyhow::Error::msg)?;
        Ok(Some(Self {
            endpoint,
            model: settings.ai_model.trim().to_owned(),
            key: settings.ai_key.clone(),
            max_tokens: settings.ai_max_tokens.max(1),
            client: crate::outbound::https_client()?,
        }))
    }

    /// The model asked for (may be empty: a single-model server takes any).
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Asks for an answer to `messages` and returns its parts as they stream in (each non-empty).
    pub async fn stream(&self, messages: &[ChatMessage]) -> Result<Tokens, AiError> {
        self.stream_at_most(messages, self.max_tokens).await
    }

    /// [`Self::stream`] with an answer of at most `max_tokens` (and at most `LUDIS_AI_MAX_TOKENS`).
    async fn stream_at_most(&self, messages: &[ChatMessage], max_tokens: u32) -> Result<Tokens, AiError> {
        let body = serde_json::to_vec(&CompletionRequest {
            model: &self.model,
            messages,
            stream: true,
            max_tokens: max_tokens.clamp(1, self.max_tokens),
        })
        .map_err(|e| AiError::Protocol(e.to_string()))?;
        let mut request = Request::post(self.endpoint.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "text/event-stream");
        if !self.key.is_empty() {
            request = request.header(header::AUTHORIZATION, format!("Bearer {}", self.key.expose()));
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| AiError::Protocol(e.to_string()))?;
        let response = tokio::time::timeout(ANSWER_TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| AiError::Timeout)?
            .map_err(|e| AiError::Unreachable(error_chain(&e)))?;
        let status = response.status();
        if !status.is_success() {
            let body = Limited::new(response.into_body(), ERROR_BODY_MAX)
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            return Err(AiError::Refused {
                status: status.as_u16(),
                reason: refusal_reason(&body),
            });
        }
        let events = BodyDataStream::new(response.into_body()).eventsource();
        let tokens = events
            .map_err(|e| AiError::Protocol(e.to_string()))
            .try_take_while(|event| future::ready(Ok(event.data.trim() != "[DONE]")))
            .try_filter_map(|event| future::ready(chunk_text(&event.data)));
        Ok(Box::pin(tokens))
    }

    /// The whole answer to `messages`, of at most `max_tokens`, each part waited for at most
    /// [`IDLE_TIMEOUT`].
    pub async fn complete(&self, messages: &[ChatMessage], max_tokens: u32) -> Result<String, AiError> {
        let mut tokens = self.stream_at_most(messages, max_tokens).await?;
        let mut answer = String::new();
        while let Some(part) = next_part(&mut tokens).await? {
            answer.push_str(&part);
        }
        Ok(answer)
    }
}

/// The next part of an answer, or `None` at its end; [`AiError::Timeout`] after [`IDLE_TIMEOUT`]
/// of silence.
pub async fn next_part(tokens: &mut Tokens) -> Result<Option<String>, AiError> {
    match tokio::time::timeout(IDLE_TIMEOUT, tokens.next()).await {
        Err(_) => Err(AiError::Timeout),
        Ok(None) => Ok(None),
        Ok(Some(part)) => part.map(Some),
    }
}

#[derive(Serialize)]
struct CompletionRequest<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    model: &'a str,
    messages: &'a [ChatMessage],
    stream: bool,
    max_tokens: u32,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<Choice>,
    error: Option<ProviderError>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    delta: Delta,
}

#[derive(Deserialize, Default)]
struct Delta {
    content: Option<String>,
}

#[derive(Deserialize)]
struct ProviderError {
    #[serde(default)]
    message: String,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    error: ProviderError,
}

/// The text of one streamed chunk (`None` for a chunk without any, like the first, role-only one);
/// an `error` the provider streams instead is an error.
fn chunk_text(data: &str) -> Result<Option<String>, AiError> {
    let chunk: Chunk = serde_json::from_str(data)
        .map_err(|e| AiError::Protocol(format!("a part of the answer is not a completion chunk: {e}")))?;
    if let Some(error) = chunk.error {
        return Err(AiError::Refused {
            status: 200,
            reason: error.message,
        });
    }
    let text: String = chunk
        .choices
        .into_iter()
        .filter_map(|c| c.delta.content)
        .collect();
    Ok((!text.is_empty()).then_some(text))
}

/// The reason in a refusal's body: OpenAI's `{"error":{"message"}}`, else the body's start.
fn refusal_reason(body: &[u8]) -> String {
    if let Ok(answer) = serde_json::from_slice::<ErrorAnswer>(body) {
        return answer.error.message;
    }
    String::from_utf8_lossy(body).chars().take(300).collect()
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_the_base_and_chat_completions() {
        assert_eq!(
            endpoint("https://provider.example/v1/").unwrap().to_string(),
            "https://provider.example/v1/chat/completions"
        );
        assert_eq!(
            endpoint(" http://127.0.0.1:29100/v1 ").unwrap().to_string(),
            "http://127.0.0.1:29100/v1/chat/completions"
        );
        for bad in [
            "provider.example/v1",
            "ftp://provider.example",
            "https://user:pw@provider.example/v1",
            "https://provider.example/v1?key=1",
            "https://provider.example/v1#x",
            "file:///etc/passwd",
        ] {
            assert!(endpoint(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chunks_give_their_text_and_streamed_errors_fail() {
        assert_eq!(
            chunk_text(r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}"#).unwrap(),
            None
        );
        assert_eq!(
            chunk_text(r#"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"#).unwrap(),
            Some("Hel".into())
        );
        assert_eq!(
            chunk_text(r#"{"choices":[{"finish_reason":"stop","delta":{}}]}"#).unwrap(),
            None
        );
        assert!(matches!(
            chunk_text(r#"{"error":{"message":"overloaded"}}"#),
            Err(AiError::Refused { reason, .. }) if reason == "overloaded"
        ));
        assert!(matches!(chunk_text("not json"), Err(AiError::Protocol(_))));
    }

    #[test]
    fn a_refusal_gives_the_providers_reason() {
        assert_eq!(
            refusal_reason(br#"{"error":{"message":"Invalid API key","type":"auth"}}"#),
            "Invalid API key"
        );
        assert_eq!(refusal_reason(b"Bad Gateway"), "Bad Gateway");
    }
}
