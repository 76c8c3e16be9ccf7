//! The children of one object, written during one of its reconciles: each is server-side applied
//! only when it changed (or created once, for children whose spec cannot change), the children
//! that are no longer wanted are deleted, and every [`RESYNC`] everything is applied
//! unconditionally, undoing hand edits of children (cluster_resources.rs in operator-rs).
//!
//! The children a reconcile compares with come from a cache (or a fresh list) of the owner's
//! children, found again by label and owner reference, never from memory.

use std::{
    collections::HashMap,
    fmt::Debug,
    sync::Mutex,
    time::{Duration, Instant},
};

use k8s_openapi::NamespaceResourceScope;
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{DeleteParams, ObjectMeta, PostParams},
};
use ludis_crds::{ANNOTATION_APPLIED_HASH, FIELD_MANAGER_OPERATOR};
use serde::{Serialize, de::DeserializeOwned};

use super::apply::{apply_if_changed, content_hash};
use crate::error::{self, Result};

/// How often every object is looked at again, and its children applied unconditionally.
pub const RESYNC: Duration = Duration::from_secs(300);

/// When each object's children were last applied unconditionally (by this process).
#[derive(Default)]
pub struct FullApplies(Mutex<HashMap<String, Instant>>);

impl FullApplies {
    /// Whether `key`'s children are due an unconditional apply: never done by this process, or
    /// not within [`RESYNC`]. Between those, unchanged children are skipped.
    pub fn due(&self, key: &str) -> bool {
        self.due_at(key, Instant::now())
    }

    fn due_at(&self, key: &str, now: Instant) -> bool {
        self.0
            .lock()
            .expect("not poisoned")
            .get(key)
            .is_none_or(|at| now.duration_since(*at) >= RESYNC)
    }

    /// Records an unconditional apply of `key`'s children.
    pub fn record(&self, key: &str) {
        let mut map = self.0.lock().expect("not poisoned");
        map.insert(key.to_owned(), Instant::now());
        // Forget objects that are long gone (a live one is re-recorded at least every RESYNC).
        if map.len() > 1024 && map.len().is_power_of_two() {
            map.retain(|_, at| at.elapsed() < 2 * RESYNC);
        }
    }
}

/// Bounds of a namespaced child kind.
pub trait Child:
    Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + Debug + Serialize + DeserializeOwned
{
}
impl<K> Child for K where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned
{
}

/// The children of one owner during one reconcile.
pub struct Children<'a> {
    client: &'a Client,
    full_applies: &'a FullApplies,
    namespace: String,
    /// `<controller>/<namespace>/<name>`, the owner's key in [`FullApplies`].
    key: String,
    /// Apply even unchanged children (a periodic pass).
    force: bool,
}

impl<'a> Children<'a> {
    /// The children of `owner`, reconciled by `controller`.
    pub fn new<O: Resource<DynamicType = ()>>(
        client: &'a Client,
        full_applies: &'a FullApplies,
        controller: &str,
        owner: &O,
    ) -> Self {
        let namespace = owner.namespace().unwrap_or_default();
        let key = format!("{controller}/{namespace}/{}", owner.name_any());
        let force = full_applies.due(&key);
        Self {
            client,
            full_applies,
            namespace,
            key,
            force,
        }
    }

    /// Server-side applies `desired` (a `what`) unless the child of its name in `current` already
    /// carries the hash of `desired` and is not being deleted. Returns whether it applied.
    pub async fn apply<K: Child>(
        &self,
        what: &'static str,
        desired: &K,
        current: &[ObjectMeta],
    ) -> Result<bool> {
        let name = desired.name_any();
        apply_if_changed(
            self.client,
            &self.namespace,
            desired,
            named(current, &name),
            self.force,
        )
        .await
        .map_err(error::apply(what, &name))
    }

    /// Creates `desired` (a `what` whose spec never changes: its name says what it runs) unless a
    /// child of its name is in `current` or on the server. Returns whether it created it.
    pub async fn create<K: Child>(
        &self,
        what: &'static str,
        desired: &K,
        current: &[ObjectMeta],
    ) -> Result<bool> {
        let name = desired.name_any();
        if named(current, &name).is_some() {
            return Ok(false);
        }
        let mut obj = desired.clone();
        let hash = format!("{:016x}", content_hash(desired));
        obj.annotations_mut()
            .insert(ANNOTATION_APPLIED_HASH.to_owned(), hash);
        let params = PostParams {
            field_manager: Some(FIELD_MANAGER_OPERATOR.to_owned()),
            ..Default::default()
        };
        match self.api::<K>().create(&params, &obj).await {
            Ok(_) => Ok(true),
            Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
            Err(source) => Err(error::create(what)(source)),
        }
    }

    /// Deletes the `current` children (`what`, plural) whose names are not in `keep`, unless they
    /// are already being deleted; returns how many.
    pub async fn delete_orphans<K: Child>(
        &self,
        what: &'static str,
        current: &[ObjectMeta],
        keep: &[String],
    ) -> Result<usize> {
        let api = self.api::<K>();
        let mut deleted = 0;
        for child in current.iter().filter(|c| c.deletion_timestamp.is_none()) {
            let name = child.name.clone().unwrap_or_default();
            if keep.contains(&name) {
                continue;
            }
            match api.delete(&name, &DeleteParams::background()).await {
                Ok(_) => deleted += 1,
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(error::orphans(what)(e)),
            }
        }
        Ok(deleted)
    }

    /// Ends the pass once every child was applied: an unconditional pass is recorded, so the next
    /// one is due a [`RESYNC`] later.
    pub fn applied(self) {
        if self.force {
            self.full_applies.record(&self.key);
        }
    }

    fn api<K: Child>(&self) -> Api<K> {
        Api::namespaced(self.client.clone(), &self.namespace)
    }
}

/// The child named `name` among `children` (as found in a cache).
pub fn named<'c>(children: &'c [ObjectMeta], name: &str) -> Option<&'c ObjectMeta> {
    children.iter().find(|m| m.name.as_deref() == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_is_due_a_full_apply_first_and_then_every_resync() {
        let applies = FullApplies::default();
        assert!(applies.due("project/ns/a"));
        applies.record("project/ns/a");
        let at = applies.0.lock().unwrap()["project/ns/a"];
        assert!(!applies.due_at("project/ns/a", at + RESYNC - Duration::from_secs(1)));
        assert!(applies.due_at("project/ns/a", at + RESYNC));
        assert!(applies.due("project/ns/b"));
    }
}
