//! Dataset custom resources written by the API: server-side apply under the field manager
//! `ludis-api`, never forced, with only the fields the API decides (`displayName`,
//! `description`, `deletionPolicy`, the `ludis.dev/id` label and the `ludis.dev/owner`
//! annotation). `spec.sharing` and anything else set with kubectl stay with whoever set them; a
//! field the API owns that another manager changed since is a [`Conflict`] (409), not an
//! overwrite.
//!
//! A dataset applied with kubectl or GitOps (`origin = resource`) belongs to its resource: the
//! API applies nothing ([`apply`] does nothing). Without a cluster (`state.kube == None`) or for
//! a row without a resource (`namespace` / `resource_name` unset) every call does nothing.
//!
//! The operator finds the dataset's objects in the bucket named by the namespace's
//! `ludis.dev/bucket` annotation ([`ludis_crds::ANNOTATION_BUCKET`], written by
//! [`crate::k8s::ensure_namespace`] with [`bucket_of`]) under `datasets/<namespace>/<ludis.dev/id>/`, and its
//! finalizer deletes them with the resource when `deletionPolicy` is `Delete`.

use anyhow::Context as _;
use kube::{Api, api::DeleteParams};
use ludis_crds::{ANNOTATION_OWNER, Dataset as DatasetCr, LABEL_ID, dataset::DeletionPolicy};
use serde_json::{Value, json};

pub use super::insights::Conflict;
use crate::{
    app::AppState,
    db::{
        self,
        assets::KIND_DATASET,
        datasets::{self as rows, Dataset},
        organizations::OrganizationRow,
    },
};

/// The CRD's limits on `displayName` and `description` (characters).
const MAX_NAME: usize = 128;
const MAX_DESCRIPTION: usize = 2000;

/// Where a new dataset's CR goes: `(namespace, resource name)` to store in the asset row (the
/// organization's namespace `ludis-<slug>`, the name `<name slug>-<id prefix>`). `None` without a
/// cluster; such a row keeps `namespace`/`resource_name` unset.
pub async fn placement(
    state: &AppState,
    organization_id: &str,
    id: &str,
    name: &str,
) -> anyhow::Result<Option<(String, String)>> {
    if state.kube.is_none() {
        return Ok(None);
    }
    let org = db::organizations::by_id(&state.db, organization_id)
        .await?
        .with_context(|| format!("no organization {organization_id}"))?;
    Ok(Some((
        ludis_crds::organization_namespace(&org.slug),
        resource_name(name, id),
    )))
}

/// A readable, unique CR name: the name's slug and the id's first 8 hex digits
/// (`sales-2024-1a2b3c4d`; `dataset-…` for a name without letters or digits).
pub fn resource_name(name: &str, id: &str) -> String {
    super::insights::resource_name_or(name, id, "dataset")
}

/// The bucket of an organization's datasets: its bucket's name, else the API's `s3_bucket`.
pub async fn bucket_of(state: &AppState, organization_id: &str) -> anyhow::Result<String> {
    let org = db::organizations::by_id(&state.db, organization_id)
        .await?
        .with_context(|| format!("no organization {organization_id}"))?;
    bucket_of_organization(state, &org).await
}

/// Where a new dataset of an organization keeps its objects: the organization's bucket and
/// `datasets/<the organization's namespace>/<id>/` (the operator's rule, with or without a
/// cluster).
pub async fn location(state: &AppState, organization_id: &str, id: &str) -> anyhow::Result<(String, String)> {
    let org = db::organizations::by_id(&state.db, organization_id)
        .await?
        .with_context(|| format!("no organization {organization_id}"))?;
    let bucket = bucket_of_organization(state, &org).await?;
    let namespace = ludis_crds::organization_namespace(&org.slug);
    Ok((bucket, ludis_storage::dataset_prefix(&namespace, id)))
}

