//! Project → workspace PVC; while `preview.running`, a preview Pod (the project's image, with an
//! init container that checks out the git repository) and a Service for its web port.
//!
//! A reconcile is a pipeline: [`observe`] (reads, from caches) → [`validate`] (pure) →
//! [`build`] the children (pure) → [`apply`] them and delete orphans → [`status`].

pub mod apply;
pub mod build;
#[cfg(test)]
mod fixtures;
pub mod observe;
pub mod status;
pub mod validate;

use std::sync::Arc;

use futures::Stream;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, Service};
use kube::{
    Api,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{Controller, controller::Action, watcher},
};
use ludis_crds::{LABEL_PROJECT, Project};

use crate::{
    context::Context,
    error::Result,
    k8s::{children::RESYNC, labels::kind_selector, stores::primaries},
    metrics::arrivals::Arrivals,
};

const CONTROLLER: &str = "project";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let caches = &ctx.caches;
    let ours = |component: &str| {
        watcher::Config::default()
            .labels(&kind_selector(LABEL_PROJECT, Some(component)))
            .any_semantic()
    };
    let arrivals = Arc::new(Arrivals::default());
    let (projects, trigger) = primaries(Api::<DeserializeGuard<Project>>::all(client.clone()));
    let controller = Controller::for_stream(arrivals.objects(trigger), projects)
        .owns_stream(arrivals.owners(caches.preview_pods.trimmed(
            Api::<Pod>::all(client.clone()),
            ours("preview"),
            |p| p.spec = None,
        )))
        .owns_stream(arrivals.owners(caches.workspaces.full(
            Api::<PartialObjectMeta<PersistentVolumeClaim>>::all(client.clone()),
            ours("workspace"),
        )))
        .owns_stream(arrivals.owners(caches.project_services.full(
            Api::<PartialObjectMeta<Service>>::all(client.clone()),
            ours("preview"),
        )))
        .reconcile_all_on(ctx.list_changes());
    caches.projects.set(controller.store());
    super::drive(controller, arrivals, CONTROLLER, reconcile, ctx, shutdown)
}

async fn reconcile(project: Arc<Project>, ctx: Arc<Context>) -> Result<Action> {
    let observed = observe::observe(&project, &ctx).await?;
    match validate::validate(&project, &observed) {
        Ok(valid) => {
            let desired = build::build(&project, &valid, &ctx.config);
            if let Err(e) = apply::apply(&ctx, &project, &desired, &observed).await {
                // The organization's quota or limits refused the preview pod: the status says
                // why (waiting for room, looked at again shortly; or until the spec changes).
                let Some(verdict) = e.admission_refusal().map(|r| r.verdict()) else {
                    return Err(e);
                };
                status::update(&ctx, &project, status::invalid_phase(&verdict), &verdict, None).await?;
                return Ok(super::retry_invalid(&verdict));
            }
            let (phase, verdict) = status::phase_of(&project, status::preview_pod(&desired, &observed));
            status::update(&ctx, &project, phase, &verdict, Some(&desired)).await?;
            Ok(Action::requeue(RESYNC))
        }
        Err(verdict) => {
            // Invalid spec: nothing is created; the status says why, and we wait for a change
            // (or, when waiting on something that is on its way, look again shortly).
            let phase = status::invalid_phase(&verdict);
            status::update(&ctx, &project, phase, &verdict, None).await?;
            Ok(super::retry_invalid(&verdict))
        }
    }
}
