//! In-memory caches (kube-runtime reflector stores) of the children the operator owns and of
//! the administrator's image list, so a reconcile observes without calling the API server.
//!
//! Each child kind is watched once: the same watch feeds its store and triggers the owner's
//! reconcile (`Controller::owns_stream`). Absence from a store is never taken as proof that an
//! object does not exist where that matters (a store may lag a fresh write); presence is.

use std::{
    fmt::Debug,
    sync::{Arc, OnceLock},
    time::Duration,
};

use futures::{Stream, StreamExt as _};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api, Resource, ResourceExt as _,
    runtime::{
        PredicateConfig, WatchStreamExt as _, predicates,
        reflector::{self, Store},
        watcher,
    },
};
use serde::de::DeserializeOwned;
use tokio::sync::watch;

use crate::context::ImageCatalog;

/// How long a reconcile waits for a store's first full listing before it gives up (and retries).
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// A store filled by a stream that its controller polls; set once, when the controller is built.
pub struct Cache<K: Resource<DynamicType = ()> + 'static>(OnceLock<Store<K>>);

impl<K: Resource<DynamicType = ()> + Clone + 'static> Default for Cache<K> {
    fn default() -> Self {
        Self(OnceLock::new())
    }
}

/// Why a cache cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("the {0} cache is not started")]
    NotStarted(&'static str),
    #[error("the {0} cache did not finish its first listing in {READY_TIMEOUT:?}")]
    NotReady(&'static str),
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
        tokio::time::timeout(READY_TIMEOUT, store.wait_until_ready())
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

/// The administrator's image list as last seen by a watch (None until the first listing).
#[derive(Clone)]
pub struct ImageWatch {
    tx: Arc<watch::Sender<Option<ImageCatalog>>>,
}

impl Default for ImageWatch {
    fn default() -> Self {
        Self {
            tx: Arc::new(watch::channel(None).0),
        }
    }
}

impl ImageWatch {
    /// The current list, if the watch has listed it.
    pub fn current(&self) -> Option<ImageCatalog> {
        self.tx.borrow().clone()
    }

    /// Keeps the list current until the returned future is dropped.
    pub async fn run(self, api: Api<ConfigMap>, name: String) {
        let cfg = watcher::Config::default().fields(&format!("metadata.name={name}"));
        let mut events = watcher(api, cfg).default_backoff().boxed();
        let mut pending = ImageCatalog::default();
        while let Some(event) = events.next().await {
            let next = match event {
                Ok(watcher::Event::Init) => {
                    pending = ImageCatalog::default();
                    continue;
                }
                Ok(watcher::Event::InitApply(cm)) => {
                    pending = catalog(cm);
                    continue;
                }
                Ok(watcher::Event::InitDone) => std::mem::take(&mut pending),
                Ok(watcher::Event::Apply(cm)) => catalog(cm),
                Ok(watcher::Event::Delete(_)) => ImageCatalog::default(),
                Err(e) => {
                    tracing::warn!(error = %e, "watching the image list failed; retrying");
                    continue;
                }
            };
            self.tx.send_if_modified(|cur| {
                let changed = cur.as_ref() != Some(&next);
                *cur = Some(next);
                changed
            });
        }
    }

    /// Fires whenever the list changes after it was first listed: objects that were refused an
    /// image are looked at again.
    pub fn changes(&self) -> impl Stream<Item = ()> + Send + 'static {
        let rx = self.tx.subscribe();
        let listed = rx.borrow().is_some();
        futures::stream::unfold((rx, listed), |(mut rx, mut listed)| async move {
            loop {
                rx.changed().await.ok()?;
                let was_listed = listed;
                listed = rx.borrow_and_update().is_some();
                if was_listed {
                    return Some(((), (rx, listed)));
                }
            }
        })
    }
}

fn catalog(cm: ConfigMap) -> ImageCatalog {
    ImageCatalog(cm.data.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[tokio::test]
    async fn image_changes_fire_after_the_first_listing_only() {
        let w = ImageWatch::default();
        let mut changes = Box::pin(w.changes());
        // The first listing does not fire.
        w.tx.send_replace(Some(ImageCatalog::default()));
        let next = tokio::time::timeout(Duration::from_millis(50), changes.next()).await;
        assert!(next.is_err(), "the first listing fired a change");
        // A later change does.
        w.tx.send_replace(Some(ImageCatalog(BTreeMap::from([("a".into(), "img:a".into())]))));
        let next = tokio::time::timeout(Duration::from_secs(1), changes.next()).await;
        assert_eq!(next.expect("a change fires"), Some(()));
        assert_eq!(w.current().unwrap().resolve("a"), Some("img:a"));
    }
}
