//! Test fixtures: a run `r1` of the workflow `nightly`, workflows from JSON, pods in a phase.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use ludis_crds::{
    Workflow, WorkflowRun, WorkflowRunSpec,
    workflow::{TaskRequest, Trigger},
};
use serde_json::json;

pub use super::super::fixtures::{project, workflow};
use super::observe::Observed;
use crate::images::ImageCatalog;

/// The run `r1` of `nightly`, with these requests and no status yet.
pub fn run(requests: &[TaskRequest]) -> WorkflowRun {
    let spec = WorkflowRunSpec {
        workflow: "nightly".into(),
        trigger: Trigger::Manual,
        job: None,
        requests: requests.to_vec(),
    };
    let mut r = WorkflowRun::new("r1", spec);
    r.metadata.namespace = Some("ludis-acme".into());
    r.metadata.uid = Some("run-uid".into());
    r.metadata.generation = Some(1);
    r
}

/// extract → clean, extract → check, clean → load, check → load.
pub fn diamond() -> Workflow {
    workflow(json!({
        "tasks": [
            {"name": "extract", "script": {"file": "extract.py", "image": "py"}},
            {"name": "clean", "script": {"file": "clean.py", "image": "py", "installScript": "setup.sh"}},
            {"name": "check", "script": {"file": "check.R", "image": "r", "size": "large"}},
            {"name": "load", "upload": {"file": "out/sales.csv", "dataset": "sales", "destinationPath": "daily"}}
        ],
        "edges": [{"from": "extract", "to": "clean"}, {"from": "extract", "to": "check"},
                  {"from": "clean", "to": "load"}, {"from": "check", "to": "load"}]
    }))
}

/// What a reconcile of a run of `workflow` observes: the images `py` and `r`, the dataset
/// `sales` ready, no pods yet.
pub fn observed(workflow: Option<Workflow>) -> Observed {
    Observed {
        workflow,
        project: Some(project()),
        images: ImageCatalog(BTreeMap::from([
            ("py".into(), "python:3.12-slim".into()),
            ("r".into(), "rocker/r-ver:4.4".into()),
        ])),
        sizes: Default::default(),
        destinations: BTreeMap::from([("sales".into(), "s3://acme/datasets/ludis-acme/42/".into())]),
        pods: Vec::new(),
    }
}

/// A pod named `name` in `phase`.
pub fn pod(name: &str, phase: &str) -> Pod {
    serde_json::from_value(json!({"metadata": {"name": name}, "status": {"phase": phase}})).unwrap()
}
