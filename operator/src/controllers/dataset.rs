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
    events,
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
    super::drive(controller, CONTROLLER, reconcile, ctx, shutdown)
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
                // The counts last seen stay until new ones are read.
                let location = DatasetStatus {
                    bucket: Some(bucket.clone()),
                    prefix: Some(prefix.clone()),
                    ..dataset.status.clone().unwrap_or_default()
                };
                match storage_usage(&s3, &bucket, &prefix).await {
                    Ok((objects, bytes)) => {
                        let status = DatasetStatus {
                            object_count: Some(objects),
                            bytes: Some(bytes),
                            ..location
                        };
                        let verdict = Verdict::ready(Reason::Available, format!("s3://{bucket}/{prefix}"));
                        write_status(&ctx, &dataset, status, &verdict).await?;
                        Ok(Action::requeue(REFRESH))
                    }
                    Err(e) => {
                        // Retried by the error policy, which publishes the error as an event;
                        // meanwhile the dataset says what it waits for.
                        write_status(&ctx, &dataset, location, &waiting_for_storage(&bucket, &prefix)).await?;
                        Err(Error::Storage(e))
                    }
                }
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

/// The bucket made if needed, the prefix marked, and the objects under it counted and summed.
async fn storage_usage(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    prefix: &str,
) -> std::result::Result<(i64, i64), ludis_storage::StorageError> {
    ludis_storage::ensure_bucket(s3, bucket).await?;
    // A folder marker makes the (empty) dataset visible in listings.
    ludis_storage::mark_prefix(s3, bucket, prefix).await?;
    ludis_storage::usage(s3, bucket, prefix).await
}

/// Pure: the verdict on a dataset whose object storage failed it: retried, so on its way. The
/// message stays the same from one try to the next (the error, which may carry a request id, is
/// in the event of each failed try): a status written again at every try would trigger the next
/// one at once, past the backoff.
pub fn waiting_for_storage(bucket: &str, prefix: &str) -> Verdict {
    Verdict::progressing(
        Reason::WaitingForStorage,
        format!(
            "waiting for the object storage to accept s3://{bucket}/{prefix} (retried; the events say why)"
        ),
    )
}

/// Writes the dataset's status with `verdict` when it changed, and publishes the change.
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
    let before = dataset.status.as_ref().map(|s| s.conditions.as_slice());
    events::announce(ctx, dataset, before.unwrap_or_default(), verdict).await;
    Ok(())
}
