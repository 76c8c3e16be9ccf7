//! Test fixtures: projects from JSON specs, and what a reconcile observed.

use std::collections::BTreeMap;

use ludis_crds::{Project, ProjectSpec};

use super::observe::Observed;
use crate::images::ImageCatalog;

/// A project `demo` in `ludis-acme` with `spec`.
pub fn project(spec: serde_json::Value) -> Project {
    let mut p = Project::new("demo", serde_json::from_value::<ProjectSpec>(spec).unwrap());
    p.metadata.namespace = Some("ludis-acme".into());
    p.metadata.uid = Some("uid-1".into());
    p.metadata.generation = Some(2);
    p
}

/// An observation with these images (id, reference) and Secrets (name, exists), nothing else.
pub fn observed(images: &[(&str, &str)], secrets: &[(&str, bool)]) -> Observed {
    Observed {
        images: ImageCatalog(
            images
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        ),
        sizes: Default::default(),
        secrets: secrets.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        datasets: BTreeMap::new(),
        preview_pods: Vec::new(),
        workspaces: Vec::new(),
        services: Vec::new(),
    }
}
