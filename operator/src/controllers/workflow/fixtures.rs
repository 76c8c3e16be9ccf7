//! Test fixtures of workflows and their runs.

use ludis_crds::{Project, Workflow, WorkflowSpec};
use serde_json::json;

/// The workflow `nightly` of the project `demo` in `ludis-acme` (one task `a` unless `extra` says
/// otherwise), with `extra` spec fields.
pub fn workflow(extra: serde_json::Value) -> Workflow {
    let mut spec = json!({"displayName": "Nightly", "project": "demo",
        "tasks": [{"name": "a", "script": {"file": "a.py", "image": "py"}}]});
    spec.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let mut w = Workflow::new("nightly", serde_json::from_value::<WorkflowSpec>(spec).unwrap());
    w.metadata.namespace = Some("ludis-acme".into());
    w.metadata.uid = Some("wf-uid".into());
    w
}

/// The project `demo` (image `py`, a git repository).
pub fn project() -> Project {
    let spec = json!({"displayName": "Demo", "image": "py",
        "git": {"url": "https://git.example/acme/demo.git"}});
    let mut p = Project::new("demo", serde_json::from_value(spec).unwrap());
    p.metadata.namespace = Some("ludis-acme".into());
    p
}
