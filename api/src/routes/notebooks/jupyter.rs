//! A notebook in JupyterLab (spec 001 §2 `/notebooks/{id}`, §7): open it (the project's notebook
//! server starts on the workspace, and the answer is the frame's address through the app proxy),
//! its read-only preview, commit it (the file as JupyterLab saved it in the workspace, read from
//! the running container, committed by the caller on the version it was opened from), and the
//! notebook server's address (`getJupyterDevUrl`).

use axum::{Json, extract::State};
use k8s_openapi::api::core::v1::Pod;
use kube::{Api, api::AttachParams};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncReadExt as _;
use utoipa::ToSchema;

use super::{files, load_notebook, load_project, view::JupyterState};
use crate::{
    auth::AuthUser,
    db::{self, activity::Activity, notebooks as rows, notebooks::NotebookRow, projects::Project},
    domain::{AccessLevel, ActivityAction, ProjectStatus},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    notebooks::ipynb,
    routes::{
        projects::run::set_running,
        streams::workload::{Found, Workload},
    },
    state::AppState,
};

/// 409 when the notebook server does not run (spec: the commit modal is on the open view).
pub const NOT_OPEN: &str = "Open the notebook first: its changes are in the running JupyterLab";

#[derive(Serialize, ToSchema)]
pub struct OpenAnswer {
    pub success: bool,
    /// The notebook in JupyterLab through the app proxy (with a one-use ticket) once the server
    /// runs; null while it starts (poll `GET /v1/notebook/detail/{id}`).
    #[schema(required)]
    pub iframe: Option<String>,
    pub jupyter: JupyterState,
}

/// The frame's address of notebook `n` in its project's server, as `caller` sees it (with when
/// the server stops if nobody uses it).
pub async fn iframe(
    state: &AppState,
    caller: &AuthUser,
    p: &Project,
    n: &NotebookRow,
    level: AccessLevel,
) -> Result<(Option<String>, JupyterState)> {
    let jupyter = JupyterState::of(state, caller, p, level)
        .with_shutdown(state, p)
        .await?;
    Ok((jupyter.notebook_url(&n.path), jupyter))
}

/// Open a notebook (execute access on its project): its project's JupyterLab starts when it
/// does not run (with the latest commit), and the notebook's commits are then based on the
/// version it starts from.
#[utoipa::path(post, path = "/v1/notebook/{id}/open", tag = "notebooks",
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, body = OpenAnswer),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Notebook not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn open_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<OpenAnswer>> {
    let (n, mut project, level) = load_notebook(&state, &caller, &id, AccessLevel::Execute).await?;
    let d = &project.details;
    if !d.running || d.status == ProjectStatus::Failed {
        // The server starts from the branch head: that is the version this notebook is edited from.
        let head = files::read(&state, &caller, &project, &n).await.ok();
        set_running(&state, &mut project, true).await?;
        let base = head.map(|f| f.sha.as_str().to_owned());
        rows::set_base(&state.db, &n.id, base.as_deref(), db::now()).await?;
    }
    let (iframe, jupyter) = iframe(&state, &caller, &project, &n, level).await?;
    Ok(Json(OpenAnswer {
        success: true,
        iframe,
        jupyter,
    }))
}

