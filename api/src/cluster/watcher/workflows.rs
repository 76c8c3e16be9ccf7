//! The Workflow side of the watcher: every Workflow resource is mirrored into
//! `assets`/`workflows` the way the other kinds are (organization, row, owner, `spec.sharing`,
//! deletion: see the parent module), with what is particular to workflows:
//!
//! - **Fields**: `displayName` → name; a resource row (applied with kubectl or GitOps) also takes
//!   its project (`spec.project`, the Project resource of the namespace), `visual`, `dagFile`,
//!   `revision`, `schedule`, `paused` and `notification`, and counts as published. A console row
//!   keeps what the API wrote.
//! - **Status** (every workflow, the API's too): `state` → `unpublished`, `initializing`,
//!   `ready`, `broken`, with `importError`, and the newest run's name, start and duration (its
//!   state read from the WorkflowRun); only when the status describes the current generation (or
//!   says nothing about it).

use kube::{Api, ResourceExt as _};
use ludis_crds::{
    Workflow as WorkflowCr, WorkflowRun,
    common::Sharing,
    workflow::{NotifyOn, WorkflowStatus as CrStatus},
};

use super::mirror::{Mirror, Mirrored, Reading, follow, resource_row, same_apart_from};
use crate::{
    db::{
        self,
        assets::AssetRow,
        workflows::{self as rows, LastRun, NO_SCHEDULE, Workflow, WorkflowRow},
    },
    domain::{AssetKind, EmailOn, Origin, RunState, WorkflowStatus},
};

impl Mirrored for WorkflowCr {
    type Details = WorkflowRow;
    type Seen = Seen;

    fn id_candidates(cr: &Self) -> Vec<String> {
        cr.labels()
            .get(ludis_crds::LABEL_ID)
            .cloned()
            .into_iter()
            .collect()
    }

    async fn new_rows(
        m: &mut Mirror,
        cr: &Self,
        seen: &Seen,
        row: AssetRow,
    ) -> anyhow::Result<Option<Workflow>> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let project_id = project_of(m, &namespace, &seen.project).await?;
        let mut w = new_workflow(
            seen,
            (&row.id, &row.organization_id),
            row.owner_uid.clone(),
            (&namespace, &name),
            &project_id,
            row.created_at,
        );
        w.asset.origin = row.origin;
        read_run_state(m, &namespace, &mut w.details).await;
        Ok(Some(w))
    }

    async fn updated(
        m: &mut Mirror,
        cr: &Self,
        old: &Workflow,
        seen: &Seen,
        owner: Option<String>,
    ) -> anyhow::Result<Workflow> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let project_id = if old.asset.origin == Origin::Resource {
            project_of(m, &namespace, &seen.project).await?
        } else {
            old.details.project_id.clone()
        };
        let mut new = updated_workflow(old, seen, owner, (&namespace, &name), &project_id);
        read_run_state(m, &namespace, &mut new.details).await;
        Ok(new)
    }

    fn same_fields(a: &Workflow, b: &Workflow) -> bool {
        same_apart_from(a, b, |d: &mut WorkflowRow| {
            d.status = WorkflowStatus::default();
            d.import_error = None;
            d.observed = LastRun::default();
        })
    }

    async fn write_observed(db: &sqlx::AnyPool, old: &Workflow, new: &Workflow) -> anyhow::Result<()> {
        let (o, n) = (&old.details, &new.details);
        if (o.status, &o.import_error, &o.observed) != (n.status, &n.import_error, &n.observed) {
            rows::set_observed(db, &n.id, n.status, n.import_error.as_deref(), &n.observed).await?;
        }
        Ok(())
    }
}

