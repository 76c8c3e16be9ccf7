//! Apply (IO): create the pods of the tasks that start (once each: a pod's name is its task's
//! try), and stop the pods of tasks that no longer run.

use k8s_openapi::api::core::v1::Pod;
use kube::api::ObjectMeta;
use ludis_crds::WorkflowRun;

use super::{CONTROLLER, build::Desired, observe::Observed};
use crate::{
    context::Context,
    error::{AdmissionRefusal, Result},
};

/// Creates the pods of the tasks that start, and stops the others. `Ok(Some(why))`: the
/// organization's quota had no room for a pod (the others were made): the step's tasks wait.
pub async fn apply(
    ctx: &Context,
    run: &WorkflowRun,
    desired: &Desired,
    observed: &Observed,
) -> Result<Option<String>> {
    let children = ctx.children(CONTROLLER, run);
    let pods: Vec<ObjectMeta> = observed.pods.iter().map(|p| p.metadata.clone()).collect();
    let mut waiting = None;
    for pod in &desired.start {
        match children.create("task pod", pod, &pods).await {
            Ok(_) => {}
            Err(e) => match e.admission_refusal() {
                Some(AdmissionRefusal::Quota(why)) => waiting = Some(why.to_owned()),
                _ => return Err(e),
            },
        }
    }
    // A pod that could not be stopped now is stopped by a later reconcile; the run goes on.
    let stop: Vec<ObjectMeta> = pods
        .into_iter()
        .filter(|p| p.name.as_ref().is_some_and(|n| desired.stop.contains(n)))
        .collect();
    if let Err(e) = children.delete_orphans::<Pod>("task pods", &stop, &[]).await {
        tracing::warn!(error = %e, "failed to stop the pods of tasks that no longer run");
    }
    if waiting.is_none() {
        children.applied();
    }
    Ok(waiting)
}
