//! The preview container's streams over websockets (spec 001 §7, contract "Websockets"):
//! `/containerLogs?id=` (the last 100 lines, then new ones, through kube's log stream) and
//! `/terminalConnection?id=` (a TTY shell through kube exec, with resize).
//!
//! Before the upgrade: the access token from `Sec-WebSocket-Protocol` (`ludis.v1,
//! bearer.<token>`; the answer names `ludis.v1`), an `Origin` that is the console's (a program
//! sends none), the projects feature for the caller's role, and execute access on the project
//! (404/403 by the one rule). The pod is the one the Project's status names, in the project's
//! namespace and labelled with the project — never a pod the client names. While open, access
//! is checked again (every 2 s while waiting for the pod, every 15 s after): revoked access ends
//! the session with close code 4403. `uid` is accepted and ignored.

use std::time::Duration;

use axum::{
    Router,
    extract::{
        Query, State,
        ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade},
    },
    http::{HeaderMap, HeaderValue, Uri, header},
    response::{IntoResponse, Response},
    routing::get,
};
use futures::{AsyncBufReadExt as _, SinkExt as _, TryStreamExt as _};
use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api,
    api::{AttachParams, LogParams, TerminalSize},
};
use ludis_crds::{LABEL_PROJECT, Project as ProjectCr};
use serde::Deserialize;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use super::load;
use crate::{
    assets,
    auth::{AuthUser, extract::authenticate},
    domain::{AccessLevel, AssetKind},
    error::{ApiError, Result},
    proxy::headers::forwarded_proto,
    state::AppState,
};

/// The preview's container (the operator's name for it).
const CONTAINER: &str = "preview";
/// Log lines sent before following.
const TAIL_LINES: i64 = 100;
const RECHECK: Duration = Duration::from_secs(15);
const WAIT_POLL: Duration = Duration::from_secs(2);
/// Close code of a session whose access was revoked.
const REVOKED: u16 = 4403;
const PROTOCOL: &str = "ludis.v1";

/// The two websocket routes, outside the JSON routes' timeout.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/containerLogs",
            get(|state, q, ws, headers, uri| upgrade(state, q, ws, headers, uri, logs_session)),
        )
        .route(
            "/terminalConnection",
            get(|state, q, ws, headers, uri| upgrade(state, q, ws, headers, uri, terminal_session)),
        )
}

#[derive(Deserialize)]
struct StreamQuery {
    /// The project id.
    id: String,
}

/// The token of `Sec-WebSocket-Protocol: ludis.v1, bearer.<token>`.
fn protocol_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix("bearer.").map(str::to_owned))
}

/// Pure: whether the request's `Origin` may open a stream: none (a program), or the console's —
/// `LUDIS_PUBLIC_URL`'s origin when set, else the origin the request reached.
pub fn origin_allowed(origin: Option<&str>, public_url: &str, reached: &str) -> bool {
    let Some(origin) = origin else { return true };
    let own = match url::Url::parse(public_url.trim()) {
        Ok(u) if !public_url.trim().is_empty() => u.origin().ascii_serialization(),
        _ => reached.to_owned(),
    };
    origin.eq_ignore_ascii_case(&own)
}

/// The checks before the upgrade: the caller (token, Origin, feature) and execute access.
async fn admit(state: &AppState, request: &HeaderMap, uri: &Uri, id: &str) -> Result<AuthUser> {
    let mut headers = request.clone();
    if let Some(token) = protocol_token(request)
        && let Ok(v) = HeaderValue::from_str(&format!("Bearer {token}"))
    {
        headers.insert(header::AUTHORIZATION, v);
    }
    let caller = authenticate(state, &headers)
        .await?
        .ok_or_else(|| ApiError::unauthorized("missing_token", "Missing token"))?;
    let reached = format!("{}://{}", forwarded_proto(request), host(request, uri));
    let origin = request.get(header::ORIGIN).map(|v| v.to_str().unwrap_or("null"));
    if !origin_allowed(origin, &state.settings.public_url, &reached) {
        return Err(ApiError::forbidden(
            "origin_refused",
            "This origin may not open the stream",
        ));
    }
    assets::require_feature(state, &caller.user, AssetKind::ProjectV2).await?;
    load(state, &caller, id, AccessLevel::Execute).await?;
    Ok(caller)
}

fn host<'a>(headers: &'a HeaderMap, uri: &'a Uri) -> &'a str {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
        .unwrap_or_default()
}

/// Whether the caller still may use the project's streams.
async fn still_allowed(state: &AppState, caller: &AuthUser, id: &str) -> bool {
    match crate::db::users::by_uid(&state.db, &caller.user.uid).await {
        Ok(Some(user)) if user.is_active() => {
            assets::require(state, &user, AssetKind::ProjectV2, id, AccessLevel::Execute)
                .await
                .is_ok()
        }
        _ => false,
    }
}

/// The preview pod of project `id`, when it has one: the name in the Project's status, checked
/// to be in the project's namespace with the project's label.
async fn preview_pod(state: &AppState, id: &str) -> Option<(Api<Pod>, String)> {
    let client = state.kube.clone()?;
    let asset = crate::db::assets::by_id(&state.db, id).await.ok()??;
    let (namespace, name) = (asset.namespace?, asset.resource_name?);
    let project = Api::<ProjectCr>::namespaced(client.clone(), &namespace)
        .get_opt(&name)
        .await
        .ok()??;
    let pod_name = project.status?.preview_pod?;
    let pods = Api::<Pod>::namespaced(client, &namespace);
    let pod = pods.get_opt(&pod_name).await.ok()??;
    let labelled = pod
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(LABEL_PROJECT))
        .is_some_and(|p| *p == name);
    let running = pod
        .status
        .and_then(|s| s.phase)
        .is_some_and(|p| p == "Running" || p == "Succeeded" || p == "Failed");
    (labelled && running).then_some((pods, pod_name))
}