/// The newest run's state, read from its WorkflowRun (the Workflow's status names the run, not
/// its state; a finished run changes the Workflow's `lastRunDuration`, so it is read again then).
/// Kept as it was when the run cannot be read.
async fn read_run_state(m: &Mirror, namespace: &str, d: &mut WorkflowRow) {
    let (Some(client), Some(run)) = (m.state.kube.clone(), d.observed.name.clone()) else {
        return;
    };
    match Api::<WorkflowRun>::namespaced(client, namespace)
        .get_opt(&run)
        .await
    {
        Ok(Some(r)) => {
            d.observed.state = Some(
                r.status
                    .and_then(|s| s.phase)
                    .map_or(RunState::Queued, RunState::from),
            );
        }
        Ok(None) => d.observed.state = None,
        Err(e) => tracing::debug!(%namespace, %run, error = %e, "failed to read a workflow's newest run"),
    }
}

/// The asset id of the Project resource `name` of `namespace` ("" when it is not mirrored).
async fn project_of(m: &Mirror, namespace: &str, name: &str) -> anyhow::Result<String> {
    Ok(
        db::assets::by_resource(&m.state.db, AssetKind::ProjectV2, namespace, name)
            .await?
            .map(|a| a.id)
            .unwrap_or_default(),
    )
}

/// Pure: what a Workflow resource says, in the database's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub name: String,
    /// The Project resource's name.
    pub project: String,
    pub visual: bool,
    pub dag_file: Option<String>,
    pub revision: Option<String>,
    pub schedule: String,
    pub paused: bool,
    /// `(recipients, when)` while notifications are on.
    pub notification: Option<(Vec<String>, EmailOn)>,
    pub sharing: Option<Sharing>,
    /// `(status, import error, newest run)` when the status describes the current spec.
    pub observed: Option<(WorkflowStatus, Option<String>, LastRun)>,
}

impl Reading<WorkflowCr> for Seen {
    fn sharing(&self) -> Option<&Sharing> {
        self.sharing.as_ref()
    }

    fn of(cr: &WorkflowCr) -> Self {
        let spec = &cr.spec;
        let status = cr
            .status
            .as_ref()
            .filter(|s| match (s.observed_generation, cr.metadata.generation) {
                (Some(observed), Some(generation)) => observed >= generation,
                _ => true,
            });
        Self {
            name: spec.display_name.clone(),
            project: spec.project.clone(),
            visual: spec.visual,
            dag_file: spec.dag_file.clone(),
            revision: spec.revision.clone(),
            schedule: spec.schedule.clone().unwrap_or_else(|| NO_SCHEDULE.to_owned()),
            paused: spec.paused,
            notification: spec.notification.as_ref().filter(|n| n.enabled).map(|n| {
                let on = match n.on {
                    NotifyOn::Both => EmailOn::Both,
                    NotifyOn::Failure => EmailOn::Failure,
                    NotifyOn::Success => EmailOn::Success,
                };
                (n.emails.clone(), on)
            }),
            sharing: spec.sharing.clone(),
            observed: status.and_then(observed_of),
        }
    }
}

/// Pure: the operator's state, import error and newest run.
fn observed_of(s: &CrStatus) -> Option<(WorkflowStatus, Option<String>, LastRun)> {
    let status = WorkflowStatus::from(s.state?);
    let last = LastRun {
        name: s.last_run.clone(),
        start: s.last_run_time.as_ref().map(|t| t.0.as_second()),
        state: None,
        duration: s.last_run_duration.map(|d| d.round() as i64),
    };
    Some((status, s.import_error.clone(), last))
}

/// The fields a resource row takes from its resource.
fn take_fields(d: &mut WorkflowRow, seen: &Seen, project_id: &str) {
    d.project_id = project_id.to_owned();
    d.visual = seen.visual;
    d.dag_file = seen.dag_file.clone();
    d.revision = seen.revision.clone();
    d.schedule = seen.schedule.clone();
    d.paused = seen.paused;
    d.published = true;
    match &seen.notification {
        Some((emails, on)) => {
            d.email_bool = true;
            d.email_list = emails.clone();
            d.email_on = *on;
        }
        None => d.email_bool = false,
    }
}

fn take_observed(d: &mut WorkflowRow, seen: &Seen) {
    if let Some((status, error, last)) = &seen.observed {
        d.status = *status;
        d.import_error = error.clone();
        // The run's state is not in the Workflow's status: kept while the run is the same.
        let state = (d.observed.name == last.name)
            .then_some(d.observed.state)
            .flatten();
        d.observed = LastRun {
            state,
            ..last.clone()
        };
    }
}

