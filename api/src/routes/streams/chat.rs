//! `/aiChatResponse?uid&entityId` (spec 001 §7 "Websockets"): the assistant's chat. Admitted like
//! the container streams (token in the subprotocols, the console's `Origin`). The client sends the
//! conversation (`{"messages":[{role, content}], "file": "path"}`, or the bare list) and receives
//! `{"type":"token","content"}` frames as the answer streams in, then `{"type":"complete"}`; an
//! answer that cannot be given is one `{"type":"error","content": why}` frame, and the socket stays
//! open for the next message.
//!
//! The provider hears about the entity (`entityId`) only what the caller may read, checked again
//! for every message: its name and description with view access, the open file of a project they
//! may view, the newest lines of its container's log when they may execute it. `uid` is accepted
//! and ignored (the caller is the token's). Each message takes one request from the caller's
//! budget ([`crate::ai::limit`]); prompts and answers are never logged.

use axum::{
    extract::{
        Query, State,
        ws::{Message, WebSocket, WebSocketUpgrade},
    },
    http::{HeaderMap, Uri},
    response::{IntoResponse, Response},
};
use k8s_openapi::api::core::v1::Pod;
use kube::{Api, api::LogParams};
use ludis_git::{Contents, RepoPath};
use serde::{Deserialize, Serialize};

use super::{
    PROTOCOL, admit_caller,
    workload::{Found, Workload},
};
use crate::{
    ai::{
        AiError, ChatMessage,
        context::{self, Entity},
        provider::{self, Tokens},
    },
    assets,
    auth::AuthUser,
    db::{self, projects::ProjectRow},
    domain::{AccessLevel, AssetKind},
    projects::git,
    routes::llm::assistant_for,
    state::AppState,
    telemetry::{self, WebSocketKind},
};

/// Lines of the entity's container log the assistant sees.
const LOG_LINES: i64 = 50;

#[derive(Deserialize)]
pub(super) struct ChatQuery {
    #[serde(rename = "entityId", default)]
    entity_id: Option<String>,
}

/// What the client sends: the conversation, with the file the editor shows.
#[derive(Deserialize)]
#[serde(untagged)]
enum Ask {
    Conversation {
        messages: Vec<ChatMessage>,
        #[serde(default)]
        file: Option<String>,
    },
    Messages(Vec<ChatMessage>),
}

/// A frame the server sends.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Frame<'a> {
    Token { content: &'a str },
    Complete { content: &'a str },
    Error { content: &'a str },
}

impl Frame<'_> {
    fn message(&self) -> Message {
        Message::Text(serde_json::to_string(self).expect("frames serialise").into())
    }
}

/// The largest message a client may send (a conversation with its history): larger ones end the
/// connection before they are read whole.
const MAX_MESSAGE_BYTES: usize = 1 << 20;

pub(super) async fn upgrade(
    State(state): State<AppState>,
    Query(q): Query<ChatQuery>,
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    let caller = match admit_caller(&state, &headers, &uri).await {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let entity_id = q
        .entity_id
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty());
    let counted = telemetry::session(state.metrics.clone(), WebSocketKind::Chat);
    ws.protocols([PROTOCOL])
        .max_message_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| counted.run(session(socket, state, caller, entity_id)))
}

async fn session(mut socket: WebSocket, state: AppState, caller: AuthUser, entity_id: Option<String>) {
    while let Some(Ok(incoming)) = socket.recv().await {
        let text = match incoming {
            Message::Text(t) => t,
            Message::Close(_) => return,
            _ => continue,
        };
        let outcome = answer(&mut socket, &state, &caller, entity_id.as_deref(), &text).await;
        let sent = match outcome {
            Ok(Answered::Whole) => socket.send(Frame::Complete { content: "" }.message()).await,
            Ok(Answered::Gone) => return,
            Err(why) => socket.send(Frame::Error { content: &why }.message()).await,
        };
        if sent.is_err() {
            return;
        }
    }
}

