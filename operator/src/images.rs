//! The administrator's image list: the only images Ludis pods may run. It is the ConfigMap
//! `ludis-images` of the system namespace (`<image id>: <image reference>`), seeded from
//! `seeds/ludis-images.json` (the one list: the chart and `dev/images.sh` read it too), and kept
//! in memory by a watch.

use std::{collections::BTreeMap, sync::Arc};

use futures::{Stream, StreamExt as _};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api,
    runtime::{WatchStreamExt as _, watcher},
};
use ludis_crds::common::Language;
use serde::Deserialize;
use tokio::sync::watch;

/// Image ids the administrator allows, and the image reference of each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageCatalog(pub BTreeMap<String, String>);

impl ImageCatalog {
    /// The image reference of an allowed image id.
    pub fn resolve(&self, id: &str) -> Option<&str> {
        self.0.get(id).map(String::as_str)
    }

    /// The list of the seeds file (`seeds/ludis-images.json`), each image at the reference
    /// `reference` gives its name (a registry's, or the one the local platform built).
    pub fn from_seed(json: &str, reference: impl Fn(&str) -> String) -> Result<Self, serde_json::Error> {
        let seed: Seed = serde_json::from_str(json)?;
        Ok(Self(
            seed.images
                .into_iter()
                .map(|i| (i.id, reference(&i.image)))
                .collect(),
        ))
    }
}

/// The image id of an insight that names none: `default-<language>`.
pub fn default_image(language: Language) -> &'static str {
    match language {
        Language::Python => "default-python",
        Language::R => "default-r",
    }
}

/// `seeds/ludis-images.json`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    /// What the file is.
    pub description: String,
    /// Where the local platform's images are tagged (`<registry>/<image>:<recipe hash>`).
    pub registry: String,
    pub images: Vec<SeedImage>,
    /// The images the operator starts itself (git checkouts, workflow ticks, uploads, the pods'
    /// sandbox).
    pub operator: OperatorImages,
}

/// The images the operator starts itself, by image name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorImages {
    pub git: String,
    pub tick: String,
    pub upload: String,
    pub pause: String,
}

/// One image of the seeded list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedImage {
    /// The id a Project, Insight or workflow task names (a ConfigMap key).
    pub id: String,
    /// The image pods run: the name of its recipe (`dev/images/<image>/`) and of its repository
    /// at a registry.
    pub image: String,
    /// What the image runs.
    pub language: Language,
    /// What the image is for.
    pub purpose: String,
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

/// The list a ConfigMap holds.
pub fn catalog(cm: ConfigMap) -> ImageCatalog {
    ImageCatalog(cm.data.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

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

    const SEED: &str = include_str!("../../seeds/ludis-images.json");

    #[test]
    fn the_seeded_list_has_a_default_image_for_every_language() {
        let seed: Seed = serde_json::from_str(SEED).expect("seeds/ludis-images.json parses");
        let catalog = ImageCatalog::from_seed(SEED, |image| format!("registry.test/{image}:1")).unwrap();
        assert_eq!(catalog.resolve("default-python"), Some("registry.test/python:1"));
        assert_eq!(catalog.0.len(), seed.images.len(), "image names are unique");
        for language in [Language::Python, Language::R] {
            let default = seed
                .images
                .iter()
                .find(|i| i.id == default_image(language))
                .unwrap_or_else(|| panic!("no {} in seeds/ludis-images.json", default_image(language)));
            assert_eq!(default.language, language);
        }
        for image in &seed.images {
            // A ConfigMap key, and a reference a container runtime accepts.
            assert!(
                !image.id.is_empty()
                    && image.id.len() <= 253
                    && image
                        .id
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)),
                "{}",
                image.id
            );
            // A repository name a container runtime accepts, built from a recipe of dev/images/.
            assert!(
                !image.image.is_empty()
                    && image
                        .image
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c)),
                "{}",
                image.image
            );
            assert!(
                !image.purpose.trim().is_empty(),
                "{}: say what it is for",
                image.id
            );
        }
    }
}
