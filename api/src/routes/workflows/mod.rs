//! Workflows v2 (spec 001 §7 "Workflows v2", §4, §6; issue 15; docs/contracts/workflows.md): DAGs
//! of tasks drawn in the visual designer or written as an Airflow-style DAG file in a project,
//! run by the operator through a Workflow resource applied at publish. [`list`]: the list and
//! `workflowdata`; [`crud`]: one workflow, create, update, pause, delete, share; [`designer`]:
//! the designer's graph and daginfo, save; [`publish`]: visual and manual publish; [`runs`]: run
//! now, the runs and their task instances; [`logs`]: task logs; [`tasks`]: mark and clear;
//! [`schedule`]: the schedule.
//!
//! Every call that takes a workflow goes through the asset layer ([`load`]): no access is 404
//! `workflow_not_found`, too little is 403 with the contract's message.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets,
    auth::AuthUser,
    db::{
        projects::{Project, ProjectRow},
        workflows::{Workflow, WorkflowRow},
    },
    domain::AccessLevel,
    error::{ApiError, Result},
    state::AppState,
};

mod crud;
mod designer;
mod list;
mod logs;
mod publish;
mod runs;
mod schedule;
mod tasks;
pub mod view;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list_workflows, crud::create_workflow))
        .routes(routes!(list::workflow_data))
        .routes(routes!(
            crud::workflow_details,
            crud::update_workflow,
            crud::pause_workflow
        ))
        .routes(routes!(crud::delete_workflow))
        .routes(routes!(crud::share_workflow))
        .routes(routes!(crud::workflow_share_list))
        .routes(routes!(designer::dag_info))
        .routes(routes!(designer::visual))
        .routes(routes!(designer::save))
        .routes(routes!(publish::publish_visual))
        .routes(routes!(publish::publish_manual))
        .routes(routes!(runs::run_now))
        .routes(routes!(runs::runs))
        .routes(routes!(runs::task_instances))
        .routes(routes!(logs::task_log))
        .routes(routes!(logs::latest))
        .routes(routes!(tasks::mark))
        .routes(routes!(tasks::clear))
        .routes(routes!(schedule::set_schedule))
}

/// Messages (spec 001 §5, §6, §8, and the contract).
pub const NEED_EXECUTE: &str = "You need execute or edit workflow access and edit project access";
pub const NEED_EXECUTE_TASKS: &str = "Execute access needed";
pub const NEED_EDIT: &str = "You need edit access";
pub const EMPTY_NAME: &str = "Please add a workflow name";
pub const NO_PROJECT: &str = "Please select a project for the workflow to live in";
pub const NOT_READY: &str = "Please publish or wait for workflow to be initialized";
pub const MANAGED: &str =
    "This workflow is managed by its resource (kubectl or GitOps); change or delete it there";

/// Loads a workflow the caller sees; 403 with `denied` below `need`.
pub(crate) async fn load(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
    denied: &'static str,
) -> Result<(Workflow, AccessLevel)> {
    let (w, have) = assets::load::<WorkflowRow>(state, &caller.user, id.trim(), AccessLevel::View).await?;
    if have < need {
        return Err(ApiError::forbidden("insufficient_access", denied));
    }
    Ok((w, have))
}

/// A workflow the caller may change (edit); a managed one is 409.
pub(crate) async fn load_own(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
    denied: &'static str,
) -> Result<(Workflow, AccessLevel)> {
    let (w, have) = load(state, caller, id, need, denied).await?;
    if w.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    Ok((w, have))
}

/// The workflow's project, which the caller must edit (publish, schedule): below edit, or a
/// project they cannot see, is the contract's 403 (the project is never revealed).
pub(crate) async fn project_to_edit(state: &AppState, caller: &AuthUser, w: &Workflow) -> Result<Project> {
    match assets::load::<ProjectRow>(state, &caller.user, &w.details.project_id, AccessLevel::Edit).await {
        Ok((p, _)) => Ok(p),
        Err(e) if e.status().is_client_error() => {
            Err(ApiError::forbidden("insufficient_access", NEED_EXECUTE))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        designer::{DagInfo, DagTask},
        logs::{TaskLog, TaskLogAnswer},
        runs::{RunView, TaskInstance},
        view::WorkflowView,
    };
    use crate::{
        domain::{AccessLevel, EmailOn, RunState, RunTrigger, TaskState, WorkflowStatus},
        openapi::assert_sent_as_documented,
    };

    /// The console types these answers from the document.
    #[test]
    fn the_answers_send_what_the_document_requires() {
        assert_sent_as_documented(&WorkflowView {
            id: "w".into(),
            name: "w".into(),
            project_id: "p".into(),
            project_name: None,
            user_uid: None,
            user: None,
            share_icons: Vec::new(),
            schedule: "None".into(),
            visual: true,
            nodes: Vec::new(),
            edges: Vec::new(),
            status: WorkflowStatus::Unpublished,
            import_error: None,
            is_paused: false,
            published: false,
            last_run: None,
            last_run_state: None,
            last_run_duration: None,
            dag_file: None,
            revision: None,
            email_bool: false,
            email_list: Vec::new(),
            email_on: EmailOn::Both,
            access_level: AccessLevel::View,
            project_access_level: None,
            is_owner: false,
            managed: false,
            created_at: 0,
            updated_at: 0,
        });
        assert_sent_as_documented(&RunView {
            dag_run_id: "r".into(),
            state: RunState::Queued,
            trigger: RunTrigger::Manual,
            start_date: None,
            end_date: None,
            duration: None,
            waiting: None,
        });
        assert_sent_as_documented(&TaskInstance {
            task_id: "t".into(),
            dag_run_id: "r".into(),
            state: TaskState::Queued,
            duration: None,
            start_date: None,
            end_date: None,
            try_number: 0,
            operator: None,
        });
        let log = TaskLog {
            dag_run_id: "r".into(),
            task_id: "t".into(),
            try_number: 1,
            state: None,
            content: String::new(),
            archived: false,
        };
        assert_sent_as_documented(&log);
        assert_sent_as_documented(&TaskLogAnswer {
            success: true,
            log: None,
            message: None,
        });
        assert_sent_as_documented(&DagInfo {
            dag_id: "d".into(),
            is_paused: false,
            schedule: "None".into(),
            tasks: vec![DagTask {
                task_id: "t".into(),
                operator: "script".into(),
                upstream: Vec::new(),
            }],
            revision: None,
            import_error: None,
        });
    }
}
