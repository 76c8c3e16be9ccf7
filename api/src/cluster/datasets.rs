//! Dataset custom resources written by the API: server-side apply under the field manager
//! `ludis-api`, never forced, with only the fields the API decides (`displayName`,
//! `description`, `deletionPolicy`, the `ludis.dev/id` label and the `ludis.dev/owner`
//! annotation). `spec.sharing` and anything else set with kubectl stay with whoever set them; a
//! field the API owns that another manager changed since is a [`apply::Conflict`] (409), not an
//! overwrite.
//!
//! A dataset applied with kubectl or GitOps (`origin = resource`) belongs to its resource: the
//! API applies nothing ([`apply`] does nothing). Without a cluster (`state.kube == None`) or for
//! a row without a resource (`namespace` / `resource_name` unset) every call does nothing.
//!
//! The operator finds the dataset's objects in the bucket named by the namespace's
//! `ludis.dev/bucket` annotation ([`ludis_crds::ANNOTATION_BUCKET`], written by
//! [`organizations::ensure_namespace`] with [`organizations::bucket_of`]) under
//! `datasets/<namespace>/<ludis.dev/id>/`, and its finalizer deletes them with the resource when
//! `deletionPolicy` is `Delete`.

use ludis_crds::{Dataset as DatasetCr, dataset::DeletionPolicy};
use serde_json::{Value, json};

use super::{
    apply::{self, truncate},
    organizations,
};
use crate::{
    db::datasets::{self as rows, Dataset, DatasetRow},
    domain::AssetKind,
    state::AppState,
};

/// The CRD's limits on `displayName` and `description` (characters).
const MAX_NAME: usize = 128;
const MAX_DESCRIPTION: usize = 2000;

/// Where a new dataset's CR goes ([`apply::placement`]); `None` without a cluster.
pub async fn placement(
    state: &AppState,
    organization_id: &str,
    id: &str,
    name: &str,
) -> anyhow::Result<Option<(String, String)>> {
    apply::placement(state, AssetKind::Dataset, organization_id, id, name).await
}

/// Where a new dataset of an organization keeps its objects: the organization's bucket and
/// `datasets/<the organization's namespace>/<id>/` (the operator's rule, with or without a
/// cluster).
pub async fn location(state: &AppState, organization_id: &str, id: &str) -> anyhow::Result<(String, String)> {
    let org = organizations::by_id(state, organization_id).await?;
    let bucket = organizations::bucket_of_organization(state, &org).await?;
    let namespace = ludis_crds::organization_namespace(&org.slug);
    Ok((bucket, ludis_storage::dataset_prefix(&namespace, id)))
}

/// Applies the Dataset CR of `d` (creating it, or updating the fields the API owns). Does
/// nothing for a dataset applied with kubectl/GitOps (its resource is the source), without a
/// cluster, or for a row without a resource. Another manager owning a field the API would change
/// is a [`apply::Conflict`] (`err.downcast_ref::<Conflict>()`).
pub async fn apply(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
    if d.asset.is_managed() {
        tracing::debug!(dataset = %d.asset.id, "not applied: the dataset's resource is its source");
        return Ok(());
    }
    let Some((namespace, name)) = d.asset.resource() else {
        return Ok(());
    };
    apply::apply::<DatasetCr>(state, &d.asset, &object(d, namespace, name)).await
}

/// Deletes the Dataset CR. A CR that is already gone is fine. The operator's finalizer deals
/// with the objects (deleted with `deletionPolicy: Delete`, kept with `Retain`) before the
/// resource goes; the watcher shows the row `deleting` meanwhile and removes it then.
pub async fn delete(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
    apply::delete::<DatasetCr>(state, &d.asset).await
}

impl apply::Written for DatasetRow {
    async fn apply(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
        apply(state, d).await
    }
    async fn delete(state: &AppState, d: &Dataset) -> anyhow::Result<()> {
        delete(state, d).await
    }
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
    let spec = json!({
        "displayName": truncate(&d.asset.name, MAX_NAME),
        "description": truncate(&d.asset.description, MAX_DESCRIPTION),
        "deletionPolicy": deletion_policy(&d.details),
    });
    apply::object(&d.asset, namespace, name, spec, true)
}

#[cfg(test)]
mod tests {
    use ludis_crds::{ANNOTATION_OWNER, LABEL_ID};

    use super::*;
    use crate::{
        db::assets::AssetRow,
        domain::{DatasetStatus, DeletionPolicy as Policy, Origin},
    };

    fn dataset() -> Dataset {
        let id = "1a2b3c4d-0000-4000-8000-000000000000";
        Dataset {
            asset: AssetRow {
                id: id.into(),
                kind: AssetKind::Dataset,
                organization_id: "org".into(),
                owner_uid: Some("u1".into()),
                name: "Sales".into(),
                description: "Quarterly".into(),
                img_path: None,
                namespace: Some("ludis-acme".into()),
                resource_name: Some("sales-1a2b3c4d".into()),
                origin: Origin::Api,
                views: 0,
                created_at: 0,
                updated_at: 0,
            },
            details: rows::DatasetRow {
                id: id.into(),
                bucket: "ludis".into(),
                prefix: ludis_storage::dataset_prefix("ludis-acme", id),
                deletion_policy: Policy::Delete,
                status: DatasetStatus::Pending,
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
        d.details.deletion_policy = Policy::Retain;
        let o = object(&d, "ns", "n");
        assert!(o["metadata"].get("annotations").is_none(), "{o}");
        assert_eq!(o["spec"]["deletionPolicy"], "Retain");
        d.details.deletion_policy = Policy::Retain;
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
}