/// [`bucket_of`] for an organization already read (a `bucket_id` naming no bucket falls back to
/// the default too).
pub async fn bucket_of_organization(state: &AppState, org: &OrganizationRow) -> anyhow::Result<String> {
    let bucket = match &org.bucket_id {
        Some(id) => db::organizations::bucket(&state.db, id).await?.map(|b| b.name),
        None => None,
    };
    Ok(bucket.unwrap_or_else(|| state.settings.s3_bucket.clone()))
}

/// Applies the Dataset CR of `d` (creating it, or updating the fields the API owns). Does
/// nothing for a dataset applied with kubectl/GitOps (its resource is the source), without a
/// cluster, or for a row without a resource. Another manager owning a field the API would change
/// is a [`Conflict`] (`err.downcast_ref::<Conflict>()`).
pub async fn apply(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
    if d.asset.is_managed() {
        tracing::debug!(dataset = %d.asset.id, "not applied: the dataset's resource is its source");
        return Ok(());
    }
    let (Some(client), Some((namespace, name))) = (&state.kube, resource_of(d)) else {
        return Ok(());
    };
    if d.asset.kind != KIND_DATASET {
        anyhow::bail!("asset {} is not a dataset", d.asset.id);
    }
    let api = Api::<DatasetCr>::namespaced(client.clone(), namespace);
    let body = object(d, namespace, name);
    match super::insights::apply_body(
        state,
        client,
        &api,
        namespace,
        name,
        &d.asset.organization_id,
        &body,
    )
    .await
    {
        Err(kube::Error::Api(e)) if e.code == 409 => Err(Conflict {
            message: super::insights::conflict_message_of("dataset", &e.message),
            detail: e.message.clone(),
        }
        .into()),
        Err(e) => Err(e).with_context(|| format!("failed to apply dataset {namespace}/{name}")),
        Ok(()) => Ok(()),
    }
}

/// Deletes the Dataset CR. A CR that is already gone is fine. The operator's finalizer deals
/// with the objects (deleted with `deletionPolicy: Delete`, kept with `Retain`) before the
/// resource goes; the watcher shows the row `deleting` meanwhile and removes it then.
pub async fn delete(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, resource_of(d)) else {
        return Ok(());
    };
    match Api::<DatasetCr>::namespaced(client.clone(), namespace)
        .delete(name, &DeleteParams::background())
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e).with_context(|| format!("failed to delete dataset {namespace}/{name}")),
    }
}