/// Pure: the rows of a resource seen for the first time.
pub fn new_workflow(
    seen: &Seen,
    (id, organization_id): (&str, &str),
    owner_uid: Option<String>,
    place: (&str, &str),
    project_id: &str,
    now: i64,
) -> Workflow {
    let mut details = WorkflowRow::new(id, project_id, seen.visual);
    take_fields(&mut details, seen, project_id);
    details.status = WorkflowStatus::Initializing;
    take_observed(&mut details, seen);
    Workflow {
        asset: resource_row(
            AssetKind::Workflow,
            (id, organization_id),
            owner_uid,
            place,
            (&seen.name, ""),
            now,
        ),
        details,
    }
}

/// Pure: an existing row brought in line with its resource: the name and the observed status; a
/// resource row also takes the resource's fields (a console row keeps what the API wrote).
pub fn updated_workflow(
    old: &Workflow,
    seen: &Seen,
    owner_uid: Option<String>,
    place: (&str, &str),
    project_id: &str,
) -> Workflow {
    let mut new = follow(old, (&seen.name, &old.asset.description), owner_uid, place);
    if new.asset.origin == Origin::Resource {
        take_fields(&mut new.details, seen, project_id);
    }
    take_observed(&mut new.details, seen);
    new
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cr(spec: serde_json::Value, status: Option<serde_json::Value>) -> WorkflowCr {
        let mut v = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Workflow",
            "metadata": {"name": "nightly", "namespace": "ludis-acme", "generation": 2},
            "spec": spec,
        });
        if let Some(s) = status {
            v["status"] = s;
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_gitops_workflow_reads_in_the_databases_words() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Nightly", "project": "sales-1", "dagFile": "x_dag.py", "schedule": "0 6 * * *",
                   "notification": {"emails": ["ops@example.com"], "on": "failure"}}),
            Some(
                json!({"observedGeneration": 2, "state": "broken", "importError": "SyntaxError",
                        "lastRun": "nightly-1", "lastRunTime": "2026-01-01T00:00:00Z", "lastRunDuration": 12.6}),
            ),
        ));
        let w = new_workflow(&seen, ("id1", "org"), None, ("ludis-acme", "nightly"), "p1", 5);
        assert_eq!(w.asset.origin, Origin::Resource);
        let d = &w.details;
        assert_eq!(
            (d.project_id.as_str(), d.visual, d.published),
            ("p1", false, true)
        );
        assert_eq!(
            (d.schedule.as_str(), d.email_on, d.email_bool),
            ("0 6 * * *", EmailOn::Failure, true)
        );
        assert_eq!(
            (d.status, d.import_error.as_deref()),
            (WorkflowStatus::Broken, Some("SyntaxError"))
        );
        assert_eq!(
            (d.observed.start, d.observed.duration),
            (Some(1767225600), Some(13))
        );
    }

    #[test]
    fn a_console_row_keeps_its_fields_and_takes_the_status() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Nightly", "project": "other", "tasks": [{"name": "a", "script": {"file": "a.py", "image": "i"}}]}),
            Some(json!({"state": "ready"})),
        ));
        let mut console = new_workflow(
            &seen,
            ("id1", "org"),
            Some("u1".into()),
            ("ns", "nightly"),
            "p1",
            5,
        );
        console.asset.origin = Origin::Api;
        console.details.schedule = "0 1 * * *".into();
        let new = updated_workflow(&console, &seen, None, ("ns", "nightly"), "p2");
        assert_eq!(new.details.schedule, "0 1 * * *");
        assert_eq!(new.details.project_id, "p1");
        assert_eq!(new.details.status, WorkflowStatus::Ready);
        assert_eq!(new.asset.owner_uid.as_deref(), Some("u1"));
        let stale = Seen::of(&cr(
            json!({"displayName": "Nightly", "project": "p", "tasks": []}),
            Some(json!({"observedGeneration": 1, "state": "broken"})),
        ));
        assert_eq!(stale.observed, None);
    }
}
