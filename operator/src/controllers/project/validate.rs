//! Validate (pure): is the spec something we can run, with every reference resolved?

use std::collections::BTreeMap;

use ludis_crds::{
    Project, launch,
    sizes::{Size, WorkloadKind},
};

use super::observe::Observed;
use crate::{
    datasets,
    verdict::{Reason, Verdict},
};

/// A spec that passed validation, with its references resolved.
#[derive(Debug, PartialEq)]
pub struct Validated {
    pub image: String,
    /// The hardware size of the preview pod.
    pub size: Size,
    /// Locations of the referenced datasets, by name.
    pub datasets: BTreeMap<String, String>,
    /// The entry file the preview runs, when the user chose one.
    pub entry: Option<String>,
}

pub fn validate(project: &Project, observed: &Observed) -> Result<Validated, Verdict> {
    let Some(image) = observed.images.resolve(&project.spec.image) else {
        return Err(Verdict::degraded(
            Reason::ImageNotAllowed,
            format!(
                "image {:?} is not in the administrator's image list",
                project.spec.image
            ),
        ));
    };
    let size = observed
        .sizes
        .resolve_or_refuse(project.spec.size.as_deref(), WorkloadKind::Project)?;
    // Secrets reach only the preview pod (its environment, the checkout's credentials), and the
    // API writes a hosted project's git Secret at its first Run: a stopped project needs none.
    let needs_secrets = project.spec.preview.running;
    if let Some((name, _)) = observed
        .secrets
        .iter()
        .find(|(_, exists)| needs_secrets && !**exists)
    {
        return Err(Verdict::degraded(
            Reason::SecretNotFound,
            format!("Secret {name:?} does not exist in this namespace"),
        ));
    }
    let entry = project.spec.preview.file.clone();
    if let Some(file) = &entry
        && !launch::valid_entry(file)
    {
        return Err(Verdict::degraded(
            Reason::InvalidEntryFile,
            format!("the entry file {file:?} is not a .py, .R, .Rmd or .ipynb file inside the project"),
        ));
    }
    let datasets = datasets::locations(&observed.datasets)?;
    Ok(Validated {
        image: image.to_owned(),
        size,
        datasets,
        entry,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::{super::fixtures::*, *};
    use crate::datasets::DatasetRef;

    #[test]
    fn a_size_outside_the_list_is_refused_and_an_unnamed_one_is_the_default() {
        let o = observed(&[("py", "python:3.12")], &[]);
        let p = project(json!({"displayName": "Demo", "image": "py", "size": "huge"}));
        let err = validate(&p, &o).unwrap_err();
        assert_eq!(err.reason(), "SizeNotAllowed");
        let p = project(json!({"displayName": "Demo", "image": "py"}));
        assert_eq!(validate(&p, &o).unwrap().size.id, "medium");
        let p = project(json!({"displayName": "Demo", "image": "py", "size": "large"}));
        assert_eq!(validate(&p, &o).unwrap().size.id, "large");
    }

    #[test]
    fn an_image_outside_the_list_is_refused() {
        let p = project(json!({"displayName": "Demo", "image": "hacker/miner:latest"}));
        let err = validate(&p, &observed(&[("python-3.12", "python:3.12")], &[])).unwrap_err();
        assert_eq!(err.reason(), "ImageNotAllowed");
        assert!(err.is_degraded());
    }

    #[test]
    fn a_missing_secret_is_reported_by_name_when_the_preview_runs() {
        let p = project(
            json!({"displayName": "Demo", "image": "py", "envSecret": {"name": "env"},
            "preview": {"running": true}}),
        );
        let err = validate(&p, &observed(&[("py", "python:3.12")], &[("env", false)])).unwrap_err();
        assert_eq!(err.reason(), "SecretNotFound");
        assert!(err.message().contains("\"env\""));
    }

    #[test]
    fn a_stopped_project_needs_no_secret() {
        // A hosted project's git Secret is written at its first Run: until then it is not Failed.
        let p = project(json!({"displayName": "Demo", "image": "py", "envSecret": {"name": "env"}}));
        assert!(validate(&p, &observed(&[("py", "python:3.12")], &[("env", false)])).is_ok());
    }

    #[test]
    fn a_missing_dataset_is_reported() {
        let p = project(
            json!({"displayName": "D", "image": "py", "envSecret": {"name": "env"},
            "datasets": [{"name": "sales"}], "preview": {"running": true}}),
        );
        let missing = observed(&[("py", "python:3.12")], &[]);
        let missing = Observed {
            datasets: BTreeMap::from([("sales".into(), DatasetRef::Missing)]),
            ..missing
        };
        assert_eq!(validate(&p, &missing).unwrap_err().reason(), "DatasetNotFound");
    }
}
