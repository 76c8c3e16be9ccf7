//! Workflow custom resources written by the API (docs/contracts/workflows.md): applied at every
//! publish with server-side apply under the field manager `ludis-api`, never forced
//! ([`apply::apply`]; the fields the API decides: `displayName`, `project`, `visual`, `tasks`
//! and `edges` or `dagFile`, `image`, `revision`, `schedule`, `paused`, `notification`; the
//! `ludis.dev/id` label and the `ludis.dev/owner` annotation), the settings changed between
//! publishes applied again ([`patch_settings`]: `paused`, `schedule`, `notification`), and deleted
//! with its runs and their pods (owner references). The runs are in [`super::workflow_runs`].
//!
//! A workflow applied with kubectl or GitOps (`origin = resource`) belongs to its resource: the
//! API changes nothing of it. Without a cluster, or for a row without a resource (not published
//! yet), every call does nothing.

use anyhow::Context as _;
use kube::Api;
use ludis_crds::Workflow as WorkflowCr;
use serde_json::{Value, json};

use super::apply::{self, truncate};
use crate::{
    db::workflows::{Workflow, WorkflowRow},
    domain::{AssetKind, EmailOn},
    state::AppState,
};

/// The CRD's limit on `displayName` (characters).
const MAX_NAME: usize = 128;

impl apply::Applied for WorkflowCr {
    const KIND: AssetKind = AssetKind::Workflow;
}

/// What a publish runs: the visual workflow's tasks and edges (as the resource has them), or a
/// manual workflow's DAG file.
#[derive(Debug, Clone, PartialEq)]
pub enum Work {
    Tasks { tasks: Vec<Value>, edges: Vec<Value> },
    DagFile(String),
}

/// Pure: `spec.notification` of the e-mail settings (none while off or without recipients).
pub fn notification(d: &WorkflowRow) -> Value {
    if !d.email_bool || d.email_list.is_empty() {
        return Value::Null;
    }
    let on = match d.email_on {
        EmailOn::Both => "both",
        EmailOn::Failure => "failure",
        EmailOn::Success => "success",
    };
    json!({"enabled": true, "emails": d.email_list, "on": on})
}

/// Pure: the applied object of a publish: identity, the id label, the owner annotation and the
/// spec fields the API decides. `project` is the project's resource name, `image` the image
/// that parses and runs a DAG file (none for a visual workflow: each task names its own).
pub fn object(
    w: &Workflow,
    (namespace, name): (&str, &str),
    project: &str,
    work: &Work,
    image: Option<&str>,
) -> Value {
    let d = &w.details;
    let mut spec = json!({
        "displayName": truncate(&w.asset.name, MAX_NAME),
        "project": project,
        "visual": d.visual,
        "paused": d.paused,
    });
    match work {
        Work::Tasks { tasks, edges } => {
            spec["tasks"] = json!(tasks);
            spec["edges"] = json!(edges);
        }
        Work::DagFile(file) => {
            spec["tasks"] = json!([]);
            spec["edges"] = json!([]);
            spec["dagFile"] = json!(file);
        }
    }
    if let Some(image) = image {
        spec["image"] = json!(image);
    }
    if let Some(revision) = &d.revision {
        spec["revision"] = json!(revision);
    }
    if let Some(cron) = d.cron() {
        spec["schedule"] = json!(cron);
    }
    let notification = notification(d);
    if !notification.is_null() {
        spec["notification"] = notification;
    }
    apply::object(&w.asset, namespace, name, spec, true)
}

/// Applies the Workflow resource of a publish. Does nothing for a workflow its resource manages,
/// without a cluster, or for a row without a resource.
pub async fn publish(
    state: &AppState,
    w: &Workflow,
    project: &str,
    work: &Work,
    image: Option<&str>,
) -> anyhow::Result<()> {
    if w.asset.is_managed() {
        return Ok(());
    }
    let Some(place) = w.asset.resource() else {
        return Ok(());
    };
    let body = object(w, place, project, work, image);
    apply::apply::<WorkflowCr>(state, &w.asset, &body).await
}

