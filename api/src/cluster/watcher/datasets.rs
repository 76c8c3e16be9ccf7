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
//! - **Status** (every dataset, the API's too): Degraded=True → `failed` with its message,
//!   Ready=True → `ready`, anything else (no status yet) → `pending`; `objectCount`/`bytes` when
//!   the operator's numbers change. A resource being deleted (a deletionTimestamp: the operator's
//!   finalizer is dealing with the objects) shows `deleting` and never makes a row.
//! - **Not adopted**: a seeded sample's row, even when a resource carries its id.

use kube::ResourceExt as _;
use ludis_crds::{Dataset as DatasetCr, common::AccessLevel};

use super::{
    Mirror, Mirrored, Owner, ROW_GRACE_SECS, age_secs, applied_by_api, entries, key, label_id,
    managed_shares, resource_shares,
};
use crate::{
    db::{
        self,
        assets::{self, AssetRow, KIND_DATASET, ORIGIN_API, ORIGIN_RESOURCE},
        datasets::{self as rows, Dataset, DatasetRow},
    },
    policy::sharing::Level,
};

impl Mirrored for DatasetCr {
    const KIND: &'static str = KIND_DATASET;
    const NOUN: &'static str = "dataset";
    async fn mirror(mirror: &mut Mirror, cr: &Self) -> anyhow::Result<()> {
        let key = key(&cr.metadata);
        let done = mirror.mirror_dataset(cr).await;
        if done.is_err() {
            // Written again at the next event.
            mirror.dataset_usage.remove(&key);
        }
        done
    }
}

impl Mirror {
    async fn mirror_dataset(&mut self, cr: &DatasetCr) -> anyhow::Result<()> {
        let (namespace, name) = key(&cr.metadata);
        let Owner::Organization(org) = self.organization(&namespace).await? else {
            return Ok(());
        };
        let db = &self.state.db;
        let existing = match self.row_of(cr, &org).await? {
            Some(a) => rows::by_id(db, &a.id)
                .await?
                // A sample is never given to a resource.
                .filter(|d| d.asset.namespace.is_some() || d.details.sample.is_none()),
            None => None,
        };
        let seen = Seen::of(cr);
        // The operator's numbers, when they changed since last seen.
        let usage = seen
            .observed
            .usage
            .filter(|u| self.dataset_usage.insert((namespace.clone(), name.clone()), *u) != Some(*u));

        if cr.metadata.deletion_timestamp.is_some() {
            if let Some(old) = existing
                && old.details.status != rows::DELETING
            {
                rows::set_observed(db, &old.asset.id, rows::DELETING, None, None).await?;
                tracing::info!(%namespace, %name, id = %old.asset.id, "a dataset resource is being deleted");
            }
            return Ok(());
        }

        let owner = self.owner(&cr.metadata, &org).await?;
        let shares = resource_shares(db, &org, &seen.sharing, owner.as_deref(), level_of).await?;
        let now = db::now();

        let Some(old) = existing else {
            // A young resource of the API's is left to the row the API writes (as for insights).
            let by_api = applied_by_api(&cr.metadata);
            if by_api && age_secs(&cr.metadata).is_some_and(|age| age < ROW_GRACE_SECS) {
                tracing::debug!(%namespace, %name, "a new dataset resource of the API's; its row is on its way");
                return Ok(());
            }
            let mut id = db::new_id();
            for candidate in [label_id(&cr.metadata), cr.metadata.uid.as_deref()]
                .into_iter()
                .flatten()
                .filter(|c| super::is_uuid(c))
            {
                if assets::by_id(db, candidate).await?.is_none() {
                    id = candidate.to_lowercase();
                    break;
                }
            }
            let (bucket, prefix) = match &seen.location {
                Some(at) => at.clone(),
                None => (
                    crate::cluster::datasets::bucket_of(&self.state, &org).await?,
                    operator_prefix(cr),
                ),
            };
            if let Some(other) = dataset_at(db, &bucket, &prefix).await? {
                tracing::warn!(%namespace, %name, %other, location = %format!("s3://{bucket}/{prefix}"),
                    "a Dataset resource names another dataset's objects (a copied ludis.dev/id label?); not mirrored");
                return Ok(());
            }
            let mut d = new_dataset(&seen, &id, &org, owner, &namespace, &name, (bucket, prefix), now);
            if by_api {
                d.asset.origin = ORIGIN_API.into();
            }
            rows::upsert_with_resource_shares(db, &d, false, &entries(&shares), now).await?;
            tracing::info!(%namespace, %name, id = %d.asset.id, "a new dataset resource is mirrored");
            return Ok(());
        };

        let new = updated_dataset(&old, &seen, owner, &namespace, &name, usage);
        let old_shares = managed_shares(db, &old.asset.id).await?;
        if !same_fields(&old, &new) || old_shares != shares {
            let mut new = new;
            if !same_fields(&old, &new) {
                new.asset.updated_at = now;
            }
            rows::upsert_with_resource_shares(db, &new, true, &entries(&shares), now).await?;
        } else if observed(&old.details) != observed(&new.details) {
            let d = &new.details;
            rows::set_observed(db, &d.id, &d.status, d.status_message.as_deref(), usage).await?;
        }
        Ok(())
    }
}

