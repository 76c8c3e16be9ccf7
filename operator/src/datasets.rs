//! Datasets as every controller sees them: where a dataset's objects live, the bucket of an
//! organization's namespace, and the datasets a project, an insight or a workflow references
//! (read from the dataset controller's cache, falling back to the API server).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Namespace;
use kube::{Api, ResourceExt as _};
use ludis_crds::{ANNOTATION_BUCKET, Dataset, DatasetStatus, LABEL_ID, common::LocalRef};

use crate::{
    context::Context,
    error::{self, Result},
    k8s::stores::cached_or_get,
    verdict::{Reason, Verdict},
};

/// A referenced dataset, as pods will see it.
#[derive(Clone, Debug, PartialEq)]
pub enum DatasetRef {
    /// No such dataset in the namespace.
    Missing,
    /// It exists but its storage is not ready yet.
    Pending,
    /// Its location, `s3://<bucket>/<prefix>`.
    At(String),
}

impl DatasetRef {
    /// What a dataset (None: there is none) offers its users. One the dataset controller has not
    /// looked at yet reads a status without a location (the CRD's default) and is pending; one
    /// without any status (a CRD without that default) counts as missing.
    pub fn of(dataset: Option<&Dataset>) -> Self {
        match dataset.and_then(|d| d.status.as_ref()) {
            None => DatasetRef::Missing,
            Some(DatasetStatus {
                bucket: Some(b),
                prefix: Some(p),
                ..
            }) => DatasetRef::At(format!("s3://{b}/{p}")),
            Some(_) => DatasetRef::Pending,
        }
    }
}

/// Looks up the referenced datasets of namespace `ns` by name.
pub async fn resolve(ctx: &Context, ns: &str, refs: &[LocalRef]) -> Result<BTreeMap<String, DatasetRef>> {
    let mut out = BTreeMap::new();
    for r in refs {
        let dataset = get(ctx, ns, &r.name).await?;
        out.insert(r.name.clone(), DatasetRef::of(dataset.as_ref()));
    }
    Ok(out)
}

/// The dataset `name` of namespace `ns`: the dataset controller's cache first; a miss is checked
/// with the API server, as the cache may lag a dataset created a moment ago.
pub async fn get(ctx: &Context, ns: &str, name: &str) -> Result<Option<Dataset>> {
    cached_or_get(&ctx.caches.datasets, &ctx.client, ns, name)
        .await
        .map_err(error::observe("dataset"))
}

/// Pure: the locations of the referenced datasets, or why the pods cannot have them yet.
pub fn locations(refs: &BTreeMap<String, DatasetRef>) -> Result<BTreeMap<String, String>, Verdict> {
    let mut out = BTreeMap::new();
    for (name, state) in refs {
        match state {
            DatasetRef::Missing => {
                return Err(Verdict::degraded(
                    Reason::DatasetNotFound,
                    format!("the dataset {name:?} does not exist in this namespace"),
                ));
            }
            DatasetRef::Pending => {
                return Err(Verdict::progressing(
                    Reason::WaitingForDataset,
                    format!("waiting for the dataset {name:?} to be available"),
                ));
            }
            DatasetRef::At(url) => {
                out.insert(name.clone(), url.clone());
            }
        }
    }
    Ok(out)
}

/// Pure: why no S3 server would accept `name` as a bucket, if none would (the naming rules
/// every S3 implementation shares: 3 to 63 lowercase letters, digits, dots and hyphens, a letter
/// or digit at each end, no two dots in a row, not an IP address).
pub fn bucket_name_problem(name: &str) -> Option<&'static str> {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    if !(3..=63).contains(&name.len()) {
        Some("it must be 3 to 63 characters long")
    } else if !name.chars().all(|c| alnum(c) || c == '.' || c == '-') {
        Some("it may hold only lowercase letters, digits, dots and hyphens")
    } else if !name.starts_with(alnum) || !name.ends_with(alnum) {
        Some("it must begin and end with a letter or a digit")
    } else if name.contains("..") {
        Some("it must not have two dots in a row")
    } else if name.parse::<std::net::Ipv4Addr>().is_ok() {
        Some("it must not be an IP address")
    } else {
        None
    }
}

/// The bucket annotation of an organization's namespace (None: the namespace names none).
pub async fn namespace_bucket(ctx: &Context, ns: &str) -> Result<Option<String>> {
    let namespace = Api::<Namespace>::all(ctx.client.clone())
        .get_metadata(ns)
        .await
        .map_err(error::observe("namespace"))?;
    Ok(namespace.annotations().get(ANNOTATION_BUCKET).cloned())
}

/// The bucket of an organization's namespace: its annotation, else the default bucket.
pub async fn bucket_of(ctx: &Context, ns: &str) -> Result<String> {
    Ok(namespace_bucket(ctx, ns)
        .await?
        .unwrap_or_else(|| ctx.config.default_bucket.clone()))
}

