//! `/containerLogs`: the last [`TAIL_LINES`] lines of the container's log, then new ones as they
//! come; once nothing runs, the newest archived log (its last [`ARCHIVE_LINES`] lines) and the
//! socket closes with 1000. Status frames say which the viewer is looking at.

use axum::extract::ws::{Message, WebSocket};
use futures::{AsyncBufReadExt as _, TryStreamExt as _};
use kube::api::LogParams;

use super::{RECHECK, Session, Waited, close, status};
use crate::state::AppState;

/// Log lines sent before following (the spec's log buffer).
const TAIL_LINES: i64 = 100;
/// Lines of an archived log sent.
const ARCHIVE_LINES: usize = 1000;

pub(super) async fn session(mut socket: WebSocket, state: AppState, session: Session) {
    let pod = match session.wait_for_pod(&mut socket, &state, true).await {
        Some(Waited::Pod(pod)) => pod,
        Some(Waited::Stopped) => {
            if send_archive(&mut socket, &state, &session).await {
                return;
            }
            match session.wait_for_pod(&mut socket, &state, false).await {
                Some(Waited::Pod(pod)) => pod,
                _ => return,
            }
        }
        None => return,
    };
    let Some(pods) = session.workload.pods(&state) else {
        return;
    };
    let params = LogParams {
        container: Some(session.workload.container().into()),
        follow: true,
        tail_lines: Some(TAIL_LINES),
        ..LogParams::default()
    };
    let mut lines = match pods.log_stream(&pod, &params).await {
        Ok(stream) => stream.lines(),
        Err(e) => {
            tracing::warn!(asset = %session.asset.id, error = %e, "failed to open a container's log");
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
                if session.ended(&mut socket, &state).await.is_some() {
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

/// Sends the newest archived log and closes; `false` (and nothing sent) when there is none.
async fn send_archive(socket: &mut WebSocket, state: &AppState, session: &Session) -> bool {
    let Some(log) = session
        .workload
        .archive(state, &session.asset.organization_id)
        .await
    else {
        return false;
    };
    if socket.send(status("ended")).await.is_err() {
        return true;
    }
    for line in ludis_storage::logs::last_lines(&log, ARCHIVE_LINES) {
        if socket.send(Message::Text(line.into())).await.is_err() {
            return true;
        }
    }
    close(socket, 1000, "the container has ended").await;
    true
}