/// The dataset whose objects are at `bucket`/`prefix`, if any.
async fn dataset_at(db: &sqlx::AnyPool, bucket: &str, prefix: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM datasets WHERE bucket = $1 AND prefix = $2 LIMIT 1")
        .bind(bucket)
        .bind(prefix)
        .fetch_optional(db)
        .await
}

/// Datasets have view and edit only: a declared `execute` is `view`.
fn level_of(level: AccessLevel) -> Level {
    match level {
        AccessLevel::View | AccessLevel::Execute => Level::View,
        AccessLevel::Edit => Level::Edit,
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
    pub status: &'static str,
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
            (rows::DELETING, None)
        } else if let Some(c) = condition("Degraded") {
            let message = if c.message.trim().is_empty() {
                c.reason.clone()
            } else {
                c.message.clone()
            };
            (rows::FAILED, Some(message))
        } else if condition("Ready").is_some() {
            (rows::READY, None)
        } else {
            (rows::PENDING, None)
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
    pub deletion_policy: String,
    pub sharing: Option<ludis_crds::common::Sharing>,
    /// Where the operator keeps the objects (status `bucket` and `prefix`), once it said.
    pub location: Option<(String, String)>,
    pub observed: Observed,
}

impl Seen {
    pub fn of(cr: &DatasetCr) -> Self {
        let location = cr
            .status
            .as_ref()
            .and_then(|s| Some((s.bucket.clone()?, s.prefix.clone()?)));
        Self {
            name: cr.spec.display_name.clone(),
            description: cr.spec.description.clone(),
            deletion_policy: match cr.spec.deletion_policy {
                ludis_crds::dataset::DeletionPolicy::Retain => rows::RETAIN,
                ludis_crds::dataset::DeletionPolicy::Delete => rows::DELETE,
            }
            .to_owned(),
            sharing: cr.spec.sharing.clone(),
            location,
            observed: Observed::of(cr),
        }
    }
}

/// Pure: the rows of a resource seen for the first time.
#[allow(clippy::too_many_arguments)]
pub fn new_dataset(
    seen: &Seen,
    id: &str,
    organization_id: &str,
    owner_uid: Option<String>,
    namespace: &str,
    name: &str,
    (bucket, prefix): (String, String),
    now: i64,
) -> Dataset {
    let (object_count, bytes) = seen.observed.usage.unwrap_or((0, 0));
    Dataset {
        asset: AssetRow {
            id: id.to_owned(),
            kind: KIND_DATASET.into(),
            organization_id: organization_id.to_owned(),
            owner_uid,
            name: seen.name.clone(),
            description: seen.description.clone(),
            img_path: None,
            namespace: Some(namespace.to_owned()),
            resource_name: Some(name.to_owned()),
            origin: ORIGIN_RESOURCE.into(),
            views: 0,
            created_at: now,
            updated_at: now,
        },
        details: DatasetRow {
            id: id.to_owned(),
            bucket,
            prefix,
            deletion_policy: seen.deletion_policy.clone(),
            status: seen.observed.status.to_owned(),
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
    namespace: &str,
    name: &str,
    usage: Option<(i64, i64)>,
) -> Dataset {
    let mut new = old.clone();
    let (a, d) = (&mut new.asset, &mut new.details);
    a.name = seen.name.clone();
    a.description = seen.description.clone();
    a.namespace = Some(namespace.to_owned());
    a.resource_name = Some(name.to_owned());
    if owner_uid.is_some() || a.origin == ORIGIN_RESOURCE {
        a.owner_uid = owner_uid;
    }
    d.deletion_policy = seen.deletion_policy.clone();
    if a.origin == ORIGIN_RESOURCE
        && let Some((bucket, prefix)) = &seen.location
    {
        d.bucket = bucket.clone();
        d.prefix = prefix.clone();
    }
    d.status = seen.observed.status.to_owned();
    d.status_message = seen.observed.message.clone();
    if let Some((count, bytes)) = usage {
        d.object_count = count;
        d.bytes = bytes;
    }
    new
}

/// Pure: whether the fields a resource decides are the same (the observed ones aside).
fn same_fields(a: &Dataset, b: &Dataset) -> bool {
    let strip = |d: &Dataset| {
        let mut d = d.clone();
        d.details.status.clear();
        d.details.status_message = None;
        d.details.object_count = 0;
        d.details.bytes = 0;
        d.asset.updated_at = 0;
        format!("{:?}|{:?}", d.asset, d.details)
    };
    strip(a) == strip(b)
}

fn observed(d: &DatasetRow) -> (&str, Option<&str>, i64, i64) {
    (&d.status, d.status_message.as_deref(), d.object_count, d.bytes)
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
        assert_eq!((none.status, none.usage), (rows::PENDING, None));

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
                status: rows::READY,
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
            (rows::FAILED, Some("no storage"))
        );
        let no_message = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(json!({"conditions": [condition("Degraded", "True", "Broken", "")]})),
        ));
        assert_eq!(no_message.message.as_deref(), Some("Broken"));

        let progressing = Observed::of(&cr(
            META(),
            spec.clone(),
            Some(json!({"conditions": [condition("Ready", "False", "Waiting", "soon")]})),
        ));
        assert_eq!(progressing.status, rows::PENDING);

        let mut deleting = META();
        deleting["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
        deleting["finalizers"] = json!([ludis_crds::FINALIZER_DATASET_CLEANUP]);
        let d = Observed::of(&cr(
            deleting,
            spec,
            Some(json!({"conditions": [condition("Ready", "True", "Available", "")]})),
        ));
        assert_eq!(d.status, rows::DELETING);
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
        assert_eq!(seen.deletion_policy, rows::DELETE);
        assert_eq!(seen.location, Some(("acme".into(), "datasets/abc/".into())));
        assert!(seen.sharing.is_some());
        let partial = Seen::of(&cr(
            META(),
            json!({"displayName": "S"}),
            Some(json!({"bucket": "acme"})),
        ));
        assert_eq!(partial.location, None, "a location needs both");
        assert_eq!(partial.deletion_policy, rows::RETAIN);
    }

    #[test]
    fn execute_is_view_for_datasets() {
        assert_eq!(level_of(AccessLevel::Execute), Level::View);
        assert_eq!(level_of(AccessLevel::View), Level::View);
        assert_eq!(level_of(AccessLevel::Edit), Level::Edit);
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
            "id-1",
            "org",
            Some("u1".into()),
            "ludis-acme",
            "sales",
            ("acme".into(), "datasets/x/".into()),
            5,
        );
        assert_eq!(new.asset.kind, KIND_DATASET);
        assert_eq!(new.asset.origin, ORIGIN_RESOURCE);
        assert_eq!(new.asset.img_path, None);
        assert_eq!(
            (
                new.details.status.as_str(),
                new.details.object_count,
                new.details.bytes
            ),
            (rows::READY, 2, 10)
        );
        assert_eq!(new.details.deletion_policy, rows::DELETE);

        // A console row keeps its location and its owner when the annotation names nobody;
        // usage changes only when given.
        let mut console = new.clone();
        console.asset.origin = ORIGIN_API.into();
        console.details.bucket = "ludis".into();
        console.details.prefix = "datasets/id-1/".into();
        console.details.object_count = 7;
        let renamed = Seen::of(&cr(
            META(),
            json!({"displayName": "Renamed"}),
            Some(json!({"bucket": "other", "prefix": "datasets/y/"})),
        ));
        let up = updated_dataset(&console, &renamed, None, "ludis-acme", "sales", None);
        assert_eq!(up.asset.name, "Renamed");
        assert_eq!(up.asset.owner_uid.as_deref(), Some("u1"));
        assert_eq!(
            (up.details.bucket.as_str(), up.details.prefix.as_str()),
            ("ludis", "datasets/id-1/")
        );
        assert_eq!(up.details.object_count, 7);
        assert_eq!(up.details.status, rows::PENDING);
        assert_eq!(up.details.deletion_policy, rows::RETAIN);
        assert!(!same_fields(&console, &up));

        // A resource row follows the operator's location and loses an owner nobody names.
        let up = updated_dataset(&new, &renamed, None, "ludis-acme", "sales", Some((1, 1)));
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
        let old = new_dataset(&seen, "id", "org", None, "ns", "s", ("b".into(), "p/".into()), 5);
        let mut new = old.clone();
        new.details.status = rows::FAILED.into();
        new.details.status_message = Some("x".into());
        new.details.object_count = 9;
        assert!(same_fields(&old, &new));
        assert_ne!(observed(&old.details), observed(&new.details));
        new.details.deletion_policy = rows::DELETE.into();
        assert!(!same_fields(&old, &new));
    }
}
