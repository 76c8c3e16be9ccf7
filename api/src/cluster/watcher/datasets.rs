//! The Dataset side of the watcher: every Dataset resource is mirrored into `assets`/`datasets`
//! the way Insights are (organization, row, owner, `spec.sharing`, deletion: see the parent
//! module), with what is particular to datasets:
//!
//! - **Fields**: `displayName` → name, `description`, `deletionPolicy`. A new resource's row gets
//!   the bucket and prefix of its status when the operator reported them, else the
//!   organization's bucket and the prefix the operator will use (`datasets/<namespace>/<ludis.dev/id>/`,
//!   or the resource's uid without the label). Its id is the label's when that is a free UUID,
//!   else the resource's uid when free (so the prefix ends in `<id>/` whenever it can), else a
//!   new one. A resource whose location is already another dataset's (a copied id label) is not
//!   mirrored: the console would show one dataset's files under two names.
//! - **Sharing**: datasets have no execute level; `execute` in `spec.sharing` counts as `view`.
//! - **Status** (every dataset, the API's too): Stalled=True (or its deprecated alias Degraded) →
//!   `failed` with its message, Ready=True → `ready`, anything else (no status yet) → `pending`;
//!   `objectCount`/`bytes` when the operator's numbers change. A resource being deleted (a deletionTimestamp: the operator's
//!   finalizer is dealing with the objects) shows `deleting` and never makes a row.
//! - **Not adopted**: a seeded sample's row, even when a resource carries its id.

use kube::ResourceExt as _;
use ludis_crds::{
    Dataset as DatasetCr,
    common::{AccessLevel as DeclaredLevel, Sharing},
};

use super::mirror::{Mirror, Mirrored, Reading, follow, resource_row, same_apart_from};
use crate::{
    cluster::organizations,
    db::{
        assets::AssetRow,
        datasets::{self as rows, Dataset, DatasetRow},
    },
    domain::{AccessLevel, AssetKind, DatasetStatus, DeletionPolicy, Origin},
};

impl Mirrored for DatasetCr {
    type Details = DatasetRow;
    type Seen = Seen;

    fn level_of(level: DeclaredLevel) -> AccessLevel {
        level_of(level)
    }

    /// The label's id, else the resource's uid (so the prefix ends in `<id>/` whenever it can).
    fn id_candidates(cr: &Self) -> Vec<String> {
        [cr.labels().get(ludis_crds::LABEL_ID).cloned(), cr.uid()]
            .into_iter()
            .flatten()
            .collect()
    }

