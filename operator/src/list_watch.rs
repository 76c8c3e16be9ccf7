//! The administrator's lists kept in ConfigMaps of the system namespace (the image list, the
//! size list), each kept in memory by a watch of its one ConfigMap.

use std::sync::Arc;

use futures::{Stream, StreamExt as _};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api,
    runtime::{WatchStreamExt as _, watcher},
};
use tokio::sync::watch;

/// A list read from one ConfigMap.
pub trait AdminList: Clone + PartialEq + Send + Sync + 'static {
    /// What the list is, for logs.
    const WHAT: &'static str;
    /// The list the ConfigMap holds (`None`: the ConfigMap does not exist).
    fn from_config_map(cm: Option<ConfigMap>) -> Self;
}

/// A list as last seen by a watch (None until the first listing).
#[derive(Clone)]
pub struct ListWatch<T> {
    tx: Arc<watch::Sender<Option<T>>>,
}

impl<T> Default for ListWatch<T> {
    fn default() -> Self {
        Self {
            tx: Arc::new(watch::channel(None).0),
        }
    }
}

impl<T: AdminList> ListWatch<T> {
    /// The current list, if the watch has listed it.
    pub fn current(&self) -> Option<T> {
        self.tx.borrow().clone()
    }

    /// The current list: from the watch once it has listed, read from the API server before that.
    pub async fn current_or_read(&self, api: Api<ConfigMap>, name: &str) -> kube::Result<T> {
        if let Some(list) = self.current() {
            return Ok(list);
        }
        Ok(T::from_config_map(api.get_opt(name).await?))
    }

    /// Keeps the list current until the returned future is dropped.
    pub async fn run(self, api: Api<ConfigMap>, name: String) {
        let cfg = watcher::Config::default().fields(&format!("metadata.name={name}"));
        let mut events = watcher(api, cfg).default_backoff().boxed();
        let mut pending = None;
        while let Some(event) = events.next().await {
            let next = match event {
                Ok(watcher::Event::Init) => {
                    pending = None;
                    continue;
                }
                Ok(watcher::Event::InitApply(cm)) => {
                    pending = Some(cm);
                    continue;
                }
                Ok(watcher::Event::InitDone) => T::from_config_map(pending.take()),
                Ok(watcher::Event::Apply(cm)) => T::from_config_map(Some(cm)),
                Ok(watcher::Event::Delete(_)) => T::from_config_map(None),
                Err(e) => {
                    tracing::warn!(error = %e, "watching the {} failed; retrying", T::WHAT);
                    continue;
                }
            };
            self.publish(next);
        }
    }

    fn publish(&self, next: T) {
        self.tx.send_if_modified(|cur| {
            let changed = cur.as_ref() != Some(&next);
            *cur = Some(next);
            changed
        });
    }

    /// Fires whenever the list changes after it was first listed: objects that were refused
    /// something of the list are looked at again.
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

#[cfg(test)]
mod tests {
    use std::{collections::BTreeMap, time::Duration};

    use super::*;
    use crate::images::ImageCatalog;

    #[tokio::test]
    async fn list_changes_fire_after_the_first_listing_only() {
        let w = ListWatch::<ImageCatalog>::default();
        let mut changes = Box::pin(w.changes());
        // The first listing does not fire.
        w.publish(ImageCatalog::default());
        let next = tokio::time::timeout(Duration::from_millis(50), changes.next()).await;
        assert!(next.is_err(), "the first listing fired a change");
        // A later change does.
        w.publish(ImageCatalog(BTreeMap::from([("a".into(), "img:a".into())])));
        let next = tokio::time::timeout(Duration::from_secs(1), changes.next()).await;
        assert_eq!(next.expect("a change fires"), Some(()));
        assert_eq!(w.current().unwrap().resolve("a"), Some("img:a"));
    }
}
