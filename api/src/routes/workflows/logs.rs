//! Task logs (spec 001 §2 "Workflow detail"): one try's log, read from its pod while it exists,
//! else from the operator's archive; and every try's log of the newest runs (download all).

use axum::{Json, extract::State};
use ludis_crds::WorkflowRun;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    NEED_EXECUTE_TASKS, load,
    runs::{newest_first, run_of},
};
use crate::{
    auth::AuthUser,
    cluster::workflow_runs,
    db::workflows::Workflow,
    domain::{AccessLevel, TaskState},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    state::AppState,
};

pub const NO_LOGS: &str = "No Logs available for this task";
/// Runs of `latest` by default (spec 001 §9), and at most.
const LATEST_DEFAULT: usize = 5;
const LATEST_MAX: usize = 100;
/// Logs one `latest` answers at most.
const LATEST_LOGS_MAX: usize = 500;

/// One try's log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TaskLog {
    pub dag_run_id: String,
    pub task_id: String,
    pub try_number: i32,
    /// The task's state when this is its current try; null for an earlier try.
    #[schema(required)]
    pub state: Option<TaskState>,
    /// The text (at most its last MiB).
    pub content: String,
    /// It came from the archive (the pod is gone).
    pub archived: bool,
}

/// The longest task id (a DAG file's, as `ParsedTask` allows; the WorkflowRun's requests too).
const TASK_ID_MAX: usize = 250;

/// Pure: whether a client's text may be a task id (letters, digits, `_`, `-`, `.`; at most
/// [`TASK_ID_MAX`]). Pods and archives are found by its label form
/// (`ludis_crds::workflow::task_label`), never by the text itself.
pub fn valid_task_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= TASK_ID_MAX
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// The log of one try of a task of `run` (`None`: no try, or nothing kept).
async fn log_of(
    state: &AppState,
    w: &Workflow,
    run: &WorkflowRun,
    task: &str,
    try_number: i32,
) -> Result<Option<TaskLog>> {
    let current = run
        .status
        .iter()
        .flat_map(|s| s.tasks.iter())
        .find(|t| t.name == task);
    let Some(current) = current else {
        return Ok(None);
    };
    if try_number < 1 || try_number > current.try_number {
        return Ok(None);
    }
    let name = run.metadata.name.clone().unwrap_or_default();
    let found = workflow_runs::task_log(state, w, &name, task, try_number)
        .await
        .map_err(ApiError::cluster)?;
    Ok(found.map(|(content, archived)| TaskLog {
        dag_run_id: name,
        task_id: task.to_owned(),
        try_number,
        state: (try_number == current.try_number).then(|| current.state.into()),
        content,
        archived,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct TaskLogAnswer {
    pub success: bool,
    /// Null when there is no log ('No Logs available for this task').
    #[schema(required)]
    pub log: Option<TaskLog>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The log of one try of a task (execute access, as every log); try 0, or a try without a log: `log: null` and
/// 'No Logs available for this task'.
#[utoipa::path(get, path = "/v2/workflows/tasks/{id}/{dagRunId}/{taskId}/{tryNumber}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id"), ("dagRunId" = String, Path, description = "Run name"),
           ("taskId" = String, Path, description = "Task id"), ("tryNumber" = i32, Path, description = "Try, from 1")),
    responses(
        (status = 200, body = TaskLogAnswer),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Workflow or run not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn task_log(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath((id, run, task, try_number)): AppPath<(String, String, String, i32)>,
) -> Result<Json<TaskLogAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE_TASKS).await?;
    let none = || {
        Json(TaskLogAnswer {
            success: true,
            log: None,
            message: Some(NO_LOGS.into()),
        })
    };
    if try_number < 1 {
        return Ok(none());
    }
    let run = run_of(&state, &w, &run).await?;
    if !valid_task_id(&task) {
        return Ok(none());
    }
    Ok(match log_of(&state, &w, &run, &task, try_number).await? {
        Some(log) => Json(TaskLogAnswer {
            success: true,
            log: Some(log),
            message: None,
        }),
        None => none(),
    })
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LatestRequest {
    /// How many of the newest runs (default 5), or 'all'. Read as any JSON value so a bad one
    /// gets the call's own message.
    #[schema(value_type = Option<LatestLimit>)]
    pub limit: Value,
}

/// How many of the newest runs `latest` reads: a number from 1, or 'all' (the document's shape
/// of [`LatestRequest::limit`]).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only describes the field in the OpenAPI document
pub enum LatestLimit {
    Runs(u32),
    All(AllRuns),
}

/// Every run.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)] // only describes the field in the OpenAPI document
pub enum AllRuns {
    #[serde(rename = "all")]
    All,
}

#[derive(Serialize, ToSchema)]
pub struct LatestAnswer {
    pub success: bool,
    pub logs: Vec<TaskLog>,
}

/// Pure: how many runs `latest` reads.
fn latest_limit(v: &Value) -> Result<usize> {
    match v {
        Value::Null => Ok(LATEST_DEFAULT),
        Value::String(s) if s.trim().eq_ignore_ascii_case("all") => Ok(LATEST_MAX),
        Value::Number(n) if n.as_u64().is_some_and(|n| n >= 1) => {
            Ok((n.as_u64().unwrap_or(1) as usize).min(LATEST_MAX))
        }
        _ => Err(ApiError::bad_request(
            "invalid_limit",
            "limit is a number of runs from 1, or 'all'",
        )),
    }
}

/// Every try's log of the newest runs (execute access, as every log), for download (at most 500 logs).
#[utoipa::path(post, path = "/v2/workflows/latest/{id}", tag = "workflows", request_body = LatestRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, body = LatestAnswer),
        (status = 400, description = "A bad limit", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn latest(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<LatestRequest>,
) -> Result<Json<LatestAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE_TASKS).await?;
    let limit = latest_limit(&req.limit)?;
    let mut runs = workflow_runs::list(&state, &w).await.map_err(ApiError::cluster)?;
    newest_first(&mut runs);
    let mut logs = Vec::new();
    for run in runs.iter().take(limit) {
        for t in run.status.iter().flat_map(|s| s.tasks.iter()) {
            if !valid_task_id(&t.name) {
                continue;
            }
            for try_number in 1..=t.try_number {
                if logs.len() >= LATEST_LOGS_MAX {
                    break;
                }
                if let Some(log) = log_of(&state, &w, run, &t.name, try_number).await? {
                    logs.push(log);
                }
            }
        }
    }
    Ok(Json(LatestAnswer { success: true, logs }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn task_ids_and_limits_are_checked() {
        for ok in ["extract", "load_2", "a.b-c"] {
            assert!(valid_task_id(ok), "{ok}");
        }
        assert!(valid_task_id(&"x".repeat(TASK_ID_MAX)));
        for bad in [
            "",
            "a b",
            "a,b",
            "a=b",
            "../x",
            "-a",
            &"x".repeat(TASK_ID_MAX + 1),
        ] {
            assert!(!valid_task_id(bad), "{bad}");
        }
        assert_eq!(latest_limit(&Value::Null).unwrap(), 5);
        assert_eq!(latest_limit(&json!("all")).unwrap(), LATEST_MAX);
        assert_eq!(latest_limit(&json!(2)).unwrap(), 2);
        assert!(latest_limit(&json!(0)).is_err());
        assert!(latest_limit(&json!("x")).is_err());
    }
}
