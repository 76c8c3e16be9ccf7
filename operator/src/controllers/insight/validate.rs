//! Validate (pure): what should run for an insight, with its image and datasets resolved, or why
//! nothing can.

use std::collections::BTreeMap;

use ludis_crds::{
    Insight,
    insight::InsightType,
    launch,
    project::GitSource,
    sizes::{Size, WorkloadKind},
};

use super::observe::Observed;
use crate::{
    datasets,
    images::default_image,
    verdict::{Reason, Verdict},
};

/// What runs for a valid insight.
#[derive(Debug, PartialEq)]
pub enum Validated {
    /// Nothing runs: an external app or an uploaded report.
    Nothing,
    /// A workload with this resolved image, the locations of its datasets, its entry file and
    /// the repository its revision is checked out from (none: the project has no repository,
    /// its workspace volume is mounted instead).
    Workload {
        image: String,
        /// The hardware size of the app's or report's pod.
        size: Box<Size>,
        datasets: BTreeMap<String, String>,
        entry: String,
        git: Option<GitSource>,
    },
}

/// Pure: what should run, or why nothing can.
pub fn validate(insight: &Insight, observed: &Observed) -> Result<Validated, Verdict> {
    let spec = &insight.spec;
    if spec.type_ == InsightType::UserReport || spec.app_url.is_some() {
        return Ok(Validated::Nothing);
    }
    if observed.project_exists == Some(false) {
        let project = spec
            .source
            .as_ref()
            .map(|s| s.project.as_str())
            .unwrap_or_default();
        return Err(Verdict::degraded(
            Reason::ProjectNotFound,
            format!("the source project {project:?} does not exist"),
        ));
    }
    let entry = spec
        .source
        .as_ref()
        .and_then(|s| s.files.first())
        .cloned()
        .unwrap_or_default();
    if !launch::valid_entry(&entry) {
        return Err(Verdict::degraded(
            Reason::InvalidEntryFile,
            format!("the entry file {entry:?} is not a .py, .R, .Rmd or .ipynb file inside the project"),
        ));
    }
    let id = spec
        .image
        .clone()
        .unwrap_or_else(|| default_image(spec.language).to_owned());
    let size = observed
        .sizes
        .resolve_or_refuse(spec.size.as_deref(), WorkloadKind::Insight)?;
    match observed.images.resolve(&id) {
        Some(image) => Ok(Validated::Workload {
            image: image.to_owned(),
            size: Box::new(size),
            datasets: datasets::locations(&observed.datasets)?,
            entry,
            git: observed.git.clone(),
        }),
        None => Err(Verdict::degraded(
            Reason::ImageNotAllowed,
            format!("image {id:?} is not in the administrator's image list"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{super::fixtures::*, *};

    #[test]
    fn a_missing_project_or_image_is_explained() {
        let i = app(json!({}));
        assert_eq!(
            validate(&i, &observed(Some(false))).unwrap_err().reason(),
            "ProjectNotFound"
        );
        let i = app(json!({"image": "nope"}));
        assert_eq!(
            validate(&i, &observed(Some(true))).unwrap_err().reason(),
            "ImageNotAllowed"
        );
        let i = app(json!({"size": "huge"}));
        let refused = validate(&i, &observed(Some(true))).unwrap_err();
        assert_eq!(refused.reason(), "SizeNotAllowed");
        let Ok(Validated::Workload { size, .. }) = validate(&app(json!({})), &observed(Some(true))) else {
            panic!("an app with the default image and size runs")
        };
        assert_eq!(size.id, "small");
        for file in ["../x.py", "/etc/passwd.py", "run.sh"] {
            let i = app(json!({"source": {"project": "demo", "files": [file]}}));
            assert_eq!(
                validate(&i, &observed(Some(true))).unwrap_err().reason(),
                "InvalidEntryFile",
                "{file}"
            );
        }
    }
}
