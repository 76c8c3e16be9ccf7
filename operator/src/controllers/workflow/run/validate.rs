//! Validate (pure): the run's workflow exists, its tasks form a DAG (drawn in the designer, or
//! read from its DAG file), and its project has a repository to check out.

use ludis_crds::{Workflow, WorkflowRun, project::GitSource};

use super::{
    super::{dag::Dag, dag_file_image},
    observe::Observed,
};
use crate::verdict::{Reason, Verdict};

/// A run that can go on: its workflow and that workflow's DAG.
#[derive(Debug)]
pub struct Validated<'a> {
    pub workflow: &'a Workflow,
    pub dag: Dag,
    /// The repository the task pods check out, and at which commit (None: the branch's head).
    pub git: &'a GitSource,
    pub revision: Option<String>,
    /// For a workflow written as code: the image reference its tasks run in.
    pub dag_file_image: Option<String>,
}

pub fn validate<'a>(run: &WorkflowRun, observed: &'a Observed) -> Result<Validated<'a>, Verdict> {
    let Some(workflow) = &observed.workflow else {
        return Err(Verdict::degraded(
            Reason::WorkflowNotFound,
            format!("the workflow {:?} does not exist", run.spec.workflow),
        ));
    };
    let broken = |why: String| Verdict::degraded(Reason::WorkflowBroken, why);
    let Some(project) = &observed.project else {
        return Err(broken(format!(
            "the project {:?} does not exist",
            workflow.spec.project
        )));
    };
    let Some(git) = &project.spec.git else {
        return Err(broken(format!(
            "the project {:?} has no git repository for the tasks to check out",
            workflow.spec.project
        )));
    };
    if workflow.spec.dag_file.is_none() {
        let dag = Dag::new(&workflow.spec.tasks, &workflow.spec.edges).map_err(broken)?;
        return Ok(Validated {
            workflow,
            dag,
            git,
            revision: workflow.spec.revision.clone(),
            dag_file_image: None,
        });
    }
    // Written as code: the tasks read from the file, at the commit they were read at.
    let parsed = workflow
        .status
        .as_ref()
        .and_then(|s| s.dag.as_ref())
        .filter(|d| d.dag_id.is_some())
        .ok_or_else(|| broken("the workflow's DAG file has not been read successfully".into()))?;
    let names: Vec<String> = parsed.tasks.iter().map(|t| t.name.clone()).collect();
    let dag = Dag::of_names(&names, &parsed.edges).map_err(broken)?;
    let image = dag_file_image(workflow, project, &observed.images)
        .map_err(|why| Verdict::degraded(Reason::ImageNotAllowed, why))?;
    Ok(Validated {
        workflow,
        dag,
        git,
        revision: parsed.revision.clone(),
        dag_file_image: Some(image),
    })
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