    async fn new_rows(
        m: &mut Mirror,
        cr: &Self,
        seen: &Seen,
        row: AssetRow,
    ) -> anyhow::Result<Option<Dataset>> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let (bucket, prefix) = match &seen.location {
            Some(at) => at.clone(),
            None => (
                organizations::bucket_of(&m.state, &row.organization_id).await?,
                operator_prefix(cr),
            ),
        };
        if let Some(other) = rows::at_location(&m.state.db, &bucket, &prefix).await? {
            tracing::warn!(%namespace, %name, %other, location = %format!("s3://{bucket}/{prefix}"),
                "a Dataset resource names another dataset's objects (a copied ludis.dev/id label?); not mirrored");
            return Ok(None);
        }
        if let Some(usage) = seen.observed.usage {
            m.dataset_usage.insert((namespace.clone(), name.clone()), usage);
        }
        let mut d = new_dataset(
            seen,
            (&row.id, &row.organization_id),
            row.owner_uid.clone(),
            (&namespace, &name),
            (bucket, prefix),
            row.created_at,
        );
        d.asset.origin = row.origin;
        Ok(Some(d))
    }

    async fn updated(
        m: &mut Mirror,
        cr: &Self,
        old: &Dataset,
        seen: &Seen,
        owner: Option<String>,
    ) -> anyhow::Result<Dataset> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        // The operator's numbers, when they changed since last seen.
        let usage = seen
            .observed
            .usage
            .filter(|u| m.dataset_usage.insert((namespace.clone(), name.clone()), *u) != Some(*u));
        Ok(updated_dataset(old, seen, owner, (&namespace, &name), usage))
    }

    fn same_fields(a: &Dataset, b: &Dataset) -> bool {
        same_fields(a, b)
    }

    async fn write_observed(db: &sqlx::AnyPool, old: &Dataset, new: &Dataset) -> anyhow::Result<()> {
        let (o, d) = (&old.details, &new.details);
        if observed(o) != observed(d) {
            let usage =
                ((o.object_count, o.bytes) != (d.object_count, d.bytes)).then_some((d.object_count, d.bytes));
            rows::set_observed(db, &d.id, d.status, d.status_message.as_deref(), usage).await?;
        }
        Ok(())
    }

    /// A resource being deleted (the operator's finalizer is dealing with the objects) shows
    /// `deleting` and never makes a row.
    async fn handled(m: &mut Mirror, cr: &Self, existing: Option<&Dataset>) -> anyhow::Result<bool> {
        if cr.metadata.deletion_timestamp.is_none() {
            return Ok(false);
        }
        if let Some(old) = existing
            && old.details.status != DatasetStatus::Deleting
        {
            rows::set_observed(&m.state.db, &old.asset.id, DatasetStatus::Deleting, None, None).await?;
            let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
            tracing::info!(%namespace, %name, id = %old.asset.id, "a dataset resource is being deleted");
        }
        Ok(true)
    }

    /// A sample is never given to a resource.
    fn adoptable(row: &Dataset) -> bool {
        row.asset.namespace.is_some() || row.details.sample.is_none()
    }

    /// The usage last read is written again at the next event.
    fn forget(m: &mut Mirror, key: &(String, String)) {
        m.dataset_usage.remove(key);
    }
}

/// Datasets have view and edit only: a declared `execute` is `view`.
fn level_of(level: DeclaredLevel) -> AccessLevel {
    match level {
        DeclaredLevel::View | DeclaredLevel::Execute => AccessLevel::View,
        DeclaredLevel::Edit => AccessLevel::Edit,
    }
}

/// Pure: the prefix the operator gives a dataset without a status yet (its rule:
/// `datasets/<ludis.dev/id label>/`, else the uid, else the name).
pub fn operator_prefix(cr: &DatasetCr) -> String {
    let id = cr
        .labels()
        .get(ludis_crds::LABEL_ID)
        .cloned()
        .or_else(|| cr.uid())
        .unwrap_or_else(|| cr.name_any());
    ludis_storage::dataset_prefix(&cr.namespace().unwrap_or_default(), &id)
}

/// Pure: what the operator observed, in the database's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    pub status: DatasetStatus,
    /// Why it failed (`failed` only).
    pub message: Option<String>,
    /// `(objects, bytes)`, when the status has them.
    pub usage: Option<(i64, i64)>,
}

impl Observed {
    pub fn of(cr: &DatasetCr) -> Self {
        let status = cr.status.as_ref();
        let usage = status.and_then(|s| match (s.object_count, s.bytes) {
            (None, None) => None,
            (count, bytes) => Some((count.unwrap_or(0), bytes.unwrap_or(0))),
        });
        let condition = |type_: &str| {
            status
                .and_then(|s| s.conditions.iter().find(|c| c.type_ == type_))
                .filter(|c| c.status == "True")
        };
        // The storage does not depend on the fields a spec change touches (names, sharing), so
        // a status of an older generation still says where the objects are and how many.
        let (status, message) = if cr.metadata.deletion_timestamp.is_some() {
            (DatasetStatus::Deleting, None)
        } else if let Some(c) = status.and_then(|s| ludis_crds::common::stalled_condition(&s.conditions)) {
            let message = if c.message.trim().is_empty() {
                c.reason.clone()
            } else {
                c.message.clone()
            };
            (DatasetStatus::Failed, Some(message))
        } else if condition("Ready").is_some() {
            (DatasetStatus::Ready, None)
        } else {
            (DatasetStatus::Pending, None)
        };
        Self {
            status,
            message,
            usage,
        }
    }
}

