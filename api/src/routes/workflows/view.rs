//! The shapes the workflow calls answer (docs/contracts/workflows.md "Types"): a workflow as the
//! caller sees it ([`WorkflowView`]), with its owner, share icons and project.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    assets,
    auth::AuthUser,
    db::workflows::Workflow,
    domain::{AccessLevel, AssetKind, EmailOn, RunState, WorkflowStatus},
    error::{ApiError, Result},
    routes::{
        datasets::{DatasetOwner, ShareIcon},
        people::People,
    },
    state::AppState,
    workflows::designer::{DesignerEdge, DesignerNode},
};

/// One workflow as the caller sees it; every field is always sent (`null` when it has no value).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorkflowView {
    pub id: String,
    pub name: String,
    pub project_id: String,
    /// Null when the caller cannot see the project.
    #[schema(required)]
    pub project_name: Option<String>,
    #[schema(required)]
    pub user_uid: Option<String>,
    /// The creator column.
    #[schema(required)]
    pub user: Option<DatasetOwner>,
    #[serde(rename = "shareIcons")]
    pub share_icons: Vec<ShareIcon>,
    /// A five-field UTC cron, or 'None'.
    pub schedule: String,
    /// Drawn in the designer (true) or written as a DAG file.
    pub visual: bool,
    pub nodes: Vec<DesignerNode>,
    pub edges: Vec<DesignerEdge>,
    pub status: WorkflowStatus,
    /// Why it is broken.
    #[schema(required)]
    pub import_error: Option<String>,
    /// The Active toggle is `!is_paused`.
    pub is_paused: bool,
    pub published: bool,
    /// The start of the newest run (Unix seconds).
    #[schema(required)]
    pub last_run: Option<i64>,
    #[schema(required)]
    pub last_run_state: Option<RunState>,
    /// Seconds.
    #[schema(required)]
    pub last_run_duration: Option<i64>,
    /// `{id}_dag.py` for a manual workflow.
    #[schema(required)]
    pub dag_file: Option<String>,
    /// The project commit the published tasks run.
    #[schema(required)]
    pub revision: Option<String>,
    pub email_bool: bool,
    pub email_list: Vec<String>,
    pub email_on: EmailOn,
    /// The caller's level.
    pub access_level: AccessLevel,
    /// The caller's level on the project (null: none).
    #[schema(required)]
    pub project_access_level: Option<AccessLevel>,
    pub is_owner: bool,
    /// Applied with kubectl or GitOps: changed there, not here.
    pub managed: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The views of some workflows (owners, share icons and projects loaded together).
pub async fn views(
    state: &AppState,
    caller: &AuthUser,
    items: &[(Workflow, AccessLevel)],
) -> Result<Vec<WorkflowView>> {
    let people = People::of(state, items.iter().map(|(w, _)| &w.asset)).await?;
    // Each project once: its name and the caller's level, when they see it.
    let mut projects: HashMap<String, Option<(String, AccessLevel)>> = HashMap::new();
    for (w, _) in items {
        let pid = &w.details.project_id;
        if !projects.contains_key(pid) {
            let seen = assets::visible(state, &caller.user, pid, Some(AssetKind::ProjectV2))
                .await?
                .map(|(a, level)| (a.name, level));
            projects.insert(pid.clone(), seen);
        }
    }
    let mut out = Vec::with_capacity(items.len());
    for (w, level) in items {
        let (a, d) = (&w.asset, &w.details);
        let user = people.owner(state, a).await;
        let share_icons = people.share_icons(state, a).await;
        let project = projects.get(&d.project_id).cloned().flatten();
        out.push(WorkflowView {
            id: a.id.clone(),
            name: a.name.clone(),
            project_id: d.project_id.clone(),
            project_name: project.as_ref().map(|(n, _)| n.clone()),
            user_uid: a.owner_uid.clone(),
            user,
            share_icons,
            schedule: d.schedule.clone(),
            visual: d.visual,
            nodes: d.nodes.clone(),
            edges: d.edges.clone(),
            status: d.status,
            import_error: d.import_error.clone(),
            is_paused: d.paused,
            published: d.published,
            last_run: d.observed.start,
            last_run_state: d.observed.state,
            last_run_duration: d.observed.duration,
            dag_file: d.dag_file.clone(),
            revision: d.revision.clone(),
            email_bool: d.email_bool,
            email_list: d.email_list.clone(),
            email_on: d.email_on,
            access_level: *level,
            project_access_level: project.map(|(_, l)| l),
            is_owner: a.owner_uid.as_deref() == Some(caller.user.uid.as_str()),
            managed: a.is_managed(),
            created_at: a.created_at,
            updated_at: a.updated_at,
        });
    }
    Ok(out)
}

/// The view of one workflow.
pub async fn view(
    state: &AppState,
    caller: &AuthUser,
    w: Workflow,
    level: AccessLevel,
) -> Result<WorkflowView> {
    views(state, caller, &[(w, level)])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a workflow view went missing"))
}
