//! The administrator's image list: the only images a project's preview may run (the operator
//! refuses any other). The list is `seeds/images.yaml` (the chart makes the ConfigMap
//! `ludis-images` from it); each entry has an id, an image reference, a language and a purpose.
//! Projects name an image by id.

use std::sync::LazyLock;

use serde::Deserialize;

use crate::domain::Language;

/// One image of the list.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Image {
    /// The id a Project names.
    pub name: String,
    /// The image reference pods run (never sent to clients).
    pub image: String,
    pub language: Language,
    pub purpose: String,
}

#[derive(Deserialize)]
struct Seed {
    images: Vec<Image>,
}

/// The seeded list (`seeds/images.yaml`, embedded).
pub fn list() -> &'static [Image] {
    static LIST: LazyLock<Vec<Image>> = LazyLock::new(|| {
        serde_saphyr::from_str::<Seed>(include_str!("../../../seeds/images.yaml"))
            .expect("seeds/images.yaml is a valid image list")
            .images
    });
    &LIST
}

/// The images a project may choose: those for projects (not the insights' `default-*`).
pub fn for_projects() -> impl Iterator<Item = &'static Image> {
    list().iter().filter(|i| !i.name.starts_with("default-"))
}

/// The image of a project that names none: the first project image of its language.
pub fn default_for(language: Language) -> &'static str {
    for_projects()
        .find(|i| i.language == language)
        .map_or("", |i| i.name.as_str())
}

/// The image `id` when a project may choose it.
pub fn find(id: &str) -> Option<&'static Image> {
    for_projects().find(|i| i.name == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeded_list_has_an_image_per_language() {
        assert_eq!(default_for(Language::Python), "python-3.12");
        assert_eq!(default_for(Language::R), "r-4.4");
        assert!(
            find("default-python").is_none(),
            "the insights' defaults are not offered"
        );
        assert_eq!(find("r-4.4").map(|i| i.language), Some(Language::R));
        assert!(find("../etc").is_none());
    }
}