/// Pure: what a Dataset resource says, in the database's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub name: String,
    pub description: String,
    pub deletion_policy: DeletionPolicy,
    pub sharing: Option<ludis_crds::common::Sharing>,
    /// Where the operator keeps the objects (status `bucket` and `prefix`), once it said.
    pub location: Option<(String, String)>,
    pub observed: Observed,
}

impl Reading<DatasetCr> for Seen {
    fn sharing(&self) -> Option<&Sharing> {
        self.sharing.as_ref()
    }

    fn of(cr: &DatasetCr) -> Self {
        let location = cr
            .status
            .as_ref()
            .and_then(|s| Some((s.bucket.clone()?, s.prefix.clone()?)));
        Self {
            name: cr.spec.display_name.clone(),
            description: cr.spec.description.clone(),
            deletion_policy: match cr.spec.deletion_policy {
                ludis_crds::dataset::DeletionPolicy::Retain => DeletionPolicy::Retain,
                ludis_crds::dataset::DeletionPolicy::Delete => DeletionPolicy::Delete,
            },
            sharing: cr.spec.sharing.clone(),
            location,
            observed: Observed::of(cr),
        }
    }
}

/// Pure: the rows of a resource seen for the first time.
pub fn new_dataset(
    seen: &Seen,
    ids: (&str, &str),
    owner_uid: Option<String>,
    at: (&str, &str),
    (bucket, prefix): (String, String),
    now: i64,
) -> Dataset {
    let (id, _) = ids;
    let (object_count, bytes) = seen.observed.usage.unwrap_or((0, 0));
    Dataset {
        asset: resource_row(
            AssetKind::Dataset,
            ids,
            owner_uid,
            at,
            (&seen.name, &seen.description),
            now,
        ),
        details: DatasetRow {
            id: id.to_owned(),
            bucket,
            prefix,
            deletion_policy: seen.deletion_policy,
            status: seen.observed.status,
            status_message: seen.observed.message.clone(),
            object_count,
            bytes,
            sample: None,
        },
    }
}

/// Pure: an existing row brought in line with its resource: name, description, deletion policy
/// and the observed status; `usage` when the operator's numbers changed. A resource row takes
/// the operator's location when it reports one (a console row keeps the location the API chose).
/// The owner rule is the insights' (an annotation naming nobody keeps a console row's owner and
/// takes a resource row's away).
pub fn updated_dataset(
    old: &Dataset,
    seen: &Seen,
    owner_uid: Option<String>,
    at: (&str, &str),
    usage: Option<(i64, i64)>,
) -> Dataset {
    let mut new = follow(old, (&seen.name, &seen.description), owner_uid, at);
    let d = &mut new.details;
    d.deletion_policy = seen.deletion_policy;
    if new.asset.origin == Origin::Resource
        && let Some((bucket, prefix)) = &seen.location
    {
        d.bucket = bucket.clone();
        d.prefix = prefix.clone();
    }
    d.status = seen.observed.status;
    d.status_message = seen.observed.message.clone();
    if let Some((count, bytes)) = usage {
        d.object_count = count;
        d.bytes = bytes;
    }
    new
}

/// Pure: whether the fields a resource decides are the same (the observed ones aside).
fn same_fields(a: &Dataset, b: &Dataset) -> bool {
    same_apart_from(a, b, |d| {
        d.status = DatasetStatus::default();
        d.status_message = None;
        d.object_count = 0;
        d.bytes = 0;
    })
}

