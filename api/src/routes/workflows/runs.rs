//! Runs (spec 001 §2 "Workflow detail"): run now, the run history (10 per page, newest first),
//! and one run's task instances. Runs are WorkflowRun resources read from the cluster.

use std::collections::HashMap;

use axum::{Json, extract::State};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use ludis_crds::{
    Workflow as WorkflowCr, WorkflowRun,
    workflow::{TaskAction, TaskState as CrTaskState, TaskStatus, WorkflowState},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{NEED_EDIT, NEED_EXECUTE, NOT_READY, load};
use crate::{
    auth::AuthUser,
    cluster::{self, workflow_runs},
    db::workflows::Workflow,
    domain::{AccessLevel, RunState, RunTrigger, TaskState, WorkflowStatus},
    error::{ApiError, AppPath, AppQuery, ErrorBody, Result},
    state::AppState,
};

/// Runs per page by default (spec 001 §9).
const RUNS_PER_PAGE: i64 = 10;

pub(super) fn seconds(t: &Time) -> i64 {
    t.0.as_second()
}

pub(super) fn run_not_found() -> ApiError {
    ApiError::not_found("run_not_found", "Run not found")
}

/// 409 before the first publish: an unpublished workflow has no runs.
pub(super) fn not_published() -> ApiError {
    ApiError::conflict("not_published", "The workflow is not published yet")
}

/// Run `run` of the workflow (409 before the first publish, 404 when it is not one of its runs).
pub(super) async fn run_of(state: &AppState, w: &Workflow, run: &str) -> Result<WorkflowRun> {
    if !w.details.published && !w.asset.is_managed() {
        return Err(not_published());
    }
    workflow_runs::get(state, w, run.trim())
        .await
        .map_err(ApiError::cluster)?
        .ok_or_else(run_not_found)
}

#[derive(Serialize, ToSchema)]
pub struct RunNowAnswer {
    pub success: bool,
    pub dag_run_id: String,
    pub message: String,
}

/// Run the workflow now (execute access): a new run, triggered manually. 409 until the
/// workflow is ready.
#[utoipa::path(post, path = "/v2/workflows/run/{id}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow run successful!", body = RunNowAnswer),
        (status = 403, description = "You need execute or edit workflow access and edit project access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Please publish or wait for workflow to be initialized", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn run_now(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<RunNowAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE).await?;
    let not_ready = || ApiError::conflict("not_ready", NOT_READY);
    // The cluster's word when there is one; the row's otherwise.
    let ready = match cluster::workflows::get(&state, &w)
        .await
        .map_err(ApiError::cluster)?
    {
        Some(cr) => cr.status.and_then(|s| s.state) == Some(WorkflowState::Ready),
        None => w.details.status == WorkflowStatus::Ready,
    };
    if !ready {
        return Err(not_ready());
    }
    let run = workflow_runs::create_manual(&state, &w)
        .await
        .map_err(ApiError::cluster)?
        .ok_or_else(not_ready)?;
    Ok(Json(RunNowAnswer {
        success: true,
        dag_run_id: run,
        message: "Workflow run successful!".into(),
    }))
}

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RunView {
    /// The run's name.
    pub dag_run_id: String,
    pub state: RunState,
    pub trigger: RunTrigger,
    /// Unix seconds; null until it starts.
    #[schema(required)]
    pub start_date: Option<i64>,
    #[schema(required)]
    pub end_date: Option<i64>,
    /// Seconds.
    #[schema(required)]
    pub duration: Option<i64>,
    /// What the run waits for, as the operator says ("waiting for the organization's quota:
    /// …" while its organization's quota has no room for a task); null otherwise.
    #[schema(required)]
    pub waiting: Option<String>,
}

/// Pure: a run as the console shows it.
pub(super) fn run_view(r: &WorkflowRun) -> RunView {
    let s = r.status.as_ref();
    let start = s.and_then(|s| s.start_time.as_ref()).map(seconds);
    let end = s.and_then(|s| s.completion_time.as_ref()).map(seconds);
    RunView {
        dag_run_id: r.metadata.name.clone().unwrap_or_default(),
        state: s.and_then(|s| s.phase).map_or(RunState::Queued, RunState::from),
        trigger: r.spec.trigger.into(),
        start_date: start,
        end_date: end,
        duration: start.zip(end).map(|(a, b)| (b - a).max(0)),
        waiting: s.and_then(|s| {
            s.conditions
                .iter()
                .find(|c| c.type_ == "Reconciling" && c.status == "True" && c.reason == "WaitingForQuota")
                .map(|c| c.message.clone())
        }),
    }
}

/// Pure: newest first (by creation, then name).
pub(super) fn newest_first(runs: &mut [WorkflowRun]) {
    runs.sort_by(|a, b| {
        let key = |r: &WorkflowRun| {
            (
                r.metadata.creation_timestamp.as_ref().map(seconds),
                r.metadata.name.clone(),
            )
        };
        key(b).cmp(&key(a))
    });
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunsQuery {
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 10).
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct RunsPage {
    pub success: bool,
    pub runs: Vec<RunView>,
    pub page: i64,
    pub total: i64,
    pub total_pages: i64,
}

/// The workflow's runs, newest first (view access).
#[utoipa::path(get, path = "/v2/workflows/runs/{id}", tag = "workflows", params(("id" = String, Path, description = "Workflow id"), RunsQuery),
    responses((status = 200, body = RunsPage), (status = 404, description = "Workflow not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn runs(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<RunsQuery>,
) -> Result<Json<RunsPage>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::View, NEED_EDIT).await?;
    let page = q.page.unwrap_or(1).max(1);
    let limit = q.limit.unwrap_or(RUNS_PER_PAGE).clamp(1, 100);
    let mut all = workflow_runs::list(&state, &w).await.map_err(ApiError::cluster)?;
    newest_first(&mut all);
    let total = all.len() as i64;
    let runs = all
        .iter()
        .skip(((page - 1) * limit) as usize)
        .take(limit as usize)
        .map(run_view)
        .collect();
    Ok(Json(RunsPage {
        success: true,
        runs,
        page,
        total,
        total_pages: (total + limit - 1) / limit,
    }))
}

/// One task of a run.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TaskInstance {
    pub task_id: String,
    pub dag_run_id: String,
    pub state: TaskState,
    /// Seconds.
    #[schema(required)]
    pub duration: Option<f64>,
    #[schema(required)]
    pub start_date: Option<i64>,
    #[schema(required)]
    pub end_date: Option<i64>,
    pub try_number: i32,
    /// script or upload (designer), or the DAG file's operator.
    #[schema(required)]
    pub operator: Option<String>,
}