/// How an answer ended.
enum Answered {
    Whole,
    /// The client went away meanwhile.
    Gone,
}

/// Streams the answer to one message as token frames; `Err` is why none (or no more) could be
/// given.
async fn answer(
    socket: &mut WebSocket,
    state: &AppState,
    caller: &AuthUser,
    entity_id: Option<&str>,
    text: &str,
) -> Result<Answered, String> {
    // The budget first: a message is counted before any work is done for it, read or not.
    let assistant = assistant_for(state, caller).await.map_err(|e| e.to_string())?;
    let (conversation, file) = match serde_json::from_str::<Ask>(text) {
        Ok(Ask::Conversation { messages, file }) => (messages, file),
        Ok(Ask::Messages(messages)) => (messages, None),
        Err(_) => return Err("The message list could not be read".into()),
    };
    let entity = match entity_id {
        Some(id) => entity(state, caller, id, file.as_deref()).await,
        None => None,
    };
    let prompt = context::chat(entity.as_ref(), &conversation).map_err(|r| r.message().to_owned())?;
    let mut tokens = assistant.provider.stream(&prompt).await.map_err(failed)?;
    stream_tokens(socket, &mut tokens).await
}

async fn stream_tokens(socket: &mut WebSocket, tokens: &mut Tokens) -> Result<Answered, String> {
    loop {
        tokio::select! {
            part = provider::next_part(tokens) => match part.map_err(failed)? {
                None => return Ok(Answered::Whole),
                Some(content) => {
                    if socket.send(Frame::Token { content: &content }.message()).await.is_err() {
                        return Ok(Answered::Gone);
                    }
                }
            },
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Ok(Answered::Gone),
                // The console sends nothing while an answer streams; anything else waits.
                Some(Ok(_)) => {}
            },
        }
    }
}

fn failed(e: AiError) -> String {
    tracing::warn!(error = %e, "the assistant's provider failed");
    e.to_string()
}

/// What the caller may read of entity `id`; `None` when they cannot see it (the chat goes on
/// without it, saying nothing of whether it exists).
async fn entity(state: &AppState, caller: &AuthUser, id: &str, file: Option<&str>) -> Option<Entity> {
    let (asset, level) = assets::visible(state, &caller.user, id, None).await.ok()??;
    assets::require_asset_feature(state, &caller.user, &asset)
        .await
        .ok()?;
    let file = match (asset.kind, file) {
        (AssetKind::ProjectV2, Some(path)) => open_file(state, caller, id, path).await,
        _ => None,
    };
    let logs = if level >= AccessLevel::Execute {
        match Workload::of(&asset) {
            Some(w) => recent_logs(state, &w).await,
            None => None,
        }
    } else {
        None
    };
    Some(Entity {
        kind: asset.kind.label(),
        name: asset.name,
        description: asset.description,
        file,
        logs,
    })
}

/// The project's file at the head of its branch, when it is text.
async fn open_file(state: &AppState, caller: &AuthUser, id: &str, path: &str) -> Option<(String, String)> {
    let path = RepoPath::file(path).ok()?;
    let project = db::details::by_id::<ProjectRow>(&state.db, id).await.ok()??;
    let repo = git::repo(state, &caller.user, &project).await.ok()?;
    match state.git.contents(&repo, &path).await.ok()? {
        Contents::File(f) if !f.bytes.contains(&0) => Some((f.path, String::from_utf8(f.bytes).ok()?)),
        _ => None,
    }
}

/// The newest lines of the workload's running container.
async fn recent_logs(state: &AppState, workload: &Workload) -> Option<String> {
    let Found::Pod(pod) = workload.find(state).await else {
        return None;
    };
    let pods: Api<Pod> = workload.pods(state)?;
    let params = LogParams {
        container: Some(workload.container().into()),
        tail_lines: Some(LOG_LINES),
        limit_bytes: Some(64 * 1024),
        ..LogParams::default()
    };
    pods.logs(&pod, &params).await.ok()
}
