//! WorkflowRun → one Pod per task in DAG order (independent tasks in parallel); pod outcomes,
//! mark and clear requests drive the task states (see [`super::dag::step`]); when the run ends,
//! an e-mail goes to the workflow's notification list.
//!
//! A reconcile is a pipeline: [`observe`] (the workflow, the image list, upload destinations and
//! the run's pods) → [`validate`] (pure: the workflow exists and its tasks form a DAG) →
//! [`build`] (pure: the next step of the run — the pods to start and to stop, and the status) →
//! [`apply`] (create and stop pods) → [`status`] (write it; the end-of-run e-mail).

pub mod apply;
pub mod build;
#[cfg(test)]
mod fixtures;
pub mod observe;
pub mod status;
pub mod task_pod;
pub mod validate;

use std::sync::Arc;

use futures::Stream;
use k8s_openapi::{api::core::v1::Pod, apimachinery::pkg::apis::meta::v1::Time, jiff::Timestamp};
use kube::{
    Api,
    core::DeserializeGuard,
    runtime::{Controller, controller::Action, watcher},
};
use ludis_crds::{LABEL_TASK, WorkflowRun};

use crate::{
    context::Context,
    error::Result,
    k8s::stores::primaries,
    metrics::arrivals::Arrivals,
    verdict::{Reason, Verdict},
};

const CONTROLLER: &str = "workflowrun";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    // Its own status writes do not trigger a run again (the generation filter); the pods' events
    // and the requests (spec changes) do.
    let arrivals = Arc::new(Arrivals::default());
    let (runs, trigger) = primaries(Api::<DeserializeGuard<WorkflowRun>>::all(client.clone()));
    crate::controllers::drive(
        Controller::for_stream(arrivals.objects(trigger), runs).owns_stream(arrivals.owners(
            ctx.caches.task_pods.trimmed(
                Api::<Pod>::all(client.clone()),
                watcher::Config::default().labels(LABEL_TASK),
                |p| p.spec = None,
            ),
        )),
        arrivals,
        CONTROLLER,
        reconcile,
        ctx,
        shutdown,
    )
}

/// How soon a run whose tasks wait for the organization's quota looks again.
const QUOTA_RETRY: std::time::Duration = std::time::Duration::from_secs(10);

async fn reconcile(run: Arc<WorkflowRun>, ctx: Arc<Context>) -> Result<Action> {
    // The store may not show the status this controller just wrote: a step must start from it.
    let run = ctx.caches.run_statuses.current(run);
    let observed = observe::observe(&run, &ctx).await?;
    let valid = match validate::validate(&run, &observed) {
        Ok(valid) => valid,
        Err(verdict) => return status::degrade(&ctx, &run, verdict).await,
    };
    let now = Time(Timestamp::now());
    let desired = match build::build(&run, &valid, &observed, &ctx.config, now) {
        Ok(desired) => desired,
        Err(verdict) => return status::degrade(&ctx, &run, verdict).await,
    };
    if let Some(why) = apply::apply(&ctx, &run, &desired, &observed).await? {
        // Nothing of this step is written: its tasks wait, and a later look starts them (the pods
        // already made are kept) once something of the organization stops.
        let verdict = Verdict::progressing(
            Reason::WaitingForQuota,
            format!("waiting for the organization's quota: {why}"),
        );
        status::wait(&ctx, &run, &verdict).await?;
        return Ok(Action::requeue(QUOTA_RETRY));
    }
    if desired.status_can_wait {
        return Ok(Action::requeue(status::RUNNING_RESYNC));
    }
    status::update(&ctx, &run, valid.workflow, desired.status, &desired.verdict).await
}
