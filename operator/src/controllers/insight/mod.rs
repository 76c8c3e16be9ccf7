//! Insight → for an application, a Deployment (scaled to zero while `running` is false; a new
//! `redeployToken` rolls it) and a Service; for a report, a Job that renders it; nothing for a
//! user_report or an external application (`appUrl`).
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
use k8s_openapi::api::{
    apps::v1::Deployment,
    batch::v1::Job,
    core::v1::{Pod, Service},
};
use kube::{
    Api, ResourceExt as _,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{
        Controller, PredicateConfig, WatchStreamExt as _,
        controller::Action,
        predicates,
        reflector::{ObjectRef, Store},
        watcher,
    },
};
use ludis_crds::{Insight, LABEL_INSIGHT, Project, common::CONDITION_STALLED};

use crate::{
    context::Context,
    error::Result,
    k8s::{children::RESYNC, labels::kind_selector, stores::primaries},
    metrics::arrivals::Arrivals,
    verdict::Reason,
};

const CONTROLLER: &str = "insight";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let caches = &ctx.caches;
    let ours = || {
        watcher::Config::default()
            .labels(&kind_selector(LABEL_INSIGHT, None))
            .any_semantic()
    };
    let arrivals = Arc::new(Arrivals::default());
    let (insights, trigger) = primaries(Api::<DeserializeGuard<Insight>>::all(client.clone()));
    let controller = Controller::for_stream(arrivals.objects(trigger), insights.clone());
    // An insight refused for a missing source project is looked at again when that project
    // appears (new projects only: generation changes, not status updates, pass the filter).
    let projects = watcher(
        Api::<PartialObjectMeta<Project>>::all(client.clone()),
        watcher::Config::default().any_semantic(),
    )
    .default_backoff()
    .applied_objects()
    .predicate_filter(predicates::generation, PredicateConfig::default());
    let controller = controller
        .owns_stream(arrivals.owners(caches.deployments.trimmed(
            Api::<Deployment>::all(client.clone()),
            ours(),
            |d| d.spec = None,
        )))
        .owns_stream(
            arrivals.owners(
                caches
                    .report_jobs
                    .trimmed(Api::<Job>::all(client.clone()), ours(), |j| j.spec = None),
            ),
        )
        .owns_stream(
            arrivals.owners(
                caches
                    .insight_services
                    .full(Api::<PartialObjectMeta<Service>>::all(client.clone()), ours()),
            ),
        )
        .watches_stream(projects, move |project| waiting_for_project(&insights, &project))
        // An application's pods belong to its ReplicaSets: they are mapped to the insight by its
        // label, so a pod that stops serving (or cannot start) is seen at once.
        .watches_stream(
            caches.app_pods.trimmed(
                Api::<Pod>::all(client.clone()),
                watcher::Config::default()
                    .labels(&kind_selector(LABEL_INSIGHT, Some("app")))
                    .any_semantic(),
                |p| p.spec = None,
            ),
            |pod| insight_of_pod(&pod).into_iter().collect::<Vec<_>>(),
        )
        .reconcile_all_on(ctx.list_changes());
    super::drive(controller, arrivals, CONTROLLER, reconcile, ctx, shutdown)
}

/// The insight an application's pod serves (by its `ludis.dev/insight` label).
fn insight_of_pod(pod: &Pod) -> Option<ObjectRef<DeserializeGuard<Insight>>> {
    let name = pod.labels().get(LABEL_INSIGHT)?;
    Some(ObjectRef::new(name).within(pod.metadata.namespace.as_deref()?))
}

/// The insights in `store` that are refused because `project` did not exist.
fn waiting_for_project(
    store: &Store<DeserializeGuard<Insight>>,
    project: &PartialObjectMeta<Project>,
) -> Vec<ObjectRef<DeserializeGuard<Insight>>> {
    let (Some(ns), Some(name)) = (&project.metadata.namespace, &project.metadata.name) else {
        return Vec::new();
    };
    store
        .state_filter(|guard| {
            let Ok(i) = &guard.0 else { return false };
            i.metadata.namespace.as_ref() == Some(ns)
                && i.spec.source.as_ref().is_some_and(|s| &s.project == name)
                && i.status.as_ref().is_some_and(|s| {
                    s.conditions
                        .iter()
                        .any(|c| c.type_ == CONDITION_STALLED && Reason::ProjectNotFound == c.reason.as_str())
                })
        })
        .iter()
        .map(|g| ObjectRef::from_obj(g.as_ref()))
        .collect()
}

async fn reconcile(insight: Arc<Insight>, ctx: Arc<Context>) -> Result<Action> {
    let observed = observe::observe(&insight, &ctx).await?;
    match validate::validate(&insight, &observed) {
        Ok(valid) => {
            let desired = build::build(&insight, &valid, &ctx.config, observed.bucket.as_deref());
            apply::apply(&ctx, &insight, &desired, &observed).await?;
            let (phase, verdict) = status::phase_of(&insight, &desired, &observed);
            status::update(&ctx, &insight, phase, &verdict, &desired).await?;
            Ok(if verdict.is_degraded() {
                Action::await_change()
            } else {
                Action::requeue(RESYNC)
            })
        }
        Err(verdict) => {
            // Invalid spec: nothing runs (orphans stay until the spec is valid again); the status
            // says why.
            let phase = status::invalid_phase(&insight, &verdict);
            status::update(&ctx, &insight, phase, &verdict, &build::Desired::default()).await?;
            Ok(super::retry_invalid(&verdict))
        }
    }
}
