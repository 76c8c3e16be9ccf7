//! Dataset → a prefix in the organization's bucket; object count and bytes in status; a
//! finalizer deletes the objects with the dataset when `deletionPolicy` is Delete.

use std::{sync::Arc, time::Duration};

use futures::Stream;
use k8s_openapi::api::core::v1::Namespace;
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
use ludis_crds::{Dataset, DatasetStatus, LABEL_ID, dataset::DeletionPolicy};

use super::Verdict;
use crate::{
    context::Context,
    error::{self, Error, Result},
    k8s::apply::patch_status,
};

const CONTROLLER: &str = "dataset";
/// The finalizer that keeps a dataset until its objects are dealt with.
pub const FINALIZER: &str = "datasets.ludis.dev/cleanup";
/// Annotation of an organization's namespace naming its bucket.
pub const BUCKET_ANNOTATION: &str = "ludis.dev/bucket";
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

/// A dataset referenced by a project or an insight, as its pods will see it.
#[derive(Clone, Debug, PartialEq)]
pub enum DatasetRef {
    /// No such dataset in the namespace.
    Missing,
    /// It exists but its storage is not ready yet.
    Pending,
    /// Its location, `s3://<bucket>/<prefix>`.
    At(String),
}

/// Looks up the referenced datasets (the dataset controller's cache first; a miss is checked
/// with the API server, as the cache may lag).
pub async fn resolve(
    ctx: &Context,
    ns: &str,
    refs: &[ludis_crds::common::LocalRef],
) -> Result<std::collections::BTreeMap<String, DatasetRef>> {
    let mut out = std::collections::BTreeMap::new();
    for r in refs {
        let cached = ctx
            .caches
            .datasets
            .get()
            .and_then(|s| s.get(&kube::runtime::reflector::ObjectRef::new(&r.name).within(ns)))
            .and_then(|g| g.0.as_ref().ok().cloned());
        let dataset = match cached {
            Some(d) => Some(d),
            None => Api::<Dataset>::namespaced(ctx.client.clone(), ns)
                .get_opt(&r.name)
                .await
                .map_err(error::observe("dataset"))?,
        };
        let state = match dataset.and_then(|d| d.status) {
            None => DatasetRef::Missing,
            Some(DatasetStatus {
                bucket: Some(b),
                prefix: Some(p),
                ..
            }) => DatasetRef::At(format!("s3://{b}/{p}")),
            Some(_) => DatasetRef::Pending,
        };
        out.insert(r.name.clone(), state);
    }
    Ok(out)
}

/// Pure: the locations of the referenced datasets, or why the pods cannot have them yet.
pub fn locations(
    refs: &std::collections::BTreeMap<String, DatasetRef>,
) -> std::result::Result<std::collections::BTreeMap<String, String>, Verdict> {
    let mut out = std::collections::BTreeMap::new();
    for (name, state) in refs {
        match state {
            DatasetRef::Missing => {
                return Err(Verdict::degraded(
                    "DatasetNotFound",
                    format!("the dataset {name:?} does not exist in this namespace"),
                ));
            }
            DatasetRef::Pending => {
                return Err(Verdict::progressing(
                    "WaitingForDataset",
                    format!("waiting for the dataset {name:?} to be available"),
                ));
            }
            DatasetRef::At(url) => {
                out.insert(name.clone(), url.clone());
            }
        }
    }
    Ok(out)
}

/// The bucket of an organization's namespace (its `ludis.dev/bucket` annotation, else the default).
pub async fn namespace_bucket(ctx: &Context, ns: &str) -> Result<String> {
    let namespace = Api::<Namespace>::all(ctx.client.clone())
        .get_metadata(ns)
        .await
        .map_err(error::observe("namespace"))?;
    Ok(namespace
        .annotations()
        .get(BUCKET_ANNOTATION)
        .cloned()
        .unwrap_or_else(|| ctx.config.default_bucket.clone()))
}

/// Where a dataset's objects live: the namespace's bucket and the dataset's prefix, which starts
/// with its namespace, so a resource in one organization's namespace never reaches another's
/// objects (whatever id label it carries).
pub fn location(dataset: &Dataset, namespace_bucket: Option<&str>, default_bucket: &str) -> (String, String) {
    let bucket = namespace_bucket.unwrap_or(default_bucket).to_owned();
    let id = dataset
        .labels()
        .get(LABEL_ID)
        .cloned()
        .or_else(|| dataset.uid())
        .unwrap_or_else(|| dataset.name_any());
    let namespace = dataset.namespace().unwrap_or_default();
    (bucket, ludis_storage::dataset_prefix(&namespace, &id))
}

