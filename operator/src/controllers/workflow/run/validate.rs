//! Validate (pure): the run's workflow exists and its tasks form a DAG.

use ludis_crds::{Workflow, WorkflowRun};

use super::{super::dag::Dag, observe::Observed};
use crate::verdict::{Reason, Verdict};

/// A run that can go on: its workflow and that workflow's DAG.
#[derive(Debug)]
pub struct Validated<'a> {
    pub workflow: &'a Workflow,
    pub dag: Dag,
}

pub fn validate<'a>(run: &WorkflowRun, observed: &'a Observed) -> Result<Validated<'a>, Verdict> {
    let Some(workflow) = &observed.workflow else {
        return Err(Verdict::degraded(
            Reason::WorkflowNotFound,
            format!("the workflow {:?} does not exist", run.spec.workflow),
        ));
    };
    let dag = Dag::new(&workflow.spec.tasks, &workflow.spec.edges)
        .map_err(|why| Verdict::degraded(Reason::WorkflowBroken, why))?;
    Ok(Validated { workflow, dag })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{super::fixtures::*, *};

    #[test]
    fn a_run_of_a_missing_workflow_is_degraded() {
        let v = validate(&run(&[]), &Observed::default()).unwrap_err();
        assert_eq!(v.reason(), "WorkflowNotFound");
        assert!(v.is_degraded());
        assert_eq!(v.message(), "the workflow \"nightly\" does not exist");
    }

    #[test]
    fn a_run_of_a_workflow_with_a_cycle_is_broken() {
        let wf = workflow(json!({
            "tasks": [{"name": "a", "script": {"file": "a.py", "image": "py"}},
                      {"name": "b", "script": {"file": "b.py", "image": "py"}}],
            "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]}));
        let v = validate(&run(&[]), &observed(Some(wf))).unwrap_err();
        assert_eq!(v.reason(), "WorkflowBroken");
        assert_eq!(v.message(), "the tasks form a cycle through a, b");
    }

    #[test]
    fn a_run_of_a_valid_workflow_has_its_dag() {
        let o = observed(Some(diamond()));
        let valid = validate(&run(&[]), &o).unwrap();
        assert_eq!(valid.dag.order, ["extract", "clean", "check", "load"]);
        assert_eq!(valid.workflow.metadata.name.as_deref(), Some("nightly"));
    }
}
