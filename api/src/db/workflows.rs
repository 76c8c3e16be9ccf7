//! The `workflows` table: a workflow's project, the designer's nodes and edges (or its DAG file),
//! schedule, e-mail settings, pause switch, whether and at which commit it was published, and
//! what the operator last observed, beside its `assets` row (kind `workflow`).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::{
    details::{AnyQuery, Details, WithDetails},
    insights::{json_list, json_text},
    named, named_opt,
};
use crate::{
    domain::{AssetKind, EmailOn, RunState, WorkflowStatus},
    workflows::designer::{DesignerEdge, DesignerNode},
};

/// The schedule of a workflow without one.
pub const NO_SCHEDULE: &str = "None";

#[derive(Debug, Clone, PartialEq)]
pub struct WorkflowRow {
    pub id: String,
    pub project_id: String,
    /// Drawn in the designer (else written as a DAG file).
    pub visual: bool,
    pub nodes: Vec<DesignerNode>,
    pub edges: Vec<DesignerEdge>,
    /// A five-field UTC cron, or [`NO_SCHEDULE`].
    pub schedule: String,
    pub email_bool: bool,
    pub email_list: Vec<String>,
    pub email_on: EmailOn,
    pub paused: bool,
    pub published: bool,
    pub dag_file: Option<String>,
    pub revision: Option<String>,
    pub status: WorkflowStatus,
    pub import_error: Option<String>,
    pub observed: LastRun,
}

/// What the operator observed of the newest run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LastRun {
    /// The WorkflowRun's name.
    pub name: Option<String>,
    /// Its start, Unix seconds.
    pub start: Option<i64>,
    pub state: Option<RunState>,
    /// Seconds.
    pub duration: Option<i64>,
}

impl WorkflowRow {
    /// A new, unpublished workflow of a project.
    pub fn new(id: &str, project_id: &str, visual: bool) -> Self {
        Self {
            id: id.to_owned(),
            project_id: project_id.to_owned(),
            visual,
            nodes: Vec::new(),
            edges: Vec::new(),
            schedule: NO_SCHEDULE.to_owned(),
            email_bool: false,
            email_list: Vec::new(),
            email_on: EmailOn::Both,
            paused: false,
            published: false,
            dag_file: None,
            revision: None,
            status: WorkflowStatus::Unpublished,
            import_error: None,
            observed: LastRun::default(),
        }
    }

    /// The cron schedule, when it has one.
    pub fn cron(&self) -> Option<&str> {
        (self.schedule != NO_SCHEDULE).then_some(self.schedule.as_str())
    }
}

impl Details for WorkflowRow {
    const KIND: AssetKind = AssetKind::Workflow;
    const COLUMNS: &'static [&'static str] = &[
        "project_id",
        "visual",
        "nodes",
        "edges",
        "schedule",
        "email_bool",
        "email_list",
        "email_on",
        "paused",
        "published",
        "dag_file",
        "revision",
        "status",
        "import_error",
        "last_run_name",
        "last_run",
        "last_run_state",
        "last_run_duration",
    ];

    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let decode = |column: &str, e: serde_json::Error| sqlx::Error::ColumnDecode {
            index: column.to_owned(),
            source: Box::new(e),
        };
        Ok(Self {
            id: r.try_get("id")?,
            project_id: r.try_get("project_id")?,
            visual: r.try_get::<i64, _>("visual")? != 0,
            nodes: serde_json::from_str(&r.try_get::<String, _>("nodes")?).map_err(|e| decode("nodes", e))?,
            edges: serde_json::from_str(&r.try_get::<String, _>("edges")?).map_err(|e| decode("edges", e))?,
            schedule: r.try_get("schedule")?,
            email_bool: r.try_get::<i64, _>("email_bool")? != 0,
            email_list: json_list(&r.try_get::<String, _>("email_list")?),
            email_on: named(r, "email_on")?,
            paused: r.try_get::<i64, _>("paused")? != 0,
            published: r.try_get::<i64, _>("published")? != 0,
            dag_file: r.try_get("dag_file")?,
            revision: r.try_get("revision")?,
            status: named(r, "status")?,
            import_error: r.try_get("import_error")?,
            observed: LastRun {
                name: r.try_get("last_run_name")?,
                start: r.try_get("last_run")?,
                state: named_opt(r, "last_run_state")?,
                duration: r.try_get("last_run_duration")?,
            },
        })
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn bind<'q>(&'q self, q: AnyQuery<'q>) -> AnyQuery<'q> {
        q.bind(&self.project_id)
            .bind(i64::from(self.visual))
            .bind(serde_json::to_string(&self.nodes).unwrap_or_else(|_| "[]".into()))
            .bind(serde_json::to_string(&self.edges).unwrap_or_else(|_| "[]".into()))
            .bind(&self.schedule)
            .bind(i64::from(self.email_bool))
            .bind(json_text(&self.email_list))
            .bind(self.email_on.as_str())
            .bind(i64::from(self.paused))
            .bind(i64::from(self.published))
            .bind(&self.dag_file)
            .bind(&self.revision)
            .bind(self.status.as_str())
            .bind(&self.import_error)
            .bind(&self.observed.name)
            .bind(self.observed.start)
            .bind(self.observed.state.map(RunState::as_str))
            .bind(self.observed.duration)
    }
}

/// A workflow: its asset row and its details.
pub type Workflow = WithDetails<WorkflowRow>;

/// Sets what the operator observed (the watcher's write for every workflow).
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: WorkflowStatus,
    import_error: Option<&str>,
    last: &LastRun,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE workflows SET status = $2, import_error = $3, last_run_name = $4, last_run = $5, \
         last_run_state = $6, last_run_duration = $7 WHERE id = $1",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(import_error)
    .bind(&last.name)
    .bind(last.start)
    .bind(last.state.map(RunState::as_str))
    .bind(last.duration)
    .execute(db)
    .await?;
    Ok(())
}