/// Stop a notebook's server (execute access on its project): its project's JupyterLab ends, and
/// with it every kernel; what JupyterLab saved stays in the workspace for the next open.
#[utoipa::path(post, path = "/v1/notebook/{id}/stop", tag = "notebooks",
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, body = OpenAnswer),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Notebook not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn stop_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<OpenAnswer>> {
    let (n, mut project, level) = load_notebook(&state, &caller, &id, AccessLevel::Execute).await?;
    set_running(&state, &mut project, false).await?;
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Stopped)
        .record(&state.db)
        .await;
    let (iframe, jupyter) = iframe(&state, &caller, &project, &n, level).await?;
    Ok(Json(OpenAnswer {
        success: true,
        iframe,
        jupyter,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct NotebookPreviewAnswer {
    pub success: bool,
    /// A read-only HTML page of the notebook as committed (no scripts; shown in a sandboxed
    /// frame).
    pub html: String,
}

/// A read-only rendering of a notebook at the head of its project's branch (view access).
#[utoipa::path(post, path = "/v1/notebook/{id}/preview", tag = "notebooks",
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, body = NotebookPreviewAnswer),
        (status = 400, description = "The file is not a notebook", body = ErrorBody),
        (status = 404, description = "Notebook not found (or its file is gone)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn preview_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<NotebookPreviewAnswer>> {
    let (n, project, _) = load_notebook(&state, &caller, &id, AccessLevel::View).await?;
    let file = files::read(&state, &caller, &project, &n).await?;
    let text = String::from_utf8_lossy(&file.bytes);
    let nb = ipynb::parse(&text).map_err(|e| ApiError::bad_request("invalid_notebook", e.to_string()))?;
    Ok(Json(NotebookPreviewAnswer {
        success: true,
        html: ipynb::render_html(&n.name, &nb),
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct CommitNotebookRequest {
    /// The commit message.
    pub message: String,
}

#[derive(Serialize, ToSchema)]
pub struct NotebookCommitRef {
    pub sha: String,
}

#[derive(Serialize, ToSchema)]
pub struct CommitNotebookAnswer {
    pub success: bool,
    /// 'Commit successful', or 'Nothing to commit' when the file is unchanged.
    pub message: String,
    /// The new commit; null when nothing changed.
    #[schema(required)]
    pub commit: Option<NotebookCommitRef>,
}

/// Reads notebook file `path` from the running notebook server's workspace (at most the size
/// limit).
async fn saved_file(state: &AppState, project: &Project, path: &str) -> Result<Vec<u8>> {
    let not_open = || ApiError::conflict("notebook_not_open", NOT_OPEN);
    let workload = Workload::of(&project.asset).ok_or_else(not_open)?;
    let Found::Pod(pod) = workload.find(state).await else {
        return Err(not_open());
    };
    let pods: Api<Pod> = workload.pods(state).ok_or_else(not_open)?;
    // The path is one of ours (`ipynb::file_name`), and goes as one argument after `--`.
    let file = format!("{}/{path}", "/workspace");
    let params = AttachParams::default()
        .container(workload.container())
        .stdin(false)
        .stdout(true)
        .stderr(false);
    let mut process = pods
        .exec(&pod, ["cat", "--", file.as_str()], &params)
        .await
        .map_err(|e| ApiError::internal(format!("failed to read a notebook from its container: {e}")))?;
    let stdout = process
        .stdout()
        .ok_or_else(|| ApiError::internal("a notebook read had no output stream"))?;
    let mut bytes = Vec::new();
    stdout
        .take(ipynb::MAX_NOTEBOOK_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| ApiError::internal(format!("failed to read a notebook from its container: {e}")))?;
    let status = match process.take_status() {
        Some(s) => s.await,
        None => None,
    };
    if status.is_some_and(|s| s.status.as_deref() != Some("Success")) {
        return Err(ApiError::not_found(
            "notebook_file_missing",
            "The notebook's file is not in the workspace (was it renamed or deleted in JupyterLab?)",
        ));
    }
    if bytes.len() > ipynb::MAX_NOTEBOOK_BYTES {
        return Err(ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            ipynb::NotebookError::TooLarge.to_string(),
        ));
    }
    Ok(bytes)
}

/// Commit a notebook (edit access on its project): the file as JupyterLab last saved it, by the
/// caller, on the version the notebook was opened from (409 when it changed in git meanwhile, or
/// when JupyterLab does not run).
#[utoipa::path(post, path = "/v1/notebook/{id}/commit", tag = "notebooks", request_body = CommitNotebookRequest,
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, description = "Commit successful", body = CommitNotebookAnswer),
        (status = 400, description = "An empty message; the saved file is not a notebook", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Notebook not found", body = ErrorBody),
        (status = 409, description = "Open the notebook first; the notebook changed in git since it was opened", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn commit_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<CommitNotebookRequest>,
) -> Result<Json<CommitNotebookAnswer>> {
    let (n, project, _) = load_notebook(&state, &caller, &id, AccessLevel::Edit).await?;
    if req.message.trim().is_empty() {
        return Err(ApiError::bad_request(
            "message_required",
            "Please enter a commit message",
        ));
    }
    let d = &project.details;
    if !(d.running && d.status == ProjectStatus::Running) {
        return Err(ApiError::conflict("notebook_not_open", NOT_OPEN));
    }
    let bytes = saved_file(&state, &project, &n.path).await?;
    ipynb::parse(&String::from_utf8_lossy(&bytes))
        .map_err(|e| ApiError::bad_request("invalid_notebook", e.to_string()))?;
    let commit = files::commit(&state, &caller, &project, &n, bytes, req.message.trim()).await?;
    if commit.is_some() {
        Activity::on_asset(&caller.user, &project.asset, ActivityAction::Committed)
            .record(&state.db)
            .await;
    }
    Ok(Json(CommitNotebookAnswer {
        success: true,
        message: if commit.is_some() {
            "Commit successful"
        } else {
            "Nothing to commit"
        }
        .into(),
        commit: commit.map(|sha| NotebookCommitRef {
            sha: sha.as_str().to_owned(),
        }),
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct DevUrlRequest {
    /// The legacy project whose notebook server is asked for.
    pub project_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct DevUrlAnswer {
    pub success: bool,
    #[schema(required)]
    pub dev_port: Option<i32>,
    #[schema(required)]
    pub dev_url: Option<String>,
}

/// The address and port of a legacy project's notebook server (execute access); `userId` must
/// be the caller's own uid (404 otherwise, as an unknown user is).
#[utoipa::path(put, path = "/v1/users/{userId}/getJupyterDevUrl", tag = "notebooks", request_body = DevUrlRequest,
    params(("userId" = String, Path, description = "The caller's uid")),
    responses(
        (status = 200, body = DevUrlAnswer),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "User or project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn jupyter_dev_url(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(user_id): AppPath<String>,
    AppJson(req): AppJson<DevUrlRequest>,
) -> Result<Json<DevUrlAnswer>> {
    if user_id.trim() != caller.user.uid {
        return Err(ApiError::not_found("user_not_found", "User not found"));
    }
    let (project, level) = load_project(&state, &caller, &req.project_id, AccessLevel::Execute).await?;
    let j = JupyterState::of(&state, &caller, &project, level);
    Ok(Json(DevUrlAnswer {
        success: true,
        dev_port: j.dev_port,
        dev_url: j.dev_url,
    }))
}
