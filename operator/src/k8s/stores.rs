//! In-memory caches (kube-runtime reflector stores) of the children the operator owns and of the
//! objects its controllers read (projects, datasets), so a reconcile observes without calling
//! the API server.
//!
//! Each child kind is watched once: the same watch feeds its store and triggers the owner's
//! reconcile (`Controller::owns_stream`). Absence from a store is never taken as proof that an
//! object does not exist where that matters (a store may lag a fresh write); presence is.

use std::{
    fmt::Debug,
    sync::{Arc, OnceLock},
};

use futures::Stream;
use k8s_openapi::api::{
    apps::v1::Deployment,
    batch::v1::{CronJob, Job},
    core::v1::{PersistentVolumeClaim, Pod, Service},
};
use kube::{
    Api, Resource, ResourceExt as _,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{
        PredicateConfig, WatchStreamExt as _, predicates,
        reflector::{self, Store},
        watcher,
    },
};
use ludis_crds::{Dataset, Project};
use serde::de::DeserializeOwned;

use crate::error::{CACHE_READY_TIMEOUT, CacheError};

/// The caches of what the controllers observe, each filled by the controller that owns it.
#[derive(Default)]
pub struct Caches {
    /// Projects (the project controller's own store), read by insights for their source.
    pub projects: Cache<DeserializeGuard<Project>>,
    pub preview_pods: Cache<Pod>,
    pub workspaces: Cache<PartialObjectMeta<PersistentVolumeClaim>>,
    pub project_services: Cache<PartialObjectMeta<Service>>,
    pub deployments: Cache<Deployment>,
    pub insight_services: Cache<PartialObjectMeta<Service>>,
    pub report_jobs: Cache<Job>,
    pub cron_jobs: Cache<PartialObjectMeta<CronJob>>,
    /// Datasets (the dataset controller's own store), read for projects' and insights' references.
    pub datasets: Cache<DeserializeGuard<Dataset>>,
}

/// A store filled by a stream that its controller polls; set once, when the controller is built.
pub struct Cache<K: Resource<DynamicType = ()> + 'static>(OnceLock<Store<K>>);

impl<K: Resource<DynamicType = ()> + Clone + 'static> Default for Cache<K> {
    fn default() -> Self {
        Self(OnceLock::new())
    }
}

impl<K: Resource<DynamicType = ()> + Clone + 'static> Cache<K> {
    /// Watches `api` (objects matching `cfg`), keeping the store of this cache; the returned
    /// stream must be polled (by the controller it triggers) for the store to fill. With an
    /// `Api<PartialObjectMeta<_>>`, only metadata is watched and kept.
    pub fn full(
        &self,
        api: Api<K>,
        cfg: watcher::Config,
    ) -> impl Stream<Item = Result<K, watcher::Error>> + Send + 'static
    where
        K: DeserializeOwned + Debug + Send + Sync,
    {
        self.trimmed(api, cfg, |_| {})
    }

    /// Like [`Cache::full`], dropping with `trim` the parts of each object that are never read
    /// (its spec, typically: children are compared by their applied-hash annotation).
    pub fn trimmed(
        &self,
        api: Api<K>,
        cfg: watcher::Config,
        trim: fn(&mut K),
    ) -> impl Stream<Item = Result<K, watcher::Error>> + Send + 'static
    where
        K: DeserializeOwned + Debug + Send + Sync,
    {
        let (reader, writer) = reflector::store();
        let _ = self.0.set(reader);
        watcher(api, cfg)
            .default_backoff()
            .modify(move |o| {
                // managedFields are most of an object's size and never read here.
                o.meta_mut().managed_fields = None;
                trim(o);
            })
            .reflect(writer)
            .applied_objects()
    }

    /// The store, once its first listing is complete.
    pub async fn ready(&self, what: &'static str) -> Result<&Store<K>, CacheError> {
        let store = self.0.get().ok_or(CacheError::NotStarted(what))?;
        tokio::time::timeout(CACHE_READY_TIMEOUT, store.wait_until_ready())
            .await
            .map_err(|_| CacheError::NotReady(what))?
            .map_err(|_| CacheError::NotReady(what))?;
        Ok(store)
    }

    /// The store if it was started (it may still be filling).
    pub fn get(&self) -> Option<&Store<K>> {
        self.0.get()
    }

    /// Uses an existing store (for example a controller's own store of its primaries).
    pub fn set(&self, store: Store<K>) {
        let _ = self.0.set(store);
    }
}

/// The watch of a controller's own kind: a store without managedFields, and a trigger stream
/// that passes an object only when it is new or its generation (its spec) changed — the
/// operator's own status writes do not reconcile the object again.
pub fn primaries<K>(
    api: Api<K>,
) -> (
    Store<K>,
    impl Stream<Item = Result<K, watcher::Error>> + Send + 'static,
)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    let (reader, writer) = reflector::store();
    let stream = watcher(api, watcher::Config::default().any_semantic())
        .default_backoff()
        .modify(|o| o.meta_mut().managed_fields = None)
        .reflect(writer)
        .applied_objects()
        .predicate_filter(predicates::generation, PredicateConfig::default());
    (reader, stream)
}

/// The children in `store` controlled by the object with `owner_uid`, in namespace `ns`.
pub fn owned_by<K: Resource<DynamicType = ()> + Clone>(
    store: &Store<K>,
    ns: &str,
    owner_uid: &str,
) -> Vec<Arc<K>> {
    store.state_filter(|o| {
        o.meta().namespace.as_deref() == Some(ns)
            && o.owner_references()
                .iter()
                .any(|r| r.controller == Some(true) && r.uid == owner_uid)
    })
}

/// The metadata of `objects` (children kept as metadata only, or compared by metadata).
pub fn metadata<K: Resource>(objects: &[Arc<K>]) -> Vec<kube::api::ObjectMeta> {
    objects.iter().map(|o| o.meta().clone()).collect()
}
