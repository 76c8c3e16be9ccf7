//! The administrator's image list: the only images a project's preview may run (the operator
//! refuses any other). It is the ConfigMap `ludis-images` of the system namespace
//! (`<image id>: <image reference>`, made by the chart from `seeds/ludis-images.json`); without a
//! cluster, or before the ConfigMap exists, the seeded list itself. The language and purpose of
//! an id come from the seeded list (an id the administrator added has neither). Projects name
//! an image by id; the insights' `default-<language>` images are not offered.

use std::sync::LazyLock;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{domain::Language, state::AppState};

/// The ConfigMap of the image list, in the system namespace.
pub const CONFIGMAP: &str = "ludis-images";

/// One image of the seeded list.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Seeded {
    /// The id a Project names.
    pub id: String,
    /// The image pods run, by its name (never sent to clients).
    pub image: String,
    pub language: Language,
    pub purpose: String,
}

#[derive(Deserialize)]
struct Seed {
    images: Vec<Seeded>,
}

/// An image a project may choose, as the console shows it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct DockerImage {
    pub id: String,
    pub name: String,
    /// python or r; empty for an image the administrator added.
    pub language: String,
    pub purpose: String,
}

/// The seeded list (`seeds/ludis-images.json`, embedded).
pub fn seeded() -> &'static [Seeded] {
    static LIST: LazyLock<Vec<Seeded>> = LazyLock::new(|| {
        serde_json::from_str::<Seed>(include_str!("../../../seeds/ludis-images.json"))
            .expect("seeds/ludis-images.json is a valid image list")
            .images
    });
    &LIST
}

/// Pure: whether a project may choose id `id` (the insights' defaults are not offered).
fn for_projects(id: &str) -> bool {
    !id.starts_with("default-")
}

/// Pure: the image of an id, with the seeded language and purpose when the id is seeded.
pub fn describe(id: &str) -> DockerImage {
    let seed = seeded().iter().find(|s| s.id == id);
    DockerImage {
        id: id.to_owned(),
        name: id.to_owned(),
        language: seed.map(|s| s.language.to_string()).unwrap_or_default(),
        purpose: seed.map(|s| s.purpose.clone()).unwrap_or_default(),
    }
}

/// The images projects may choose now: the ConfigMap's ids with a cluster (when it exists),
/// else the seeded ones.
pub async fn available(state: &AppState) -> Vec<DockerImage> {
    let ids: Vec<String> = match configured(state).await {
        Some(ids) => ids,
        None => seeded().iter().map(|s| s.id.clone()).collect(),
    };
    ids.iter()
        .filter(|id| for_projects(id))
        .map(|id| describe(id))
        .collect()
}

/// The ids of the ConfigMap, when there is a cluster and the ConfigMap.
async fn configured(state: &AppState) -> Option<Vec<String>> {
    let client = state.kube.clone()?;
    match Api::<ConfigMap>::namespaced(client, &state.settings.system_namespace)
        .get_opt(CONFIGMAP)
        .await
    {
        Ok(Some(cm)) => Some(cm.data.unwrap_or_default().into_keys().collect()),
        Ok(None) => None,
        Err(e) => {
            tracing::warn!(error = %e, "failed to read the image list; using the seeded one");
            None
        }
    }
}

/// The image of a project of `language` that names none: the first of its language.
pub fn default_for(images: &[DockerImage], language: Language) -> Option<&DockerImage> {
    images.iter().find(|i| i.language == language.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeded_list_describes_its_images() {
        let all: Vec<DockerImage> = seeded()
            .iter()
            .filter(|s| for_projects(&s.id))
            .map(|s| describe(&s.id))
            .collect();
        assert_eq!(
            default_for(&all, Language::Python).map(|i| i.id.as_str()),
            Some("python-3.11")
        );
        assert_eq!(
            default_for(&all, Language::R).map(|i| i.id.as_str()),
            Some("r-4.2")
        );
        assert!(!all.iter().any(|i| i.id == "default-python"));
        assert_eq!(describe("custom").language, "");
    }
}
