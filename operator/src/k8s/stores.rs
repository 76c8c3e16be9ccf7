//! In-memory caches (kube-runtime reflector stores) of the children the operator owns and of the
//! objects its controllers read (projects, datasets), so a reconcile observes without calling
//! the API server.
//!
//! Each child kind is watched once: the same watch feeds its store and triggers the owner's
//! reconcile (`Controller::owns_stream`). Absence from a store is never taken as proof that an
//! object does not exist where that matters (a store may lag a fresh write); presence is.

use std::{
    collections::HashMap,
    fmt::Debug,
    sync::{Arc, Mutex, OnceLock},
};

use futures::Stream;
use k8s_openapi::api::{
    apps::v1::Deployment,
    batch::v1::{CronJob, Job},
    core::v1::{ConfigMap, PersistentVolumeClaim, Pod, Service},
};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    core::{DeserializeGuard, PartialObjectMeta, object::HasStatus},
    runtime::{
        Predicate as _, PredicateConfig, WatchStreamExt as _, predicates,
        reflector::{self, ObjectRef, Store},
        watcher,
    },
};
use ludis_crds::{Dataset, Project, Workflow, WorkflowRun};
use serde::de::DeserializeOwned;

use crate::error::{CACHE_READY_TIMEOUT, CacheError};