/// Pure: each task's operator, from the published resource.
pub(super) fn operators(cr: Option<&WorkflowCr>) -> HashMap<String, String> {
    let Some(cr) = cr else {
        return HashMap::new();
    };
    let mut out: HashMap<String, String> = cr
        .spec
        .tasks
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                if t.upload.is_some() { "upload" } else { "script" }.to_owned(),
            )
        })
        .collect();
    if let Some(dag) = cr.status.as_ref().and_then(|s| s.dag.as_ref()) {
        out.extend(dag.tasks.iter().map(|t| (t.name.clone(), t.operator.clone())));
    }
    out
}

/// Pure: the run's tasks as they are about to be. A mark or clear the operator has not applied
/// yet shows as applied — Airflow changes a task's state when asked, and a grid that showed the
/// old state would look as if nothing happened. A cleared task is queued; its downstream follows
/// once the operator applies the request.
pub(super) fn current_tasks(run: &WorkflowRun) -> Vec<TaskStatus> {
    let Some(status) = run.status.as_ref() else {
        return Vec::new();
    };
    let mut tasks = status.tasks.clone();
    let pending = run
        .spec
        .requests
        .iter()
        .filter(|r| !status.applied_requests.contains(&r.id));
    for request in pending {
        if let Some(t) = tasks.iter_mut().find(|t| t.name == request.task) {
            t.state = match request.action {
                TaskAction::MarkSuccess => CrTaskState::Success,
                TaskAction::MarkFailed => CrTaskState::Failed,
                TaskAction::Clear => CrTaskState::Queued,
            };
        }
    }
    tasks
}

