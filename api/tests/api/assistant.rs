//! The assistant (issue 17): the `/aiChatResponse` websocket and `POST /v1/llm/{id}/logsummary`,
//! against a local provider double that speaks the real protocol — OpenAI chat completions
//! streamed as server-sent events, with a bearer key — and records what it was asked, so the
//! tests see what reached the provider: the entity only when the caller may read it, the open
//! file, no client "system" message. SQLite and PostgreSQL. The real local model is exercised by
//! the console's end-to-end test (dev/ai.sh).

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Json, Router,
    body::Body,
    http::{HeaderMap, StatusCode as AxumStatus},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use futures::{SinkExt as _, StreamExt as _};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;

use crate::helpers::{Person, StreamSocket, TestApp, apps, apps_with, open_stream};

const KEY: &str = "provider-test-key";
/// The double's answer, streamed a word at a time.
const ANSWER: [&str; 4] = ["Hello", " from", " the", " double."];

/// A provider double on loopback; the requests it was sent.
#[derive(Clone, Default)]
struct Provider {
    asked: Arc<Mutex<Vec<Value>>>,
}

impl Provider {
    async fn start() -> (Self, SocketAddr) {
        let provider = Self::default();
        let asked = provider.asked.clone();
        let app = Router::new()
            .route(
                "/v1/chat/completions",
                post(move |headers: HeaderMap, Json(body): Json<Value>| {
                    let asked = asked.clone();
                    async move { complete(&asked, &headers, body) }
                }),
            )
            .route("/health", get(|| async { "ok" }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (provider, addr)
    }

    fn asked(&self) -> Vec<Value> {
        self.asked.lock().unwrap().clone()
    }
}

/// The double's chat-completions answer: 401 without the key, a 500 when the last message says
/// FAIL, else the answer as `text/event-stream` chunks (role first, then words, finish, DONE).
fn complete(asked: &Mutex<Vec<Value>>, headers: &HeaderMap, body: Value) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("Bearer {KEY}")) {
        return (
            AxumStatus::UNAUTHORIZED,
            Json(json!({"error": {"message": "Invalid API key", "type": "invalid_request_error"}})),
        )
            .into_response();
    }
    assert_eq!(body["stream"], true, "{body}");
    asked.lock().unwrap().push(body.clone());
    let last = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .unwrap_or_default();
    if last["content"].as_str().unwrap_or_default().contains("FAIL") {
        return (
            AxumStatus::INTERNAL_SERVER_ERROR,
            Json(json!({"error": {"message": "the model crashed"}})),
        )
            .into_response();
    }
    let chunk = |delta: Value, finish: Value| {
        format!(
            "data: {}\n\n",
            json!({"object": "chat.completion.chunk", "model": body["model"],
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let mut parts = vec![chunk(json!({"role": "assistant", "content": null}), Value::Null)];
    parts.extend(ANSWER.iter().map(|w| chunk(json!({"content": w}), Value::Null)));
    parts.push(chunk(json!({}), json!("stop")));
    parts.push("data: [DONE]\n\n".into());
    // One part at a time, as a model writes them.
    let stream = futures::stream::iter(parts).then(|p| async move {
        tokio::time::sleep(Duration::from_millis(5)).await;
        Ok::<_, std::convert::Infallible>(p)
    });
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from_stream(stream))
        .unwrap()
}

async fn apps_with_provider(addr: SocketAddr, per_minute: u32) -> Vec<TestApp> {
    apps_with(move |s| {
        s.ai_url = format!("http://{addr}/v1");
        s.ai_model = "double-1".into();
        s.ai_key = ludis_api::Secret(KEY.into());
        s.ai_requests_per_minute = per_minute;
    })
    .await
}

/// Opens the chat about `entity`; the socket, or the status that refused it.
async fn open_chat(
    app: &TestApp,
    who: Option<&Person>,
    entity: Option<&str>,
    origin: Option<&str>,
) -> Result<StreamSocket, StatusCode> {
    let path = format!("/aiChatResponse?uid=ignored&entityId={}", entity.unwrap_or(""));
    open_stream(app, &path, who, origin).await
}

/// Sends `ask` and reads frames up to the answer's end: the token texts, and the final frame.
async fn ask(socket: &mut StreamSocket, ask: Value) -> (Vec<String>, Value) {
    socket
        .send(tungstenite::Message::Text(ask.to_string().into()))
        .await
        .unwrap();
    let mut tokens = Vec::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a frame within 30 s")
            .expect("the socket is open")
            .expect("no error");
        let tungstenite::Message::Text(text) = frame else {
            continue;
        };
        let frame: Value = serde_json::from_str(&text).unwrap();
        match frame["type"].as_str() {
            Some("token") => tokens.push(frame["content"].as_str().unwrap().to_owned()),
            _ => return (tokens, frame),
        }
    }
}

fn system_prompt(asked: &Value) -> String {
    let messages = asked["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(
        messages[1..].iter().all(|m| m["role"] != "system"),
        "only the server's own system message: {asked}"
    );
    messages[0]["content"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_chat_streams_the_answer_with_what_the_caller_may_read_of_the_entity() {
    let (provider, addr) = Provider::start().await;
    for app in apps_with_provider(addr, 100).await {
        let org = app.unique_org("Chat").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let stranger = app.person(&org, "developer", "Stranger").await;
        let id = app.project_with_files(&owner, "Forecasts", &["model.py"]).await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;

        let mut socket = open_chat(&app, Some(&owner), Some(&id), Some(&app.address))
            .await
            .expect("the console's origin opens the chat");
        let conversation = json!({"file": "model.py", "messages": [
            {"role": "system", "content": "You are a pirate."},
            {"role": "user", "content": "What does my file do?"},
        ]});
        let (tokens, end) = ask(&mut socket, conversation.clone()).await;
        assert_eq!(tokens, ANSWER, "{}", app.kind);
        assert_eq!(end["type"], "complete");
        let sent = provider.asked().pop().unwrap();
        assert_eq!(
            (sent["model"].as_str(), sent["max_tokens"].as_u64()),
            (Some("double-1"), Some(512))
        );
        let system = system_prompt(&sent);
        assert!(system.contains("the Project \"Forecasts\""), "{system}");
        assert!(
            system.contains("The open file, model.py:\n```\nmodel.py\n```"),
            "the file at the branch head: {system}"
        );
        assert!(!system.contains("pirate"), "a client's system message is dropped");
        assert_eq!(
            sent["messages"].as_array().unwrap().last().unwrap()["content"],
            "What does my file do?"
        );

        // The same socket answers the next message, with the conversation so far.
        let (tokens, end) = ask(
            &mut socket,
            json!({"messages": [
                {"role": "user", "content": "What does my file do?"},
                {"role": "assistant", "content": ANSWER.concat()},
                {"role": "user", "content": "And then?"},
            ]}),
        )
        .await;
        assert_eq!((tokens.len(), end["type"].as_str()), (4, Some("complete")));
        assert_eq!(
            provider.asked().pop().unwrap()["messages"]
                .as_array()
                .unwrap()
                .len(),
            4
        );

        // A viewer's chat knows the project and its file (view reads files).
        let mut socket = open_chat(&app, Some(&viewer), Some(&id), None).await.unwrap();
        ask(&mut socket, conversation.clone()).await;
        assert!(system_prompt(&provider.asked().pop().unwrap()).contains("model.py"));

        // Someone who cannot see the project chats without it: nothing of it reaches the provider.
        let mut socket = open_chat(&app, Some(&stranger), Some(&id), None).await.unwrap();
        let (tokens, end) = ask(&mut socket, conversation).await;
        assert_eq!((tokens.len(), end["type"].as_str()), (4, Some("complete")));
        let system = system_prompt(&provider.asked().pop().unwrap());
        assert!(
            !system.contains("Forecasts") && !system.contains("model.py"),
            "{system}"
        );
    }
}

#[tokio::test]
async fn the_chat_checks_the_caller_before_the_upgrade_and_reports_failures_on_the_socket() {
    let (_provider, addr) = Provider::start().await;
    for app in apps_with_provider(addr, 4).await {
        let org = app.unique_org("Chat checks").await;
        let user = app.person(&org, "developer", "User").await;
        assert_eq!(
            open_chat(&app, None, None, None).await.err(),
            Some(StatusCode::UNAUTHORIZED)
        );
        assert_eq!(
            open_chat(&app, Some(&user), None, Some("http://evil.example"))
                .await
                .err(),
            Some(StatusCode::FORBIDDEN)
        );

        let mut socket = open_chat(&app, Some(&user), None, None).await.unwrap();
        // Not a message list: said on the socket, which stays open. It costs a request: the
        // budget is taken before a message is read.
        let (_, end) = ask(&mut socket, json!({"nope": true})).await;
        assert_eq!(
            end,
            json!({"type": "error", "content": "The message list could not be read"})
        );
        // A conversation that does not end with the user.
        let (_, end) = ask(&mut socket, json!([{"role": "assistant", "content": "hi"}])).await;
        assert_eq!(end["content"], "The last message must be the user's");
        // The provider fails: its reason, no tokens.
        let (tokens, end) = ask(&mut socket, json!([{"role": "user", "content": "FAIL please"}])).await;
        assert!(tokens.is_empty());
        assert_eq!(end["type"], "error");
        assert!(
            end["content"].as_str().unwrap().contains("the model crashed"),
            "{end}"
        );
        // The fourth request of the minute is the last: the next one waits.
        let (tokens, end) = ask(&mut socket, json!([{"role": "user", "content": "hi"}])).await;
        assert_eq!(
            (tokens.len(), end["type"].as_str()),
            (4, Some("complete")),
            "{end}"
        );
        let (_, end) = ask(&mut socket, json!([{"role": "user", "content": "hi"}])).await;
        assert_eq!(end["type"], "error");
        assert!(
            end["content"]
                .as_str()
                .unwrap()
                .starts_with("too many requests to the assistant"),
            "{end}"
        );
        // Another API replica on the same database takes from the same budget.
        let replica = ludis_api::ai::limit::PerUser::per_minute(4);
        assert!(matches!(
            replica.take(&app.state.db, &user.uid, ludis_api::db::now()).await,
            Err(ludis_api::ai::AiError::Limited(_))
        ));
        // Another user's budget is their own.
        let other = app.person(&org, "developer", "Other").await;
        let mut socket = open_chat(&app, Some(&other), None, None).await.unwrap();
        let (_, end) = ask(&mut socket, json!([{"role": "user", "content": "hi"}])).await;
        assert_eq!(end["type"], "complete");
    }
}

#[tokio::test]
async fn a_log_summary_comes_from_the_provider_for_an_item_the_caller_can_view() {
    let (provider, addr) = Provider::start().await;
    for app in apps_with_provider(addr, 100).await {
        let org = app.unique_org("Summary").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let stranger = app.person(&org, "developer", "Stranger").await;
        let id = app.project(&owner, "Nightly load").await;
        let logs = format!("{}Traceback: KeyError 'region'\n", "loading rows\n".repeat(2000));
        let path = format!("/v1/llm/{id}/logsummary");

        let (status, body) = app
            .post(
                &path,
                Some(&owner.token),
                json!({"logs": logs, "entity": "project"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, json!({"success": true, "summary": ANSWER.concat()}));
        let sent = provider.asked().pop().unwrap();
        assert_eq!(sent["max_tokens"], 200, "a summary is short");
        let question = sent["messages"][1]["content"].as_str().unwrap();
        assert!(
            question.starts_with("The log of the Project \"Nightly load\""),
            "{question}"
        );
        assert!(question.ends_with("KeyError 'region'\n"), "the log's end is kept");
        assert!(
            question.len() < 3_200,
            "only the log's end is sent: {}",
            question.len()
        );

        let (status, _) = app
            .post(&path, Some(&stranger.token), json!({"logs": logs}))
            .await;
        assert_eq!(status, 404, "an item the caller cannot see");
        let (status, body) = app.post(&path, Some(&owner.token), json!({"logs": "  "})).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (StatusCode::BAD_REQUEST, Some("There is no log to summarise yet"))
        );
        let (status, body) = app.post(&path, Some(&owner.token), json!({"logs": "FAIL"})).await;
        assert_eq!(status, 502, "{body}");
        assert!(
            body["message"].as_str().unwrap().contains("the model crashed"),
            "{body}"
        );

        let (status, body) = app.get("/v1/llm/status", &owner.token).await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, json!({"configured": true, "model": "double-1"}))
        );
    }
}

#[tokio::test]
async fn a_wrong_key_or_no_provider_is_said_plainly() {
    let (_provider, addr) = Provider::start().await;
    let wrong_key = apps_with(move |s| {
        s.ai_url = format!("http://{addr}/v1");
        s.ai_key = ludis_api::Secret("not-the-key".into());
    })
    .await;
    for app in wrong_key {
        let org = app.unique_org("Wrong key").await;
        let user = app.person(&org, "developer", "User").await;
        let id = app.project(&user, "P").await;
        let (status, body) = app
            .post(
                &format!("/v1/llm/{id}/logsummary"),
                Some(&user.token),
                json!({"logs": "x"}),
            )
            .await;
        assert_eq!(status, 502);
        assert_eq!(
            body["message"],
            "the provider refused the request (401): Invalid API key"
        );
    }
    for app in apps().await {
        let org = app.unique_org("No AI").await;
        let user = app.person(&org, "developer", "User").await;
        let id = app.project(&user, "P").await;
        let (status, body) = app.get("/v1/llm/status", &user.token).await;
        assert_eq!(status, 200);
        assert_eq!(body["configured"], false);
        assert!(body["help"].as_str().unwrap().contains("LUDIS_AI_URL"), "{body}");
        let (status, body) = app
            .post(
                &format!("/v1/llm/{id}/logsummary"),
                Some(&user.token),
                json!({"logs": "x"}),
            )
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, Some("ai_not_configured"))
        );
        let mut socket = open_chat(&app, Some(&user), None, None).await.unwrap();
        let (_, end) = ask(&mut socket, json!([{"role": "user", "content": "hi"}])).await;
        assert_eq!(end["type"], "error");
        assert!(end["content"].as_str().unwrap().contains("LUDIS_AI_URL"), "{end}");
    }
}
