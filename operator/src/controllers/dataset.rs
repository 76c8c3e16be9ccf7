//! Dataset → a prefix in the organization's bucket; object count and bytes in status; a
//! finalizer deletes the objects with the dataset when `deletionPolicy` is Delete. The objects
//! live outside the cluster, so this is the one kind with a finalizer (kube's `finalizer`
//! helper, Apply/Cleanup) and without children.

use std::{sync::Arc, time::Duration};

use futures::Stream;
use kube::{
    Api, Resource as _, ResourceExt as _,
    core::DeserializeGuard,
    runtime::{
        Controller,
        controller::Action,
        events::EventType,
        finalizer::{Event as Finalizer, finalizer},
        watcher,
    },
};
use ludis_crds::{Dataset, DatasetStatus, FINALIZER_DATASET_CLEANUP, dataset::DeletionPolicy};

use crate::{
    context::Context,
    datasets,
    error::{Error, Result},
    k8s::apply::update_status,
    verdict::{Reason, Verdict},
};

const CONTROLLER: &str = "dataset";
/// How often object counts are refreshed.
const REFRESH: Duration = Duration::from_secs(60);

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let controller = Controller::new(
        Api::<DeserializeGuard<Dataset>>::all(ctx.client.clone()),
        watcher::Config::default().any_semantic(),
    );
    ctx.caches.datasets.set(controller.store());
    // Its trigger is the controller's own watch (every event, status writes too): no queue wait
    // is measured for datasets.
    super::drive(controller, Arc::default(), CONTROLLER, reconcile, ctx, shutdown)
}

async fn reconcile(dataset: Arc<Dataset>, ctx: Arc<Context>) -> Result<Action> {
    let ns = dataset.namespace().unwrap_or_default();
    let api: Api<Dataset> = Api::namespaced(ctx.client.clone(), &ns);
    let Some(s3) = ctx.s3.clone() else {
        let verdict = Verdict::degraded(
            Reason::StorageNotConfigured,
            "the operator has no object storage configured",
        );
        write_status(&ctx, &dataset, DatasetStatus::default(), &verdict).await?;
        return Ok(Action::await_change());
    };
    let ns_bucket = datasets::namespace_bucket(&ctx, &ns).await?;
    let (bucket, prefix) = datasets::location(&dataset, ns_bucket.as_deref(), &ctx.config.default_bucket);

    finalizer(&api, FINALIZER_DATASET_CLEANUP, dataset, |event| async {
        match event {
            Finalizer::Apply(dataset) => {
                ludis_storage::ensure_bucket(&s3, &bucket)
                    .await
                    .map_err(Error::Storage)?;
                // A folder marker makes the (empty) dataset visible in listings.
                ludis_storage::mark_prefix(&s3, &bucket, &prefix)
                    .await
                    .map_err(Error::Storage)?;
                let (objects, bytes) = ludis_storage::usage(&s3, &bucket, &prefix)
                    .await
                    .map_err(Error::Storage)?;
                let status = DatasetStatus {
                    bucket: Some(bucket.clone()),
                    prefix: Some(prefix.clone()),
                    object_count: Some(objects),
                    bytes: Some(bytes),
                    ..Default::default()
                };
                let verdict = Verdict::ready(Reason::Available, format!("s3://{bucket}/{prefix}"));
                write_status(&ctx, &dataset, status, &verdict).await?;
                Ok(Action::requeue(REFRESH))
            }
            Finalizer::Cleanup(dataset) => {
                if dataset.spec.deletion_policy == DeletionPolicy::Delete {
                    let n = ludis_storage::delete_prefix(&s3, &bucket, &prefix)
                        .await
                        .map_err(Error::Storage)?;
                    tracing::info!(dataset = %dataset.name_any(), objects = n, "deleted the dataset's objects");
                    ctx.event(
                        &dataset.object_ref(&()),
                        EventType::Normal,
                        "DataDeleted",
                        "Cleanup",
                        format!("deleted {n} objects under s3://{bucket}/{prefix}"),
                    )
                    .await;
                }
                Ok(Action::await_change())
            }
        }
    })
    .await
    .map_err(|e| match e {
        kube::runtime::finalizer::Error::ApplyFailed(e) | kube::runtime::finalizer::Error::CleanupFailed(e) => e,
        other => Error::Finalizer(other.to_string()),
    })
}

async fn write_status(
    ctx: &Context,
    dataset: &Dataset,
    mut status: DatasetStatus,
    verdict: &Verdict,
) -> Result<()> {
    status.observed_generation = dataset.metadata.generation;
    status.conditions = verdict.conditions(
        &dataset
            .status
            .as_ref()
            .map(|s| s.conditions.clone())
            .unwrap_or_default(),
        dataset.metadata.generation,
    );
    update_status(&ctx.client, dataset, dataset.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?;
    Ok(())
}
