//! The assistant (spec 001 §4 "Chat", "Log summary"; §7 `/aiChatResponse`, `POST
//! /v1/llm/{id}/logsummary`): answers from the configured provider ([`provider`]), a per-user
//! request limit ([`limit`]), and the prompts with what the caller may read of the entity
//! ([`context`]). Without `LUDIS_AI_URL` the platform runs without it, and says so.

pub mod context;
pub mod limit;
pub mod provider;

use serde::{Deserialize, Serialize};

pub use provider::Provider;

/// Who said a message of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One message of a conversation, as the provider takes it.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

impl ChatMessage {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }
}

/// Why the assistant gave no answer. The text is for the log and the caller; it never holds a
/// prompt or an answer.
#[derive(Debug, thiserror::Error)]
pub enum AiError {
    #[error("{}", NOT_CONFIGURED)]
    NotConfigured,
    #[error("too many requests to the assistant: try again in {0} s")]
    Limited(u64),
    #[error("the provider could not be reached: {0}")]
    Unreachable(String),
    #[error("the provider refused the request ({status}): {reason}")]
    Refused { status: u16, reason: String },
    #[error("the provider's answer could not be read: {0}")]
    Protocol(String),
    #[error("the provider did not answer in time")]
    Timeout,
    #[error("the assistant's request budget could not be read: {0}")]
    Budget(String),
}

/// What the platform says when no provider is configured.
pub const NOT_CONFIGURED: &str = "The assistant is not configured: an administrator sets LUDIS_AI_URL \
    (any OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or a local llama.cpp, vLLM or Ollama \
    server), LUDIS_AI_MODEL and LUDIS_AI_KEY.";

/// The configured assistant: its provider and the per-user limit.
pub struct Assistant {
    pub provider: Provider,
    pub limit: limit::PerUser,
}

impl Assistant {
    /// The assistant the settings configure, or `None` without `LUDIS_AI_URL`.
    pub fn from_settings(settings: &crate::settings::Settings) -> anyhow::Result<Option<Self>> {
        Ok(Provider::from_settings(settings)?.map(|provider| Self {
            provider,
            limit: limit::PerUser::per_minute(settings.ai_requests_per_minute),
        }))
    }
}
