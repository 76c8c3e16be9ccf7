//! Test fixtures: insights from JSON specs, and what a reconcile observed.

use std::collections::BTreeMap;

use ludis_crds::{Insight, InsightSpec};
use serde_json::json;

use super::{observe::Observed, validate::Validated};
use crate::images::ImageCatalog;

pub fn insight(spec: serde_json::Value) -> Insight {
    let mut i = Insight::new("sales", serde_json::from_value::<InsightSpec>(spec).unwrap());
    i.metadata.namespace = Some("ludis-acme".into());
    i.metadata.uid = Some("uid-1".into());
    i
}

pub fn observed(project_exists: Option<bool>) -> Observed {
    Observed {
        images: ImageCatalog(BTreeMap::from([("default-python".into(), "python:3.12".into())])),
        sizes: Default::default(),
        project_exists,
        git: None,
        datasets: BTreeMap::new(),
        bucket: None,
        deployments: vec![],
        pods: vec![],
        jobs: vec![],
        services: vec![],
    }
}

pub fn app(extra: serde_json::Value) -> Insight {
    let mut spec = json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["app.py"]}});
    spec.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    insight(spec)
}

pub fn workload(image: &str) -> Validated {
    Validated::Workload {
        image: image.into(),
        size: Box::new(small()),
        datasets: BTreeMap::new(),
        entry: "app.py".into(),
        git: None,
    }
}

/// The seeded size of apps and reports.
pub fn small() -> ludis_crds::sizes::Size {
    ludis_crds::sizes::SizeList::seeded()
        .get("small")
        .unwrap()
        .clone()
}