fn resource_of(d: &Dataset) -> Option<(&str, &str)> {
    Some((d.asset.namespace.as_deref()?, d.asset.resource_name.as_deref()?))
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Pure: the `deletionPolicy` of a row's policy (`Delete`, anything else `Retain`).
pub fn deletion_policy(row: &rows::DatasetRow) -> DeletionPolicy {
    if row.deletes_data() {
        DeletionPolicy::Delete
    } else {
        DeletionPolicy::Retain
    }
}

/// Pure: the applied object: identity, the id label, the owner annotation (when the dataset has
/// an owner) and the spec fields the API decides.
pub fn object(d: &Dataset, namespace: &str, name: &str) -> Value {
    let mut metadata = json!({
        "name": name,
        "namespace": namespace,
        "labels": {LABEL_ID: d.asset.id},
    });
    if let Some(owner) = &d.asset.owner_uid {
        metadata["annotations"] = json!({ANNOTATION_OWNER: owner});
    }
    json!({
        "apiVersion": format!("{}/{}", ludis_crds::GROUP, ludis_crds::VERSION),
        "kind": "Dataset",
        "metadata": metadata,
        "spec": {
            "displayName": truncate(&d.asset.name, MAX_NAME),
            "description": truncate(&d.asset.description, MAX_DESCRIPTION),
            "deletionPolicy": deletion_policy(&d.details),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::assets::{AssetRow, ORIGIN_API};

    fn dataset() -> Dataset {
        let id = "1a2b3c4d-0000-4000-8000-000000000000";
        Dataset {
            asset: AssetRow {
                id: id.into(),
                kind: KIND_DATASET.into(),
                organization_id: "org".into(),
                owner_uid: Some("u1".into()),
                name: "Sales".into(),
                description: "Quarterly".into(),
                img_path: None,
                namespace: Some("ludis-acme".into()),
                resource_name: Some("sales-1a2b3c4d".into()),
                origin: ORIGIN_API.into(),
                views: 0,
                created_at: 0,
                updated_at: 0,
            },
            details: rows::DatasetRow {
                id: id.into(),
                bucket: "ludis".into(),
                prefix: ludis_storage::dataset_prefix("ludis-acme", id),
                deletion_policy: rows::DELETE.into(),
                status: rows::PENDING.into(),
                ..rows::DatasetRow::default()
            },
        }
    }

    #[test]
    fn the_object_carries_the_id_the_owner_and_the_fields_the_api_decides() {
        let d = dataset();
        let o = object(&d, "ludis-acme", "sales-1a2b3c4d");
        assert_eq!(o["apiVersion"], "ludis.dev/v1alpha1");
        assert_eq!(o["kind"], "Dataset");
        assert_eq!(o["metadata"]["name"], "sales-1a2b3c4d");
        assert_eq!(o["metadata"]["namespace"], "ludis-acme");
        assert_eq!(o["metadata"]["labels"][LABEL_ID], d.asset.id);
        assert_eq!(o["metadata"]["annotations"][ANNOTATION_OWNER], "u1");
        assert_eq!(
            o["spec"],
            json!({"displayName": "Sales", "description": "Quarterly", "deletionPolicy": "Delete"})
        );
        // It decodes as the CRD's type; sharing is left to whoever sets it.
        let cr: DatasetCr = serde_json::from_value(o).unwrap();
        assert_eq!(cr.spec.deletion_policy, DeletionPolicy::Delete);
        assert_eq!(cr.spec.sharing, None);
    }

    #[test]
    fn an_ownerless_dataset_has_no_owner_annotation_and_retains_by_default() {
        let mut d = dataset();
        d.asset.owner_uid = None;
        d.details.deletion_policy = "something else".into();
        let o = object(&d, "ns", "n");
        assert!(o["metadata"].get("annotations").is_none(), "{o}");
        assert_eq!(o["spec"]["deletionPolicy"], "Retain");
        d.details.deletion_policy = rows::RETAIN.into();
        assert_eq!(object(&d, "ns", "n")["spec"]["deletionPolicy"], "Retain");
    }

    #[test]
    fn long_fields_are_cut_to_the_crds_limits() {
        let mut d = dataset();
        d.asset.name = "é".repeat(300);
        d.asset.description = "x".repeat(5000);
        let o = object(&d, "ns", "n");
        assert_eq!(o["spec"]["displayName"].as_str().unwrap().chars().count(), 128);
        assert_eq!(o["spec"]["description"].as_str().unwrap().len(), 2000);
    }

    #[test]
    fn resource_names_are_dns_labels_with_the_id() {
        assert_eq!(
            resource_name("Sales 2024!", "1A2B3C4D-5e6f"),
            "sales-2024-1a2b3c4d"
        );
        assert_eq!(resource_name("***", "abc"), "dataset-abc");
        assert_eq!(resource_name("", "12345678-9"), "dataset-12345678");
        // Insights keep their own fallback.
        assert_eq!(super::super::insights::resource_name("***", "abc"), "insight-abc");
        let long = resource_name(&"x".repeat(100), "12345678-aaaa");
        assert!(long.len() <= 63, "{long}");
        assert!(
            long.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{long}"
        );
    }

    #[test]
    fn conflicts_speak_of_the_dataset() {
        let m = super::super::insights::conflict_message_of(
            "dataset",
            "Apply failed with 1 conflict: conflict with \"gitops-e2e\" using ludis.dev/v1alpha1: .spec.displayName",
        );
        assert_eq!(
            m,
            "The dataset's resource is managed outside Ludis: .spec.displayName (gitops-e2e) is set by another tool; change it there"
        );
    }
}