/// Where a dataset's objects live: the namespace's bucket and the dataset's prefix, which starts
/// with its namespace, so a resource in one organization's namespace never reaches another's
/// objects (whatever id label it carries).
pub fn location(dataset: &Dataset, namespace_bucket: Option<&str>, default_bucket: &str) -> (String, String) {
    let bucket = namespace_bucket.unwrap_or(default_bucket).to_owned();
    let id = dataset
        .labels()
        .get(LABEL_ID)
        .cloned()
        .or_else(|| dataset.uid())
        .unwrap_or_else(|| dataset.name_any());
    let namespace = dataset.namespace().unwrap_or_default();
    (bucket, ludis_storage::dataset_prefix(&namespace, &id))
}

#[cfg(test)]
mod tests {
    use ludis_crds::DatasetSpec;

    use super::*;

    #[test]
    fn missing_datasets_degrade_and_pending_ones_wait() {
        let at = |u: &str| DatasetRef::At(u.into());
        let ok = BTreeMap::from([("a".to_owned(), at("s3://b/datasets/1/"))]);
        assert_eq!(locations(&ok).unwrap()["a"], "s3://b/datasets/1/");
        let missing = BTreeMap::from([
            ("a".to_owned(), at("x")),
            ("gone".to_owned(), DatasetRef::Missing),
        ]);
        let v = locations(&missing).unwrap_err();
        assert!(v.is_degraded() && v.reason() == "DatasetNotFound" && v.message().contains("gone"));
        let pending = BTreeMap::from([("p".to_owned(), DatasetRef::Pending)]);
        let v = locations(&pending).unwrap_err();
        assert!(v.is_progressing() && !v.is_degraded() && v.reason() == "WaitingForDataset");
    }

    #[test]
    fn bucket_names_follow_the_s3_rules() {
        for ok in ["ludis", "acme-data", "a.b.c", "b12", &"x".repeat(63)] {
            assert_eq!(bucket_name_problem(ok), None, "{ok}");
        }
        let problems = [
            ("ab", "3 to 63"),
            (&"x".repeat(64), "3 to 63"),
            ("Acme", "lowercase"),
            ("acme_data", "lowercase"),
            ("-acme", "begin and end"),
            ("acme.", "begin and end"),
            ("a..b", "two dots"),
            ("192.168.1.1", "IP address"),
        ];
        for (name, why) in problems {
            let problem = bucket_name_problem(name).unwrap_or_else(|| panic!("{name} accepted"));
            assert!(problem.contains(why), "{name}: {problem}");
        }
    }

    fn dataset(id: Option<&str>) -> Dataset {
        let spec: DatasetSpec = serde_json::from_value(serde_json::json!({"displayName": "Sales"})).unwrap();
        let mut d = Dataset::new("sales", spec);
        d.metadata.namespace = Some("ludis-acme".into());
        d.metadata.uid = Some("uid-9".into());
        if let Some(id) = id {
            d.metadata.labels = Some([(LABEL_ID.to_owned(), id.to_owned())].into());
        }
        d
    }

    #[test]
    fn a_dataset_lives_under_its_namespace_and_id_in_the_namespace_bucket() {
        assert_eq!(
            location(&dataset(Some("abc")), Some("acme"), "ludis"),
            ("acme".into(), "datasets/ludis-acme/abc/".into())
        );
        assert_eq!(
            location(&dataset(None), None, "ludis"),
            ("ludis".into(), "datasets/ludis-acme/uid-9/".into())
        );
        // Another organization's resource naming the same id gets a prefix of its own.
        let mut elsewhere = dataset(Some("abc"));
        elsewhere.metadata.namespace = Some("ludis-other".into());
        assert_ne!(
            location(&elsewhere, Some("acme"), "ludis").1,
            location(&dataset(Some("abc")), Some("acme"), "ludis").1
        );
    }

    #[test]
    fn a_referenced_dataset_is_usable_once_its_storage_is_known() {
        assert_eq!(DatasetRef::of(None), DatasetRef::Missing);
        let mut d = dataset(Some("abc"));
        assert_eq!(DatasetRef::of(Some(&d)), DatasetRef::Missing);
        d.status = Some(DatasetStatus {
            bucket: Some("acme".into()),
            ..Default::default()
        });
        assert_eq!(DatasetRef::of(Some(&d)), DatasetRef::Pending);
        d.status.as_mut().unwrap().prefix = Some("datasets/ludis-acme/abc/".into());
        assert_eq!(
            DatasetRef::of(Some(&d)),
            DatasetRef::At("s3://acme/datasets/ludis-acme/abc/".into())
        );
    }
}