/// Pure: the task instances of a run.
pub(super) fn task_instances_of(run: &WorkflowRun, operators: &HashMap<String, String>) -> Vec<TaskInstance> {
    let name = run.metadata.name.clone().unwrap_or_default();
    current_tasks(run)
        .iter()
        .map(|t| {
            let start = t.start_time.as_ref().map(seconds);
            TaskInstance {
                task_id: t.name.clone(),
                dag_run_id: name.clone(),
                state: t.state.into(),
                duration: t.duration,
                start_date: start,
                end_date: start.zip(t.duration).map(|(s, d)| s + d.round() as i64),
                try_number: t.try_number,
                operator: operators.get(&t.name).cloned(),
            }
        })
        .collect()
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TasksQuery {
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 1000 (default: all).
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct TaskInstancesAnswer {
    pub success: bool,
    pub task_instances: Vec<TaskInstance>,
    pub total: i64,
}

/// The task instances of one run (view access).
#[utoipa::path(get, path = "/v2/workflows/tasks/{id}/{dagRunId}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id"), ("dagRunId" = String, Path, description = "Run name"), TasksQuery),
    responses(
        (status = 200, body = TaskInstancesAnswer),
        (status = 404, description = "Workflow or run not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn task_instances(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath((id, run)): AppPath<(String, String)>,
    AppQuery(q): AppQuery<TasksQuery>,
) -> Result<Json<TaskInstancesAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::View, NEED_EDIT).await?;
    let run = run_of(&state, &w, &run).await?;
    let cr = cluster::workflows::get(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    let all = task_instances_of(&run, &operators(cr.as_ref()));
    let total = all.len() as i64;
    let page = q.page.unwrap_or(1).max(1);
    let limit = q.limit.unwrap_or(1000).clamp(1, 1000);
    Ok(Json(TaskInstancesAnswer {
        success: true,
        task_instances: all
            .into_iter()
            .skip(((page - 1) * limit) as usize)
            .take(limit as usize)
            .collect(),
        total,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(name: &str, created: &str, status: serde_json::Value) -> WorkflowRun {
        serde_json::from_value(json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "WorkflowRun",
            "metadata": {"name": name, "namespace": "ns", "creationTimestamp": created},
            "spec": {"workflow": "wf", "trigger": "manual"},
            "status": status,
        }))
        .unwrap()
    }

    #[test]
    fn runs_and_tasks_read_as_the_console_shows_them() {
        let r = run(
            "wf-1",
            "2026-01-01T00:00:00Z",
            json!({"phase": "Failed", "startTime": "2026-01-01T00:00:10Z", "completionTime": "2026-01-01T00:01:10Z",
                   "tasks": [{"name": "a", "state": "upstream_failed", "tryNumber": 0},
                             {"name": "b", "state": "failed", "tryNumber": 2, "startTime": "2026-01-01T00:00:20Z", "duration": 4.4}]}),
        );
        let v = run_view(&r);
        assert_eq!(
            (v.state, v.trigger, v.duration),
            (RunState::Failed, RunTrigger::Manual, Some(60))
        );
        let ops = HashMap::from([("b".to_owned(), "BashOperator".to_owned())]);
        let t = task_instances_of(&r, &ops);
        assert_eq!(t[0].state, TaskState::UpstreamFailed);
        assert_eq!(t[1].end_date.zip(t[1].start_date).map(|(e, s)| e - s), Some(4));
        assert_eq!(t[1].operator.as_deref(), Some("BashOperator"));
        let mut all = vec![r, run("wf-2", "2026-01-02T00:00:00Z", json!({}))];
        newest_first(&mut all);
        assert_eq!(all[0].metadata.name.as_deref(), Some("wf-2"));
        assert_eq!(run_view(&all[0]).state, RunState::Queued);
        assert_eq!(run_view(&all[0]).waiting, None);
        let waiting = run(
            "wf-3",
            "2026-01-03T00:00:00Z",
            json!({"phase": "Running", "conditions": [{"type": "Reconciling", "status": "True", "reason": "WaitingForQuota",
                "message": "waiting for the organization's quota: exceeded quota", "lastTransitionTime": "2026-01-03T00:00:00Z"}]}),
        );
        assert_eq!(
            run_view(&waiting).waiting.as_deref(),
            Some("waiting for the organization's quota: exceeded quota")
        );
    }

    #[test]
    fn requests_not_applied_yet_show_as_applied() {
        let mut r = run(
            "wf-1",
            "2026-01-01T00:00:00Z",
            json!({"phase": "Failed", "appliedRequests": ["r1"],
                   "tasks": [{"name": "a", "state": "failed", "tryNumber": 1},
                             {"name": "b", "state": "upstream_failed", "tryNumber": 0},
                             {"name": "c", "state": "success", "tryNumber": 1}]}),
        );
        r.spec.requests = serde_json::from_value(json!([
            // Applied already: the status has its outcome.
            {"id": "r1", "task": "c", "action": "markFailed"},
            {"id": "r2", "task": "a", "action": "markSuccess"},
            {"id": "r3", "task": "c", "action": "clear", "downstream": true},
            {"id": "r4", "task": "nope", "action": "markFailed"},
        ]))
        .unwrap();
        let states: Vec<TaskState> = task_instances_of(&r, &HashMap::new())
            .iter()
            .map(|t| t.state)
            .collect();
        assert_eq!(
            states,
            [TaskState::Success, TaskState::UpstreamFailed, TaskState::Queued]
        );
    }
}