fn status(s: &str) -> Message {
    Message::Text(format!(r#"{{"type":"status","status":"{s}"}}"#).into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// Waits for the preview pod, re-checking access; `None` when the session ended meanwhile.
async fn wait_for_pod(
    socket: &mut WebSocket,
    state: &AppState,
    caller: &AuthUser,
    id: &str,
) -> Option<(Api<Pod>, String)> {
    let mut told = false;
    loop {
        if !still_allowed(state, caller, id).await {
            close(socket, REVOKED, "access revoked").await;
            return None;
        }
        if let Some(found) = preview_pod(state, id).await {
            return Some(found);
        }
        if !told {
            told = true;
            if socket.send(status("waiting")).await.is_err() {
                return None;
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(WAIT_POLL) => {}
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// Upgrades after [`admit`] to `session`, answering the `ludis.v1` subprotocol.
async fn upgrade<F, Fut>(
    State(state): State<AppState>,
    Query(q): Query<StreamQuery>,
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    uri: Uri,
    session: F,
) -> Response
where
    F: FnOnce(WebSocket, AppState, AuthUser, String) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let id = q.id.trim().to_owned();
    let caller = match admit(&state, &headers, &uri, &id).await {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    ws.protocols([PROTOCOL])
        .on_upgrade(move |socket| session(socket, state, caller, id))
}

async fn logs_session(mut socket: WebSocket, state: AppState, caller: AuthUser, id: String) {
    let Some((pods, pod)) = wait_for_pod(&mut socket, &state, &caller, &id).await else {
        return;
    };
    let params = LogParams {
        container: Some(CONTAINER.into()),
        follow: true,
        tail_lines: Some(TAIL_LINES),
        ..LogParams::default()
    };
    let mut lines = match pods.log_stream(&pod, &params).await {
        Ok(stream) => stream.lines(),
        Err(e) => {
            tracing::warn!(project = %id, error = %e, "failed to open a preview's log");
            close(&mut socket, 1011, "the log could not be read").await;
            return;
        }
    };
    if socket.send(status("running")).await.is_err() {
        return;
    }
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.tick().await;
    loop {
        tokio::select! {
            line = lines.try_next() => match line {
                Ok(Some(line)) => {
                    if socket.send(Message::Text(line.into())).await.is_err() {
                        return;
                    }
                }
                _ => {
                    let _ = socket.send(status("ended")).await;
                    close(&mut socket, 1000, "the container ended").await;
                    return;
                }
            },
            _ = recheck.tick() => {
                if !still_allowed(&state, &caller, &id).await {
                    close(&mut socket, REVOKED, "access revoked").await;
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

#[derive(Deserialize)]
struct Resize {
    #[serde(rename = "type")]
    kind: String,
    cols: u16,
    rows: u16,
}

async fn terminal_session(mut socket: WebSocket, state: AppState, caller: AuthUser, id: String) {
    let Some((pods, pod)) = wait_for_pod(&mut socket, &state, &caller, &id).await else {
        return;
    };
    let shell = [
        "sh",
        "-c",
        "command -v bash >/dev/null 2>&1 && exec bash -l || exec sh -l",
    ];
    let params = AttachParams::interactive_tty().container(CONTAINER);
    let mut process = match pods.exec(&pod, shell, &params).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(project = %id, error = %e, "failed to open a terminal in a preview");
            close(&mut socket, 1011, "the terminal could not be opened").await;
            return;
        }
    };
    let (Some(mut stdin), Some(mut stdout), Some(mut size)) =
        (process.stdin(), process.stdout(), process.terminal_size())
    else {
        close(&mut socket, 1011, "the terminal could not be opened").await;
        return;
    };
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.tick().await;
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        tokio::select! {
            read = stdout.read(&mut buffer) => match read {
                Ok(0) | Err(_) => {
                    close(&mut socket, 1000, "the shell exited").await;
                    return;
                }
                Ok(n) => {
                    if socket.send(Message::Binary(buffer[..n].to_vec().into())).await.is_err() {
                        return;
                    }
                }
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Binary(bytes))) => {
                    if stdin.write_all(&bytes).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Text(text))) => {
                    if let Ok(r) = serde_json::from_str::<Resize>(&text)
                        && r.kind == "resize"
                    {
                        let _ = size.send(TerminalSize { width: r.cols, height: r.rows }).await;
                    }
                }
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
            _ = recheck.tick() => {
                if !still_allowed(&state, &caller, &id).await {
                    close(&mut socket, REVOKED, "access revoked").await;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_rides_in_the_subprotocols() {
        let mut h = HeaderMap::new();
        h.insert(
            header::SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static("ludis.v1, bearer.abc.def"),
        );
        assert_eq!(protocol_token(&h).as_deref(), Some("abc.def"));
        assert_eq!(protocol_token(&HeaderMap::new()), None);
    }

    #[test]
    fn only_the_consoles_origin_opens_a_stream() {
        assert!(origin_allowed(None, "", "http://localhost:8080"));
        assert!(origin_allowed(
            Some("http://localhost:8080"),
            "",
            "http://localhost:8080"
        ));
        assert!(!origin_allowed(
            Some("http://evil.example"),
            "",
            "http://localhost:8080"
        ));
        assert!(origin_allowed(
            Some("https://ludis.example"),
            "https://ludis.example/",
            "http://10.0.0.1:8080"
        ));
        assert!(!origin_allowed(Some("null"), "https://ludis.example", "http://x"));
    }
}
