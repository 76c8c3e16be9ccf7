//! `/terminalConnection`: an interactive TTY shell in the container through kube exec (bash when
//! the image has it, else sh), binary frames both ways, resized by a JSON text frame
//! `{"type":"resize","cols":N,"rows":N}`; the socket closes when the shell exits.
//!
//! When the caller's access or session ends while the terminal is open, the socket closes and the
//! pod is restarted (deleted; its controller makes it again): a shell's children outlive it
//! (`nohup`, `setsid`), and nothing the caller started there may run on after their access. A
//! terminal of someone other than the owner is recorded on the pod first ([`runners`]), so the
//! same happens when their access ends after the terminal closed.

use axum::extract::ws::{Message, WebSocket};
use futures::SinkExt as _;
use kube::api::{AttachParams, TerminalSize};
use serde::Deserialize;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use super::{RECHECK, Session, Waited, close};
use crate::{
    domain::AccessLevel,
    runners::{self, Runner},
    state::AppState,
};

#[derive(Deserialize)]
struct Resize {
    #[serde(rename = "type")]
    kind: String,
    cols: u16,
    rows: u16,
}

pub(super) async fn session(mut socket: WebSocket, state: AppState, mut session: Session) {
    let (Some(Waited::Pod(pod)), Some(pods)) = (
        session.wait_for_pod(&mut socket, &state, false).await,
        session.workload.pods(&state),
    ) else {
        return;
    };
    // An open terminal is use: its preview or app does not go idle while it lasts.
    let _held = crate::idle::hold(&state, &session.asset.id);
    let shell = [
        "sh",
        "-c",
        "command -v bash >/dev/null 2>&1 && exec bash -l || exec sh -l",
    ];
    let container = session.workload.terminal_container(session.level);
    // A preview started before collaborators' shells existed has none: below edit, no terminal
    // until it restarts (a shell in its own container would show the project's variables).
    if !pods
        .get_opt(&pod)
        .await
        .ok()
        .flatten()
        .and_then(|p| p.spec)
        .is_some_and(|s| s.containers.iter().any(|c| c.name == container))
    {
        close(&mut socket, 4409, "restart the preview to open a terminal in it").await;
        return;
    }
    // An editor's terminal in a preview's own container (its variables) stays open while they
    // keep edit.
    if container != session.workload.terminal_container(AccessLevel::Execute) {
        session.need = AccessLevel::Edit;
    }
    // Someone else's code in the owner's pod: recorded before it runs (their storage reach, and
    // the pod's restart when their access or session ends, even after this terminal closed).
    if session.asset.owner_uid.as_deref() != Some(session.caller.user.uid.as_str()) {
        let runner = Runner {
            uid: session.caller.user.uid.clone(),
            session: session.caller.session.clone(),
            need: session.need,
            container: container.to_owned(),
        };
        if let Err(e) = runners::record(&state, &session.workload.namespace, &pod, runner).await {
            tracing::warn!(asset = %session.asset.id, error = %e, "failed to record a terminal's runner");
            close(&mut socket, 1011, "the terminal could not be opened").await;
            return;
        }
    }
    let params = AttachParams::interactive_tty().container(container);
    let mut process = match pods.exec(&pod, shell, &params).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(asset = %session.asset.id, error = %e, "failed to open a terminal");
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
                    // A shell ends with its pod too, which the runners' sweep restarts when the
                    // caller's access ends: then the caller hears why.
                    if session.ended(&mut socket, &state).await.is_none() {
                        close(&mut socket, 1000, "the shell exited").await;
                    }
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
                if let Some(standing) = session.ended(&mut socket, &state).await {
                    tracing::info!(
                        asset = %session.asset.id, user = %session.caller.user.uid, ?standing, %pod,
                        "a terminal's caller lost access: restarting its pod"
                    );
                    if let Err(e) = pods.delete(&pod, &kube::api::DeleteParams::default()).await {
                        tracing::warn!(%pod, error = %e, "failed to restart the pod of a closed terminal");
                    }
                    return;
                }
            }
        }
    }
}