fn observed(d: &DatasetRow) -> (DatasetStatus, Option<&str>, i64, i64) {
    (d.status, d.status_message.as_deref(), d.object_count, d.bytes)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cr(
        metadata: serde_json::Value,
        spec: serde_json::Value,
        status: Option<serde_json::Value>,
    ) -> DatasetCr {
        let mut v = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
            "metadata": metadata, "spec": spec,
        });
        if let Some(s) = status {
            v["status"] = s;
        }
        serde_json::from_value(v).unwrap()
    }

    fn condition(type_: &str, status: &str, reason: &str, message: &str) -> serde_json::Value {
        json!({"type": type_, "status": status, "reason": reason, "message": message,
               "lastTransitionTime": "2026-01-01T00:00:00Z"})
    }

    const META: fn() -> serde_json::Value =
        || json!({"name": "sales", "namespace": "ludis-acme", "uid": "0b7c2a8e-1111-4222-8333-944455556666"});

    #[test]
    fn the_operators_conditions_become_the_rows_status() {
        let spec = json!({"displayName": "Sales"});
        let none = Observed::of(&cr(META(), spec.clone(), None));
        assert_eq!((none.status, none.usage), (DatasetStatus::Pending, None));

        let ready = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(
                json!({"objectCount": 3, "bytes": 1234, "bucket": "b", "prefix": "datasets/x/",
                        "conditions": [condition("Ready", "True", "Available", "s3://b/datasets/x/"),
                                       condition("Degraded", "False", "AsExpected", "")]}),
            ),
        ));
        assert_eq!(
            ready,
            Observed {
                status: DatasetStatus::Ready,
                message: None,
                usage: Some((3, 1234))
            }
        );

        let failed = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(
                json!({"conditions": [condition("Ready", "False", "StorageNotConfigured", "no storage"),
                                       condition("Degraded", "True", "StorageNotConfigured", "no storage")]}),
            ),
        ));
        assert_eq!(
            (failed.status, failed.message.as_deref()),
            (DatasetStatus::Failed, Some("no storage"))
        );
        let no_message = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(json!({"conditions": [condition("Degraded", "True", "Broken", "")]})),
        ));
        assert_eq!(no_message.message.as_deref(), Some("Broken"));
        // What the operator writes now: Stalled, without the deprecated alias.
        let stalled = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(
                json!({"conditions": [condition("Ready", "False", "InvalidBucket", "bad bucket"),
                                       condition("Stalled", "True", "InvalidBucket", "bad bucket")]}),
            ),
        ));
        assert_eq!(
            (stalled.status, stalled.message.as_deref()),
            (DatasetStatus::Failed, Some("bad bucket"))
        );

        let progressing = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(json!({"conditions": [condition("Ready", "False", "Waiting", "soon")]})),
        ));
        assert_eq!(progressing.status, DatasetStatus::Pending);

        let mut deleting = META();
        deleting["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
        deleting["finalizers"] = json!([ludis_crds::FINALIZER_DATASET_CLEANUP]);
        let d = Observed::of(&cr(
            deleting,
            spec,
            Some(json!({"conditions": [condition("Ready", "True", "Available", "")]})),
        ));
        assert_eq!(d.status, DatasetStatus::Deleting);
    }

    #[test]
    fn a_resource_reads_in_the_databases_words() {
        let seen = Seen::of(&cr(
            META(),
            json!({"displayName": "Sales", "description": "Q3", "deletionPolicy": "Delete",
                   "sharing": {"organization": "execute", "users": [{"email": "a@x.example", "level": "edit"}]}}),
            Some(json!({"bucket": "acme", "prefix": "datasets/abc/"})),
        ));
        assert_eq!(seen.name, "Sales");
        assert_eq!(seen.description, "Q3");
        assert_eq!(seen.deletion_policy, DeletionPolicy::Delete);
        assert_eq!(seen.location, Some(("acme".into(), "datasets/abc/".into())));
        assert!(seen.sharing.is_some());
        let partial = Seen::of(&cr(
            META(),
            json!({"displayName": "S"}),
            Some(json!({"bucket": "acme"})),
        ));
        assert_eq!(partial.location, None, "a location needs both");
        assert_eq!(partial.deletion_policy, DeletionPolicy::Retain);
    }

    #[test]
    fn execute_is_view_for_datasets() {
        assert_eq!(level_of(DeclaredLevel::Execute), AccessLevel::View);
        assert_eq!(level_of(DeclaredLevel::View), AccessLevel::View);
        assert_eq!(level_of(DeclaredLevel::Edit), AccessLevel::Edit);
    }

    #[test]
    fn the_prefix_before_a_status_is_the_operators() {
        let mut labelled = META();
        labelled["labels"] = json!({ludis_crds::LABEL_ID: "abc"});
        assert_eq!(
            operator_prefix(&cr(labelled, json!({"displayName": "S"}), None)),
            "datasets/ludis-acme/abc/"
        );
        assert_eq!(
            operator_prefix(&cr(META(), json!({"displayName": "S"}), None)),
            "datasets/ludis-acme/0b7c2a8e-1111-4222-8333-944455556666/"
        );
    }

    #[test]
    fn a_new_row_and_its_updates() {
        let seen = Seen::of(&cr(
            META(),
            json!({"displayName": "Sales", "deletionPolicy": "Delete"}),
            Some(
                json!({"objectCount": 2, "bytes": 10, "bucket": "acme", "prefix": "datasets/x/",
                        "conditions": [condition("Ready", "True", "Available", "")]}),
            ),
        ));
        let new = new_dataset(
            &seen,
            ("id-1", "org"),
            Some("u1".into()),
            ("ludis-acme", "sales"),
            ("acme".into(), "datasets/x/".into()),
            5,
        );
        assert_eq!(new.asset.kind, AssetKind::Dataset);
        assert_eq!(new.asset.origin, Origin::Resource);
        assert_eq!(new.asset.img_path, None);
        assert_eq!(
            (new.details.status, new.details.object_count, new.details.bytes),
            (DatasetStatus::Ready, 2, 10)
        );
        assert_eq!(new.details.deletion_policy, DeletionPolicy::Delete);

        // A console row keeps its location and its owner when the annotation names nobody;
        // usage changes only when given.
        let mut console = new.clone();
        console.asset.origin = Origin::Api;
        console.details.bucket = "ludis".into();
        console.details.prefix = "datasets/id-1/".into();
        console.details.object_count = 7;
        let renamed = Seen::of(&cr(
            META(),
            json!({"displayName": "Renamed"}),
            Some(json!({"bucket": "other", "prefix": "datasets/y/"})),
        ));
        let up = updated_dataset(&console, &renamed, None, ("ludis-acme", "sales"), None);
        assert_eq!(up.asset.name, "Renamed");
        assert_eq!(up.asset.owner_uid.as_deref(), Some("u1"));
        assert_eq!(
            (up.details.bucket.as_str(), up.details.prefix.as_str()),
            ("ludis", "datasets/id-1/")
        );
        assert_eq!(up.details.object_count, 7);
        assert_eq!(up.details.status, DatasetStatus::Pending);
        assert_eq!(up.details.deletion_policy, DeletionPolicy::Retain);
        assert!(!same_fields(&console, &up));

        // A resource row follows the operator's location and loses an owner nobody names.
        let up = updated_dataset(&new, &renamed, None, ("ludis-acme", "sales"), Some((1, 1)));
        assert_eq!(
            (up.details.bucket.as_str(), up.details.prefix.as_str()),
            ("other", "datasets/y/")
        );
        assert_eq!(up.asset.owner_uid, None);
        assert_eq!((up.details.object_count, up.details.bytes), (1, 1));
    }

    #[test]
    fn status_only_changes_are_told_apart() {
        let seen = Seen::of(&cr(META(), json!({"displayName": "S"}), None));
        let old = new_dataset(
            &seen,
            ("id", "org"),
            None,
            ("ns", "s"),
            ("b".into(), "p/".into()),
            5,
        );
        let mut new = old.clone();
        new.details.status = DatasetStatus::Failed;
        new.details.status_message = Some("x".into());
        new.details.object_count = 9;
        assert!(same_fields(&old, &new));
        assert_ne!(observed(&old.details), observed(&new.details));
        new.details.deletion_policy = DeletionPolicy::Delete;
        assert!(!same_fields(&old, &new));
    }
}
