//! The designer's side of a workflow: its graph and settings (`visual`), what the published
//! resource runs (`daginfo`), and saving the graph and e-mail settings (`save`).

use axum::{Json, extract::State};
use ludis_crds::Workflow as WorkflowCr;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    NEED_EDIT,
    crud::{WorkflowMessage, set_email},
    load, load_own,
    view::view,
};
use crate::{
    auth::AuthUser,
    cluster,
    db::{self, activity::Activity, details, workflows::Workflow},
    domain::{AccessLevel, ActivityAction, EmailOn},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    state::AppState,
    workflows::designer::{self, DesignerEdge, DesignerNode},
};

#[derive(Serialize, ToSchema)]
pub struct VisualAnswer {
    pub success: bool,
    pub nodes: Vec<DesignerNode>,
    pub edges: Vec<DesignerEdge>,
    pub schedule: String,
    pub email_bool: bool,
    pub email_list: Vec<String>,
    pub email_on: EmailOn,
}

/// The designer's graph and settings (view access).
#[utoipa::path(get, path = "/v2/workflows/visual/{id}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id")),
    responses((status = 200, body = VisualAnswer), (status = 404, description = "Workflow not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn visual(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<VisualAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::View, NEED_EDIT).await?;
    let d = w.details;
    Ok(Json(VisualAnswer {
        success: true,
        nodes: d.nodes,
        edges: d.edges,
        schedule: d.schedule,
        email_bool: d.email_bool,
        email_list: d.email_list,
        email_on: d.email_on,
    }))
}

/// One task of the published workflow.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DagTask {
    pub task_id: String,
    /// script or upload (designer), or the DAG file's operator (BashOperator, PythonOperator…).
    pub operator: String,
    /// The tasks it runs after.
    pub upstream: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DagInfo {
    pub dag_id: String,
    pub is_paused: bool,
    pub schedule: String,
    pub tasks: Vec<DagTask>,
    #[schema(required)]
    pub revision: Option<String>,
    #[schema(required)]
    pub import_error: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DagInfoAnswer {
    pub success: bool,
    pub dag: DagInfo,
}

/// Pure: the tasks with their upstream tasks, from `(name, operator)` and `(from, to)` pairs.
fn dag_tasks(tasks: Vec<(String, String)>, edges: &[(String, String)]) -> Vec<DagTask> {
    tasks
        .into_iter()
        .map(|(task_id, operator)| DagTask {
            upstream: edges
                .iter()
                .filter(|(_, to)| *to == task_id)
                .map(|(from, _)| from.clone())
                .collect(),
            task_id,
            operator,
        })
        .collect()
}

/// Pure: what the resource runs: its designer tasks, or the tasks the operator read from the DAG
/// file (none until it has).
fn resource_tasks(cr: &WorkflowCr) -> (Option<String>, Vec<DagTask>) {
    let edges_of = |e: &[ludis_crds::workflow::Edge]| -> Vec<(String, String)> {
        e.iter().map(|e| (e.from.clone(), e.to.clone())).collect()
    };
    if cr.spec.dag_file.is_none() {
        let tasks = cr
            .spec
            .tasks
            .iter()
            .map(|t| {
                let op = if t.upload.is_some() { "upload" } else { "script" };
                (t.name.clone(), op.to_owned())
            })
            .collect();
        return (None, dag_tasks(tasks, &edges_of(&cr.spec.edges)));
    }
    let Some(dag) = cr.status.as_ref().and_then(|s| s.dag.as_ref()) else {
        return (None, Vec::new());
    };
    let tasks = dag
        .tasks
        .iter()
        .map(|t| (t.name.clone(), t.operator.clone()))
        .collect();
    (dag.dag_id.clone(), dag_tasks(tasks, &edges_of(&dag.edges)))
}

/// Pure: the designer's tasks as saved (a published workflow without a cluster).
fn saved_tasks(w: &Workflow) -> Vec<DagTask> {
    match designer::tasks(&w.details.nodes, &w.details.edges) {
        Ok((tasks, edges)) => dag_tasks(
            tasks
                .into_iter()
                .map(|t| {
                    let op = match t.work {
                        designer::Work::Script { .. } => "script",
                        designer::Work::Upload { .. } => "upload",
                    };
                    (t.name, op.to_owned())
                })
                .collect(),
            &edges,
        ),
        Err(_) => Vec::new(),
    }
}

/// What the published workflow runs (view access): its tasks and their dependencies, the
/// pinned revision, and why it is broken. 409 `not_published` before the first publish.
#[utoipa::path(get, path = "/v2/workflows/daginfo/{id}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, body = DagInfoAnswer),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Not published yet", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn dag_info(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<DagInfoAnswer>> {
    let (w, _) = load(&state, &caller, &id, AccessLevel::View, NEED_EDIT).await?;
    if !w.details.published && !w.asset.is_managed() {
        return Err(ApiError::conflict(
            "not_published",
            "The workflow is not published yet",
        ));
    }
    let cr = cluster::workflows::get(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    let (dag_id, tasks, revision) = match &cr {
        Some(cr) => {
            let (dag_id, tasks) = resource_tasks(cr);
            (dag_id, tasks, cr.spec.revision.clone())
        }
        None => (None, saved_tasks(&w), w.details.revision.clone()),
    };
    let d = &w.details;
    Ok(Json(DagInfoAnswer {
        success: true,
        dag: DagInfo {
            dag_id: dag_id.unwrap_or_else(|| w.asset.id.clone()),
            is_paused: d.paused,
            schedule: d.schedule.clone(),
            tasks,
            revision,
            import_error: d.import_error.clone(),
        },
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct SaveRequest {
    pub nodes: Vec<DesignerNode>,
    pub edges: Vec<DesignerEdge>,
    pub email_on_success: Option<bool>,
    pub email_on_failure: Option<bool>,
    pub email_list: Option<Vec<String>>,
    pub email_bool: Option<bool>,
}

/// Pure: `email_on` from the designer's two switches (neither: unchanged).
fn email_on(success: Option<bool>, failure: Option<bool>) -> Option<EmailOn> {
    match (success.unwrap_or(false), failure.unwrap_or(false)) {
        (true, true) => Some(EmailOn::Both),
        (true, false) => Some(EmailOn::Success),
        (false, true) => Some(EmailOn::Failure),
        (false, false) => None,
    }
}

/// Save the designer's graph and e-mail settings (edit access). Cycles and self-connections are
/// refused ('Cycles are not allowed'). The published resource changes at the next publish.
#[utoipa::path(post, path = "/v2/workflows/save/{id}", tag = "workflows", request_body = SaveRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow Saved Successfully", body = WorkflowMessage),
        (status = 400, description = "Cycles are not allowed / a bad graph or e-mail", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn save(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<SaveRequest>,
) -> Result<Json<WorkflowMessage>> {
    let (mut w, level) = load_own(&state, &caller, &id, AccessLevel::Edit, NEED_EDIT).await?;
    if !w.details.visual {
        return Err(ApiError::bad_request(
            "not_visual",
            "This workflow is written as a DAG file: it has no designer",
        ));
    }
    designer::check_graph(&req.nodes, &req.edges).map_err(|m| ApiError::bad_request("invalid_graph", m))?;
    w.details.nodes = req.nodes;
    w.details.edges = req.edges;
    set_email(
        &mut w.details,
        req.email_bool,
        req.email_list.as_deref(),
        email_on(req.email_on_success, req.email_on_failure),
    )?;
    if req.email_list.is_some() {
        crate::mail_recipients::check(&state, &w.asset.organization_id, &w.details.email_list).await?;
    }
    w.asset.updated_at = db::now();
    cluster::workflows::patch_settings(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &w).await?;
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(WorkflowMessage {
        success: true,
        message: "Workflow Saved Successfully".into(),
        workflow: view(&state, &caller, w, level).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_list_their_upstream_and_switches_give_email_on() {
        let t = dag_tasks(
            vec![("a".into(), "script".into()), ("b".into(), "upload".into())],
            &[("a".into(), "b".into())],
        );
        assert_eq!(t[0].upstream, Vec::<String>::new());
        assert_eq!(t[1].upstream, ["a"]);
        assert_eq!(email_on(Some(true), Some(true)), Some(EmailOn::Both));
        assert_eq!(email_on(None, Some(true)), Some(EmailOn::Failure));
        assert_eq!(email_on(None, None), None);
    }
}