async fn reconcile(dataset: Arc<Dataset>, ctx: Arc<Context>) -> Result<Action> {
    let ns = dataset.namespace().unwrap_or_default();
    let api: Api<Dataset> = Api::namespaced(ctx.client.clone(), &ns);
    let Some(s3) = ctx.s3.clone() else {
        let verdict = Verdict::degraded(
            "StorageNotConfigured",
            "the operator has no object storage configured",
        );
        write_status(&ctx, &dataset, DatasetStatus::default(), &verdict).await?;
        return Ok(Action::await_change());
    };
    let namespace = Api::<Namespace>::all(ctx.client.clone())
        .get_metadata(&ns)
        .await
        .map_err(error::observe("namespace"))?;
    let ns_bucket = namespace.annotations().get(BUCKET_ANNOTATION).cloned();
    let (bucket, prefix) = location(&dataset, ns_bucket.as_deref(), &ctx.config.default_bucket);

    finalizer(&api, FINALIZER, dataset, |event| async {
        match event {
            Finalizer::Apply(dataset) => {
                ludis_storage::ensure_bucket(&s3, &bucket).await.map_err(Error::Storage)?;
                // A folder marker makes the (empty) dataset visible in listings.
                ludis_storage::mark_prefix(&s3, &bucket, &prefix)
                    .await
                    .map_err(Error::Storage)?;
                let (objects, bytes) = ludis_storage::usage(&s3, &bucket, &prefix).await.map_err(Error::Storage)?;
                let status = DatasetStatus {
                    bucket: Some(bucket.clone()),
                    prefix: Some(prefix.clone()),
                    object_count: Some(objects),
                    bytes: Some(bytes),
                    ..Default::default()
                };
                let verdict = Verdict::ready("Available", format!("s3://{bucket}/{prefix}"));
                write_status(&ctx, &dataset, status, &verdict).await?;
                Ok(Action::requeue(REFRESH))
            }
            Finalizer::Cleanup(dataset) => {
                if dataset.spec.deletion_policy == DeletionPolicy::Delete {
                    let n = ludis_storage::delete_prefix(&s3, &bucket, &prefix).await.map_err(Error::Storage)?;
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
    if dataset.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, dataset, &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ludis_crds::DatasetSpec;

    use super::*;

    #[test]
    fn missing_datasets_degrade_and_pending_ones_wait() {
        use std::collections::BTreeMap;
        let at = |u: &str| DatasetRef::At(u.into());
        let ok = BTreeMap::from([("a".to_owned(), at("s3://b/datasets/1/"))]);
        assert_eq!(locations(&ok).unwrap()["a"], "s3://b/datasets/1/");
        let missing = BTreeMap::from([
            ("a".to_owned(), at("x")),
            ("gone".to_owned(), DatasetRef::Missing),
        ]);
        let v = locations(&missing).unwrap_err();
        assert!(v.degraded && v.reason == "DatasetNotFound" && v.message.contains("gone"));
        let pending = BTreeMap::from([("p".to_owned(), DatasetRef::Pending)]);
        let v = locations(&pending).unwrap_err();
        assert!(v.progressing && !v.degraded && v.reason == "WaitingForDataset");
    }

    fn dataset(id: Option<&str>) -> Dataset {
        let spec: DatasetSpec = serde_json::from_value(serde_json::json!({"displayName": "Sales"})).unwrap();
        let mut d = Dataset::new("sales", spec);
        d.metadata.namespace = Some("ludis-acme".into());
        d.metadata.uid = Some("uid-9".into());
        if let Some(id) = id {
            d.metadata.labels = Some([(LABEL_ID.to_owned(), id.to_owned())].into());
        }
        d
    }

    #[test]
    fn a_dataset_lives_under_its_namespace_and_id_in_the_namespace_bucket() {
        assert_eq!(
            location(&dataset(Some("abc")), Some("acme"), "ludis"),
            ("acme".into(), "datasets/ludis-acme/abc/".into())
        );
        assert_eq!(
            location(&dataset(None), None, "ludis"),
            ("ludis".into(), "datasets/ludis-acme/uid-9/".into())
        );
        // Another organization's resource naming the same id gets a prefix of its own.
        let mut elsewhere = dataset(Some("abc"));
        elsewhere.metadata.namespace = Some("ludis-other".into());
        assert_ne!(
            location(&elsewhere, Some("acme"), "ludis").1,
            location(&dataset(Some("abc")), Some("acme"), "ludis").1
        );
    }
}
