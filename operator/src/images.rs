//! The administrator's image list: the only images Ludis pods may run. It is the ConfigMap
//! `ludis-images` of the system namespace (`<image id>: <image reference>`), seeded from
//! `seeds/ludis-images.json` (the one list: the chart and `dev/images.sh` read it too), and kept
//! in memory by a watch.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use ludis_crds::common::Language;
use serde::Deserialize;

use crate::list_watch::{AdminList, ListWatch};

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

impl AdminList for ImageCatalog {
    const WHAT: &'static str = "image list";

    /// The ConfigMap's `<id>: <reference>` pairs; none without the ConfigMap.
    fn from_config_map(cm: Option<ConfigMap>) -> Self {
        Self(cm.and_then(|cm| cm.data).unwrap_or_default())
    }
}

/// The image list as last seen by a watch.
pub type ImageWatch = ListWatch<ImageCatalog>;

#[cfg(test)]
mod tests {
    use super::*;

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
