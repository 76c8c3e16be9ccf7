//! When the watch delivered the changes a controller has not reconciled yet, per object: the
//! start of each change's queue wait (`ludis_operator_queue_wait_seconds`).
//!
//! A controller's trigger streams pass through [`Arrivals::objects`] (its own kind) and
//! [`Arrivals::owners`] (its children, noted for their owner), which note the moment each event
//! reaches the controller; the reconcile [`Arrivals::take`]s it when it starts. Changes that
//! arrive before the reconcile starts are coalesced into that one reconcile, so the earliest
//! arrival not yet taken is kept: the wait is that of the oldest change the reconcile carries
//! out. A change that arrives while the object's reconcile runs is taken by the next one.

use std::{
    collections::HashMap,
    marker::PhantomData,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{Stream, StreamExt as _};
use kube::Resource;

/// Arrivals older than this are dropped (at most once a minute): an event of a child whose owner
/// is gone never starts a reconcile, and its arrival must not be taken by an object of the same
/// name made much later.
const FORGET_AFTER: Duration = Duration::from_secs(600);
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// The pending arrivals of a controller of kind `K`, by namespace and name.
pub struct Arrivals<K> {
    pending: Mutex<Pending>,
    kind: PhantomData<fn() -> K>,
}

#[derive(Default)]
struct Pending {
    at: HashMap<(String, String), Instant>,
    swept: Option<Instant>,
}

impl<K> Default for Arrivals<K> {
    fn default() -> Self {
        Self {
            pending: Mutex::default(),
            kind: PhantomData,
        }
    }
}

impl<K> Arrivals<K> {
    /// A change of `ns`/`name` arrived `at`; an earlier one not yet taken is kept.
    pub fn arrived(&self, ns: &str, name: &str, at: Instant) {
        let mut pending = self.pending.lock().expect("not poisoned");
        if pending
            .swept
            .is_none_or(|s| at.saturating_duration_since(s) >= SWEEP_EVERY)
        {
            pending
                .at
                .retain(|_, arrived| at.saturating_duration_since(*arrived) < FORGET_AFTER);
            pending.swept = Some(at);
        }
        pending.at.entry((ns.to_owned(), name.to_owned())).or_insert(at);
    }

    /// The arrival of the earliest change of `ns`/`name` not reconciled yet, now taken.
    pub fn take(&self, ns: &str, name: &str) -> Option<Instant> {
        self.pending
            .lock()
            .expect("not poisoned")
            .at
            .remove(&(ns.to_owned(), name.to_owned()))
    }
}

impl<K: Resource<DynamicType = ()> + 'static> Arrivals<K> {
    /// `stream` (the controller's trigger stream of its own kind) unchanged, noting the arrival
    /// of each object it passes.
    pub fn objects<S, T, E>(self: &Arc<Self>, stream: S) -> impl Stream<Item = Result<T, E>> + Send + 'static
    where
        S: Stream<Item = Result<T, E>> + Send + 'static,
        T: Resource,
    {
        let arrivals = self.clone();
        stream.inspect(move |item| {
            if let Ok(obj) = item {
                let meta = obj.meta();
                if let (Some(ns), Some(name)) = (&meta.namespace, &meta.name) {
                    arrivals.arrived(ns, name, Instant::now());
                }
            }
        })
    }

    /// `stream` (a stream of children the controller owns) unchanged, noting for each child the
    /// arrival of a change of its owners of kind `K` — the objects the controller reconciles
    /// for it.
    pub fn owners<S, C, E>(self: &Arc<Self>, stream: S) -> impl Stream<Item = Result<C, E>> + Send + 'static
    where
        S: Stream<Item = Result<C, E>> + Send + 'static,
        C: Resource,
    {
        let arrivals = self.clone();
        stream.inspect(move |item| {
            if let Ok(child) = item {
                let Some(ns) = &child.meta().namespace else { return };
                let now = Instant::now();
                for owner in child.meta().owner_references.iter().flatten() {
                    if owner.kind == K::kind(&()) && owner.api_version == K::api_version(&()) {
                        arrivals.arrived(ns, &owner.name, now);
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::{apps::v1::Deployment, core::v1::ConfigMap};
    use ludis_crds::Insight;
    use serde_json::json;

    use super::*;

    #[test]
    fn coalesced_changes_wait_from_the_earliest_and_are_taken_once() {
        let arrivals = Arrivals::<Insight>::default();
        let t0 = Instant::now();
        arrivals.arrived("ns", "a", t0);
        arrivals.arrived("ns", "a", t0 + Duration::from_millis(40));
        arrivals.arrived("ns", "b", t0 + Duration::from_millis(10));
        assert_eq!(arrivals.take("ns", "a"), Some(t0));
        assert_eq!(
            arrivals.take("ns", "a"),
            None,
            "taken by the reconcile that carried it out"
        );
        // A change arriving after that reconcile started waits from its own arrival.
        arrivals.arrived("ns", "a", t0 + Duration::from_millis(90));
        assert_eq!(arrivals.take("ns", "a"), Some(t0 + Duration::from_millis(90)));
        assert_eq!(arrivals.take("other", "b"), None, "namespaces are kept apart");
        assert_eq!(arrivals.take("ns", "b"), Some(t0 + Duration::from_millis(10)));
    }

    #[test]
    fn arrivals_never_taken_are_forgotten() {
        let arrivals = Arrivals::<Insight>::default();
        let t0 = Instant::now();
        arrivals.arrived("ns", "gone", t0);
        arrivals.arrived("ns", "fresh", t0 + FORGET_AFTER + Duration::from_secs(1));
        assert_eq!(arrivals.take("ns", "gone"), None);
        assert!(arrivals.take("ns", "fresh").is_some());
    }

    fn child(owners: serde_json::Value) -> Deployment {
        serde_json::from_value(json!({
            "metadata": {"name": "d", "namespace": "ns", "ownerReferences": owners}
        }))
        .unwrap()
    }

    #[tokio::test]
    async fn a_childs_event_is_an_arrival_for_its_owner_of_the_controllers_kind() {
        let arrivals = Arc::new(Arrivals::<Insight>::default());
        let owner = |kind: &str, api_version: &str, name: &str| json!({"apiVersion": api_version, "kind": kind, "name": name, "uid": "u", "controller": true});
        let events = futures::stream::iter(vec![
            Ok(child(json!([owner("Insight", "ludis.dev/v1alpha1", "app")]))),
            Ok(child(json!([owner("Project", "ludis.dev/v1alpha1", "proj")]))),
            Ok(child(json!([owner("Insight", "other.dev/v1", "foreign")]))),
            Err("watch error"),
        ]);
        let passed: Vec<_> = arrivals.owners(events).collect().await;
        assert_eq!(passed.len(), 4, "the stream passes unchanged");
        assert!(arrivals.take("ns", "app").is_some());
        assert_eq!(arrivals.take("ns", "proj"), None, "another kind's child");
        assert_eq!(arrivals.take("ns", "foreign"), None, "another group's kind");
    }

    #[tokio::test]
    async fn an_objects_event_is_its_own_arrival() {
        let arrivals = Arc::new(Arrivals::<ConfigMap>::default());
        let cm: ConfigMap =
            serde_json::from_value(json!({"metadata": {"name": "c", "namespace": "ns"}})).unwrap();
        let before = Instant::now();
        let passed: Vec<Result<_, ()>> = arrivals
            .objects(futures::stream::iter(vec![Ok(cm)]))
            .collect()
            .await;
        assert_eq!(passed.len(), 1);
        assert!(arrivals.take("ns", "c").is_some_and(|at| at >= before));
    }
}