/// Applies the settings changed between publishes (`paused`, `schedule`, `notification`) to the
/// published resource: the fields of the last publish are read back from it and applied again
/// with the new settings (the same field manager, so nothing conflicts with the API's own
/// fields). Nothing before the first publish, for a managed workflow, or without a cluster.
pub async fn patch_settings(state: &AppState, w: &Workflow) -> anyhow::Result<()> {
    if w.asset.is_managed() || !w.details.published {
        return Ok(());
    }
    let Some(place) = w.asset.resource() else {
        return Ok(());
    };
    let Some(cr) = get(state, w).await? else {
        return Ok(());
    };
    let work = match &cr.spec.dag_file {
        Some(file) => Work::DagFile(file.clone()),
        None => Work::Tasks {
            tasks: cr.spec.tasks.iter().map(|t| json!(t)).collect(),
            edges: cr.spec.edges.iter().map(|e| json!(e)).collect(),
        },
    };
    let mut published = w.clone();
    published.details.revision = cr.spec.revision.clone();
    let body = object(
        &published,
        place,
        &cr.spec.project,
        &work,
        cr.spec.image.as_deref(),
    );
    apply::apply::<WorkflowCr>(state, &w.asset, &body).await
}

/// The Workflow resource, when it exists.
pub async fn get(state: &AppState, w: &Workflow) -> anyhow::Result<Option<WorkflowCr>> {
    let (Some(client), Some((namespace, name))) = (&state.kube, w.asset.resource()) else {
        return Ok(None);
    };
    Api::<WorkflowCr>::namespaced(client.clone(), namespace)
        .get_opt(name)
        .await
        .with_context(|| format!("failed to read workflow {namespace}/{name}"))
}

/// Deletes the Workflow resource (its CronJob, runs and their pods go with it).
pub async fn delete(state: &AppState, w: &Workflow) -> anyhow::Result<()> {
    apply::delete::<WorkflowCr>(state, &w.asset).await
}

#[cfg(test)]
mod tests {
    use ludis_crds::{ANNOTATION_OWNER, LABEL_ID};

    use super::*;
    use crate::db::assets::AssetRow;

    fn workflow(visual: bool) -> Workflow {
        let id = "1a2b3c4d-0000-4000-8000-000000000000";
        let mut d = WorkflowRow::new(id, "p1", visual);
        d.schedule = "0 6 * * *".into();
        d.paused = true;
        d.email_bool = true;
        d.email_list = vec!["ada@example.com".into()];
        d.email_on = EmailOn::Failure;
        d.revision = Some("a".repeat(40));
        Workflow {
            asset: AssetRow {
                owner_uid: Some("u1".into()),
                ..AssetRow::new(AssetKind::Workflow, id.into(), "org".into(), "Nightly".into(), 0)
            }
            .placed(Some(("ludis-acme".into(), "nightly-1a2b3c4d".into()))),
            details: d,
        }
    }

    #[test]
    fn a_visual_publish_carries_tasks_and_the_settings() {
        let work = Work::Tasks {
            tasks: vec![json!({"name": "a", "script": {"file": "a.py", "image": "python-3.12"}})],
            edges: vec![],
        };
        let o = object(
            &workflow(true),
            ("ludis-acme", "nightly-1a2b3c4d"),
            "sales-12345678",
            &work,
            None,
        );
        assert_eq!(
            o["metadata"]["labels"][LABEL_ID],
            "1a2b3c4d-0000-4000-8000-000000000000"
        );
        assert_eq!(o["metadata"]["annotations"][ANNOTATION_OWNER], "u1");
        let cr: WorkflowCr = serde_json::from_value(o).unwrap();
        assert_eq!(cr.spec.project, "sales-12345678");
        assert_eq!(cr.spec.schedule.as_deref(), Some("0 6 * * *"));
        assert!(cr.spec.paused && cr.spec.visual);
        assert_eq!(cr.spec.tasks[0].name, "a");
        assert_eq!(cr.spec.dag_file, None);
        let n = cr.spec.notification.unwrap();
        assert_eq!(n.emails, ["ada@example.com"]);
        assert_eq!(n.on, ludis_crds::workflow::NotifyOn::Failure);
        assert_eq!(cr.spec.revision.as_deref(), Some(&*"a".repeat(40)));
    }

    #[test]
    fn a_manual_publish_names_its_dag_file_and_image() {
        let mut w = workflow(false);
        w.details.schedule = "None".into();
        w.details.email_bool = false;
        let o = object(
            &w,
            ("ns", "n"),
            "p",
            &Work::DagFile("x_dag.py".into()),
            Some("python-3.12"),
        );
        let cr: WorkflowCr = serde_json::from_value(o).unwrap();
        assert_eq!(cr.spec.dag_file.as_deref(), Some("x_dag.py"));
        assert_eq!(cr.spec.image.as_deref(), Some("python-3.12"));
        assert!(cr.spec.tasks.is_empty());
        assert_eq!(cr.spec.schedule, None);
        assert_eq!(cr.spec.notification, None);
    }
}