/// The caches of what the controllers observe, each filled by the controller that owns it. They
/// live as long as one term of leadership: a regained Lease starts new watches and new caches.
#[derive(Default)]
pub struct Caches {
    /// Projects (the project controller's own store), read by insights for their source.
    pub projects: Cache<DeserializeGuard<Project>>,
    pub preview_pods: Cache<Pod>,
    pub workspaces: Cache<PartialObjectMeta<PersistentVolumeClaim>>,
    pub project_services: Cache<PartialObjectMeta<Service>>,
    pub deployments: Cache<Deployment>,
    /// The pods of applications (owned by their ReplicaSets; found by the insight's label),
    /// without their spec: why an application does not serve.
    pub app_pods: Cache<Pod>,
    pub insight_services: Cache<PartialObjectMeta<Service>>,
    pub report_jobs: Cache<Job>,
    pub cron_jobs: Cache<PartialObjectMeta<CronJob>>,
    /// Datasets (the dataset controller's own store), read for projects' and insights' references.
    pub datasets: Cache<DeserializeGuard<Dataset>>,
    /// Workflows (the workflow controller's own store), read by their runs.
    pub workflows: Cache<DeserializeGuard<Workflow>>,
    /// Runs as the workflow controller sees them: which workflow, phase and times (for the
    /// workflow's latest run); their task lists and requests are dropped.
    pub run_summaries: Cache<WorkflowRun>,
    /// The pods that read DAG files, without their spec.
    pub parse_pods: Cache<Pod>,
    /// The ConfigMaps of the `ludis` Python package that DAG-file workflows' pods mount.
    pub packages: Cache<PartialObjectMeta<ConfigMap>>,
    /// The Jobs of workflows' CronJobs (ticks and manual runs), metadata only.
    pub tick_jobs: Cache<PartialObjectMeta<Job>>,
    /// Task pods of workflow runs, without their spec.
    pub task_pods: Cache<Pod>,
    /// The statuses the workflow controller wrote, until its store has them.
    pub workflow_statuses: Written<Workflow>,
    /// The statuses the run controller wrote, until its store has them.
    pub run_statuses: Written<WorkflowRun>,
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

/// `name` in `ns` from `cache` when the cache holds it, else from the API server: a cache may lag
/// an object created a moment ago, so only a hit is trusted.
pub async fn cached_or_get<K>(
    cache: &Cache<DeserializeGuard<K>>,
    client: &Client,
    ns: &str,
    name: &str,
) -> kube::Result<Option<K>>
where
    K: Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
        + Clone
        + DeserializeOwned
        + Debug
        + 'static,
{
    let cached = cache
        .get()
        .and_then(|s| s.get(&ObjectRef::new(name).within(ns)))
        .and_then(|g| g.0.as_ref().ok().cloned());
    match cached {
        Some(obj) => Ok(Some(obj)),
        None => Api::<K>::namespaced(client.clone(), ns).get_opt(name).await,
    }
}

/// The statuses a controller wrote that its store (fed by a watch) may not show yet. A controller
/// triggered by a child's event right after its own status write would otherwise read the
/// previous status from its store and act on it again — apply a request twice, read a DAG file
/// again. An entry is dropped once the store has caught up: it shows the written status, or the
/// written resourceVersion or a later one (someone else may write the status after us; the
/// API server's resourceVersions are etcd revisions, which only grow).
pub struct Written<K: HasStatus>(Mutex<HashMap<String, (String, K::Status)>>);

impl<K: HasStatus> Default for Written<K> {
    fn default() -> Self {
        Self(Mutex::default())
    }
}

impl<K> Written<K>
where
    K: HasStatus + Resource + Clone,
    K::Status: Clone + PartialEq,
{
    /// `obj` with the last status written for it when its store has not caught up yet.
    pub fn current(&self, obj: Arc<K>) -> Arc<K> {
        let Some(uid) = obj.meta().uid.clone() else {
            return obj;
        };
        let mut written = self.0.lock().expect("not poisoned");
        let Some((version, status)) = written.get(&uid) else {
            return obj;
        };
        let seen = obj.meta().resource_version.as_deref().unwrap_or_default();
        if obj.status() == Some(status) || !older(seen, version) {
            written.remove(&uid);
            return obj;
        }
        let mut fresh = (*obj).clone();
        *fresh.status_mut() = Some(status.clone());
        Arc::new(fresh)
    }

    /// Records `written`, an object as its status write returned it.
    pub fn wrote(&self, written: &K) {
        let meta = written.meta();
        if let (Some(uid), Some(version), Some(status)) =
            (meta.uid.clone(), meta.resource_version.clone(), written.status())
        {
            self.0
                .lock()
                .expect("not poisoned")
                .insert(uid, (version, status.clone()));
        }
    }
}

/// Pure: whether resourceVersion `seen` predates `written` (when either is not a number, they
/// are only known to differ: the write is taken as not seen yet).
fn older(seen: &str, written: &str) -> bool {
    match (seen.parse::<u64>(), written.parse::<u64>()) {
        (Ok(seen), Ok(written)) => seen < written,
        _ => seen != written,
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
        // Annotations too: an application's `ludis.dev/idle-since` scales it to zero and back.
        .predicate_filter(
            predicates::generation.combine(predicates::annotations),
            PredicateConfig::default(),
        );
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

#[cfg(test)]
mod tests {
    use ludis_crds::{WorkflowRunStatus, workflow::RunPhase};
    use serde_json::json;

    use super::*;

    fn run(version: &str, phase: Option<RunPhase>) -> WorkflowRun {
        let mut run: WorkflowRun = serde_json::from_value(json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "WorkflowRun",
            "metadata": {"name": "r1", "namespace": "ns", "uid": "u1", "resourceVersion": version},
            "spec": {"workflow": "w", "trigger": "manual"}
        }))
        .unwrap();
        run.status = phase.map(|p| WorkflowRunStatus {
            phase: Some(p),
            ..Default::default()
        });
        run
    }

    fn phase(run: &WorkflowRun) -> Option<RunPhase> {
        run.status.as_ref().and_then(|s| s.phase)
    }

    #[test]
    fn a_store_behind_the_last_write_shows_the_written_status_until_it_catches_up() {
        let written = Written::<WorkflowRun>::default();
        // Nothing written: the store's object as it is.
        assert_eq!(phase(&written.current(Arc::new(run("7", None)))), None);
        written.wrote(&run("10", Some(RunPhase::Running)));
        // The store still has version 9 (no status): the written status is the current one.
        assert_eq!(
            phase(&written.current(Arc::new(run("9", None)))),
            Some(RunPhase::Running)
        );
        // Caught up: version 10 itself, and the entry is dropped.
        assert_eq!(
            phase(&written.current(Arc::new(run("10", Some(RunPhase::Running))))),
            Some(RunPhase::Running)
        );
        assert!(written.0.lock().unwrap().is_empty());
    }

    #[test]
    fn a_later_write_by_someone_else_wins_over_the_remembered_one() {
        let written = Written::<WorkflowRun>::default();
        written.wrote(&run("10", Some(RunPhase::Running)));
        let later = written.current(Arc::new(run("12", Some(RunPhase::Failed))));
        assert_eq!(phase(&later), Some(RunPhase::Failed));
        assert!(written.0.lock().unwrap().is_empty());
    }

    #[test]
    fn resource_versions_compare_as_numbers_when_they_are() {
        assert!(older("9", "10"));
        assert!(!older("10", "10"));
        assert!(!older("11", "10"));
        assert!(older("a", "b"));
        assert!(!older("a", "a"));
    }
}
