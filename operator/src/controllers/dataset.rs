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
    events::{self, WithConditions as _},
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
        write_status(
            &ctx,
            &dataset,
            DatasetStatus::default(),
            &storage_not_configured(),
        )
        .await?;
        return Ok(Action::await_change());
    };
    let ns_bucket = datasets::namespace_bucket(&ctx, &ns).await?;
    let (bucket, prefix) = datasets::location(&dataset, ns_bucket.as_deref(), &ctx.config.default_bucket);
    let refused = invalid_bucket(&bucket);

    finalizer(&api, FINALIZER_DATASET_CLEANUP, dataset, |event| async {
        match event {
            Finalizer::Apply(dataset) => {
                if let Some(verdict) = refused {
                    // Looked at again now and then: the namespace's annotation may be corrected.
                    write_status(&ctx, &dataset, DatasetStatus::default(), &verdict).await?;
                    return Ok(Action::requeue(REFRESH));
                }
                match storage_usage(&s3, &bucket, &prefix).await {
                    Ok((objects, bytes)) => {
                        let status = DatasetStatus {
                            bucket: Some(bucket.clone()),
                            prefix: Some(prefix.clone()),
                            object_count: Some(objects),
                            bytes: Some(bytes),
                            ..Default::default()
                        };
                        write_status(&ctx, &dataset, status, &available(&bucket, &prefix)).await?;
                        Ok(Action::requeue(REFRESH))
                    }
                    Err(e) => {
                        // Retried by the error policy, which publishes the error as an event;
                        // meanwhile the dataset says what it waits for. Where its objects are and
                        // how many stay as last seen (a new dataset has no location yet, so its
                        // users wait for it).
                        let last = dataset.status.clone().unwrap_or_default();
                        write_status(&ctx, &dataset, last, &waiting_for_storage(&bucket, &prefix)).await?;
                        Err(Error::Storage(e))
                    }
                }
            }
            Finalizer::Cleanup(dataset) => {
                // Nothing can be stored under a bucket name the storage refuses.
                if dataset.spec.deletion_policy == DeletionPolicy::Delete && refused.is_none() {
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

/// Pure: the verdict on a dataset whose data is where it should be.
pub fn available(bucket: &str, prefix: &str) -> Verdict {
    Verdict::ready(Reason::Available, format!("s3://{bucket}/{prefix}"))
}

/// Pure: the verdict on every dataset of an operator without object storage.
pub fn storage_not_configured() -> Verdict {
    Verdict::degraded(
        Reason::StorageNotConfigured,
        "the operator has no object storage configured",
    )
}

/// Pure: the verdict on a dataset whose bucket no S3 server accepts (the namespace's
/// `ludis.dev/bucket` annotation), if it is such a bucket.
pub fn invalid_bucket(bucket: &str) -> Option<Verdict> {
    let problem = datasets::bucket_name_problem(bucket)?;
    Some(Verdict::degraded(
        Reason::InvalidBucket,
        format!(
            "the bucket {bucket:?} (the namespace's ludis.dev/bucket annotation) is not a valid bucket name: {problem}"
        ),
    ))
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

/// Pure: the dataset's status: `status` (where the data is, how much) for its generation, with
/// the conditions of `verdict`.
pub fn status_of(dataset: &Dataset, status: DatasetStatus, verdict: &Verdict) -> DatasetStatus {
    DatasetStatus {
        observed_generation: dataset.metadata.generation,
        conditions: verdict.conditions(dataset.conditions(), dataset.metadata.generation),
        ..status
    }
}

/// Writes the dataset's status (see [`status_of`]) when it changed, and publishes the change of
/// verdict.
async fn write_status(
    ctx: &Context,
    dataset: &Dataset,
    status: DatasetStatus,
    verdict: &Verdict,
) -> Result<()> {
    let status = status_of(dataset, status, verdict);
    update_status(&ctx.client, dataset, dataset.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?;
    events::announce(ctx, dataset, verdict).await;
    Ok(())
}
