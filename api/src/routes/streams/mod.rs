//! A workload container's streams over websockets (spec 001 §7, contract "Websockets"):
//! `/containerLogs?id=` (the last 100 lines, then new ones, through kube's log stream; once the
//! container has ended, its archived log) and `/terminalConnection?id=` (a TTY shell through kube
//! exec, with resize). `id` is a project (its preview) or an application insight (its app). The
//! assistant's chat, `/aiChatResponse`, is admitted the same way ([`chat`]).
//!
//! Before the upgrade: the access token from `Sec-WebSocket-Protocol` (`ludis.v1,
//! bearer.<token>`; the answer names `ludis.v1`), an `Origin` that is the console's (a program
//! sends none), the asset kind's feature for the caller's role, and execute access on the asset
//! (404/403 by the one rule). The pod is resolved from the asset ([`workload`]) — never a pod the
//! client names. While open, the caller is checked again every 2 s: revoked access ends the
//! session with close code 4403; a session that ended (signed out, the password changed, the
//! account deactivated) with 4401. A terminal so ended also restarts its pod, so nothing the
//! caller started there runs on ([`terminal`]). `uid` is accepted and ignored.

mod chat;
mod logs;
mod terminal;
pub(crate) mod workload;

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
use serde::Deserialize;

use crate::{
    assets,
    auth::{AuthUser, extract::authenticate},
    db::assets::AssetRow,
    domain::{AccessLevel, AssetKind},
    error::{ApiError, Result},
    proxy::headers::forwarded_proto,
    runners::{self, Standing},
    state::AppState,
    telemetry::{self, WebSocketKind},
};
use workload::{Found, Workload};

/// How often an open stream checks its caller again: a revoke, a sign-out, a password change or
/// a deactivation ends it within this (and the check's own time), well under 5 s.
const RECHECK: Duration = Duration::from_secs(2);
const WAIT_POLL: Duration = Duration::from_secs(2);
/// Close code of a session whose access was revoked.
const REVOKED: u16 = 4403;
/// Close code of a session whose caller is no longer signed in.
const SIGNED_OUT: u16 = 4401;

/// The close frame that ends a stream for `standing`, if it ends.
fn close_frame(standing: Standing) -> Option<(u16, &'static str)> {
    match standing {
        Standing::Allowed => None,
        Standing::Revoked => Some((REVOKED, "access revoked")),
        Standing::SignedOut => Some((SIGNED_OUT, "signed out")),
    }
}
const PROTOCOL: &str = "ludis.v1";

/// The websocket routes, outside the JSON routes' timeout.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/containerLogs",
            get(|state, q, ws, headers, uri| {
                upgrade(state, q, ws, headers, uri, WebSocketKind::Logs, logs::session)
            }),
        )
        .route(
            "/terminalConnection",
            get(|state, q, ws, headers, uri| {
                upgrade(
                    state,
                    q,
                    ws,
                    headers,
                    uri,
                    WebSocketKind::Terminal,
                    terminal::session,
                )
            }),
        )
        .route("/aiChatResponse", get(chat::upgrade))
}

#[derive(Deserialize)]
struct StreamQuery {
    /// The project or insight id.
    id: String,
}

/// An admitted session: who, on what, and where its container lives.
pub(super) struct Session {
    caller: AuthUser,
    asset: AssetRow,
    /// The caller's level when the stream opened.
    level: AccessLevel,
    /// The level the caller must keep for the stream to stay open: execute, or edit for an
    /// editor's terminal in a preview's own container (its variables are theirs only).
    need: AccessLevel,
    workload: Workload,
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

/// The caller of a websocket, checked before the upgrade: the access token (from the
/// subprotocols, or an `Authorization` header from a program) and an `Origin` that is the
/// console's.
async fn admit_caller(state: &AppState, request: &HeaderMap, uri: &Uri) -> Result<AuthUser> {
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
    Ok(caller)
}

/// The checks before the upgrade: the caller ([`admit_caller`]), the asset kind's feature and
/// execute access on an asset that has a workload.
async fn admit(state: &AppState, request: &HeaderMap, uri: &Uri, id: &str) -> Result<Session> {
    let caller = admit_caller(state, request, uri).await?;
    // The id's kind decides the feature and the messages. An id the caller cannot see, or of a
    // kind without a workload, is the projects' 404 whatever it is.
    let kind = match assets::visible(state, &caller.user, id, None).await? {
        Some((asset, _)) if Workload::of(&asset).is_some() => {
            // A legacy project's container (JupyterLab) is the notebooks feature's.
            assets::require_asset_feature(state, &caller.user, &asset).await?;
            asset.kind
        }
        _ => return Err(assets::not_found(Some(AssetKind::ProjectV2))),
    };
    let (asset, level) = assets::require(state, &caller.user, kind, id, AccessLevel::Execute).await?;
    let workload = Workload::of(&asset).ok_or_else(|| assets::not_found(Some(kind)))?;
    Ok(Session {
        caller,
        asset,
        level,
        need: AccessLevel::Execute,
        workload,
    })
}

fn host<'a>(headers: &'a HeaderMap, uri: &'a Uri) -> &'a str {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
        .unwrap_or_default()
}

impl Session {
    /// Where the caller stands now ([`runners::standing`]): still signed in, still with the
    /// level the stream needs.
    async fn standing(&self, state: &AppState) -> Standing {
        let caller = &self.caller;
        runners::standing(
            state,
            &caller.user.uid,
            caller.session.as_deref(),
            &self.asset,
            self.need,
        )
        .await
    }

    /// Closes `socket` when the caller may no longer have it; whether it was closed.
    async fn ended(&self, socket: &mut WebSocket, state: &AppState) -> Option<Standing> {
        let standing = self.standing(state).await;
        let (code, reason) = close_frame(standing)?;
        close(socket, code, reason).await;
        Some(standing)
    }

    /// Waits for the container, re-checking access; `None` when the session ended meanwhile.
    /// With `until_stopped`, also returns [`Waited::Stopped`] the first time nothing runs nor is
    /// on its way (the log view then sends the archive, if any).
    async fn wait_for_pod(
        &self,
        socket: &mut WebSocket,
        state: &AppState,
        until_stopped: bool,
    ) -> Option<Waited> {
        let mut told = false;
        loop {
            if self.ended(socket, state).await.is_some() {
                return None;
            }
            match self.workload.find(state).await {
                Found::Pod(name) => return Some(Waited::Pod(name)),
                Found::Stopped if until_stopped => return Some(Waited::Stopped),
                Found::Stopped | Found::Starting => {}
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
}

/// What waiting for the container found.
enum Waited {
    /// The pod's name.
    Pod(String),
    /// Nothing runs nor is asked to.
    Stopped,
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

/// Upgrades after [`admit`] to `session` (counted as a session of `kind`), answering the
/// `ludis.v1` subprotocol.
async fn upgrade<F, Fut>(
    State(state): State<AppState>,
    Query(q): Query<StreamQuery>,
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    uri: Uri,
    kind: WebSocketKind,
    session: F,
) -> Response
where
    F: FnOnce(WebSocket, AppState, Session) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let id = q.id.trim().to_owned();
    let admitted = match admit(&state, &headers, &uri, &id).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let counted = telemetry::session(state.metrics.clone(), kind);
    ws.protocols([PROTOCOL])
        .on_upgrade(move |socket| counted.run(session(socket, state, admitted)))
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
