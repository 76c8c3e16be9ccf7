//! Changing task states in a run (spec 001 §4 "Task states", "Re-run"): 'Mark State As' Success
//! or Failed, and clear (run again, with everything downstream when asked). Each is a request
//! appended to the WorkflowRun that the operator applies once.

use axum::{Json, extract::State};
use ludis_crds::{
    WorkflowRun,
    workflow::{TaskAction, TaskRequest},
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    NEED_EXECUTE_TASKS, load,
    logs::valid_task_id,
    runs::{current_tasks, run_not_found, run_of},
};
use crate::{
    auth::AuthUser,
    cluster::workflow_runs::{self, RunError},
    db::workflows::Workflow,
    domain::{AccessLevel, MarkState, TaskState},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    state::AppState,
    views::Done,
};

fn task_not_found(task: &str) -> ApiError {
    ApiError::not_found("task_not_found", format!("The run has no task '{task}'"))
}

/// Pure: the state of task `task` in `run`, when the run has it.
fn task_state(run: &WorkflowRun, task: &str) -> Option<TaskState> {
    current_tasks(run)
        .iter()
        .find(|t| t.name == task)
        .map(|t| t.state.into())
}

async fn append(
    state: &AppState,
    w: &Workflow,
    run: &str,
    action: TaskAction,
    task: &str,
    downstream: bool,
) -> Result<()> {
    let request = TaskRequest {
        id: uuid::Uuid::new_v4().simple().to_string(),
        action,
        task: task.to_owned(),
        downstream,
    };
    workflow_runs::append_request(state, w, run, request)
        .await
        .map_err(|e| match e {
            RunError::NotFound => run_not_found(),
            RunError::Cluster(e) => ApiError::cluster(e),
        })
}

#[derive(Deserialize, ToSchema)]
pub struct MarkRequest {
    pub state: MarkState,
    #[serde(rename = "dagRunId")]
    pub dag_run_id: String,
    #[serde(rename = "taskId")]
    pub task_id: String,
}

/// 'Mark State As' Success or Failed (execute access): 409 when the task is in that state.
#[utoipa::path(patch, path = "/v2/workflows/mark/{id}", tag = "workflows", request_body = MarkRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Task update successful!", body = Done),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Workflow, run or task not found", body = ErrorBody),
        (status = 409, description = "The task is in that state already", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn mark(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<MarkRequest>,
) -> Result<Json<Done>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE_TASKS).await?;
    let run = run_of(&state, &w, &req.dag_run_id).await?;
    let task = req.task_id.trim();
    let current = valid_task_id(task)
        .then(|| task_state(&run, task))
        .flatten()
        .ok_or_else(|| task_not_found(task))?;
    let (wanted, action) = match req.state {
        MarkState::Success => (TaskState::Success, TaskAction::MarkSuccess),
        MarkState::Failed => (TaskState::Failed, TaskAction::MarkFailed),
    };
    if current == wanted {
        return Err(ApiError::conflict(
            "already_in_state",
            format!("The task is {} already", wanted.as_str()),
        ));
    }
    append(&state, &w, req.dag_run_id.trim(), action, task, false).await?;
    Ok(Done::new("Task update successful!"))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ClearRequest {
    pub task_ids: Vec<String>,
    #[schema(required)]
    pub dag_run_id: String,
    pub include_downstream: bool,
}

/// Run tasks again (execute access): each cleared, with everything downstream when asked.
#[utoipa::path(post, path = "/v2/workflows/clear/{id}", tag = "workflows", request_body = ClearRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Task Successfully Cleared", body = Done),
        (status = 400, description = "Please select a task to re-run", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Workflow, run or task not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn clear(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ClearRequest>,
) -> Result<Json<Done>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE_TASKS).await?;
    let mut tasks: Vec<&str> = Vec::new();
    for t in req.task_ids.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        if !tasks.contains(&t) {
            tasks.push(t);
        }
    }
    if tasks.is_empty() {
        return Err(ApiError::bad_request(
            "task_required",
            "Please select a task to re-run",
        ));
    }
    let run = run_of(&state, &w, &req.dag_run_id).await?;
    if let Some(missing) = tasks
        .iter()
        .find(|t| !valid_task_id(t) || task_state(&run, t).is_none())
    {
        return Err(task_not_found(missing));
    }
    for t in tasks {
        append(
            &state,
            &w,
            req.dag_run_id.trim(),
            TaskAction::Clear,
            t,
            req.include_downstream,
        )
        .await?;
    }
    Ok(Done::new("Task Successfully Cleared"))
}
