//! The `datasets` table: where a dataset's objects are (bucket and prefix), what the operator last
//! measured (object count, bytes), its deletion policy and whether it is a seeded sample, beside
//! its `assets` row (kind `dataset`).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::{
    details::{AnyQuery, Details, WithDetails},
    named,
};
use crate::domain::{AssetKind, DatasetStatus, DeletionPolicy};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DatasetRow {
    pub id: String,
    pub bucket: String,
    pub prefix: String,
    pub deletion_policy: DeletionPolicy,
    pub status: DatasetStatus,
    pub status_message: Option<String>,
    pub object_count: i64,
    pub bytes: i64,
    pub sample: Option<String>,
}

impl Details for DatasetRow {
    const KIND: AssetKind = AssetKind::Dataset;
    const COLUMNS: &'static [&'static str] = &[
        "bucket",
        "prefix",
        "deletion_policy",
        "status",
        "status_message",
        "object_count",
        "bytes",
        "sample",
    ];

    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            bucket: r.try_get("bucket")?,
            prefix: r.try_get("prefix")?,
            deletion_policy: named(r, "deletion_policy")?,
            status: named(r, "status")?,
            status_message: r.try_get("status_message")?,
            object_count: r.try_get("object_count")?,
            bytes: r.try_get("bytes")?,
            sample: r.try_get("sample")?,
        })
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn bind<'q>(&'q self, q: AnyQuery<'q>) -> AnyQuery<'q> {
        q.bind(&self.bucket)
            .bind(&self.prefix)
            .bind(self.deletion_policy.as_str())
            .bind(self.status.as_str())
            .bind(&self.status_message)
            .bind(self.object_count)
            .bind(self.bytes)
            .bind(&self.sample)
    }
}

impl DatasetRow {
    /// The details of a new dataset whose objects are at `(bucket, prefix)`: `pending` until the
    /// operator confirms its storage, `ready` at once when it has no resource (no cluster).
    pub fn new(id: String, (bucket, prefix): (String, String), has_resource: bool) -> Self {
        Self {
            id,
            bucket,
            prefix,
            status: if has_resource {
                DatasetStatus::Pending
            } else {
                DatasetStatus::Ready
            },
            ..Self::default()
        }
    }

    pub fn deletes_data(&self) -> bool {
        self.deletion_policy == DeletionPolicy::Delete
    }
}

/// A dataset: its asset row and its details.
pub type Dataset = WithDetails<DatasetRow>;

/// Sets what the operator (or a measurement by the API) observed.
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: DatasetStatus,
    message: Option<&str>,
    usage: Option<(i64, i64)>,
) -> Result<(), sqlx::Error> {
    match usage {
        Some((count, bytes)) => {
            sqlx::query(
                "UPDATE datasets SET status = $2, status_message = $3, object_count = $4, bytes = $5 WHERE id = $1",
            )
            .bind(id)
            .bind(status.as_str())
            .bind(message)
            .bind(count)
            .bind(bytes)
            .execute(db)
            .await?
        }
        None => {
            sqlx::query("UPDATE datasets SET status = $2, status_message = $3 WHERE id = $1")
                .bind(id)
                .bind(status.as_str())
                .bind(message)
                .execute(db)
                .await?
        }
    };
    Ok(())
}

/// Sets the measured usage and touches the asset's `updated_at` (after a write by the API).
pub async fn set_usage(db: &AnyPool, id: &str, count: i64, bytes: i64, now: i64) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE datasets SET object_count = $2, bytes = $3 WHERE id = $1")
        .bind(id)
        .bind(count)
        .bind(bytes)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE assets SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// The dataset whose objects are at `bucket`/`prefix`, if any.
pub async fn at_location(db: &AnyPool, bucket: &str, prefix: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM datasets WHERE bucket = $1 AND prefix = $2 LIMIT 1")
        .bind(bucket)
        .bind(prefix)
        .fetch_optional(db)
        .await
}

/// The people (not organizations) each of some datasets is shared with: `(dataset id, uid)`,
/// highest entries first, at most `per` per dataset. Only members of the dataset's organization
/// (shares reach no one else).
pub async fn shared_people(
    db: &AnyPool,
    ids: &[String],
    per: usize,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT s.asset_id, s.to_id, MAX(s.level) AS level FROM shares s \
         JOIN assets a ON a.id = s.asset_id JOIN users u ON u.uid = s.to_id AND u.organization_id = a.organization_id \
         WHERE s.to_type = 'user' AND s.level > 0 AND s.asset_id IN ({}) \
         GROUP BY s.asset_id, s.to_id ORDER BY s.asset_id, level DESC, s.to_id",
        super::placeholders(1, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id.as_str());
    }
    let mut out: Vec<(String, String)> = Vec::new();
    let mut count = 0;
    for r in q.fetch_all(db).await? {
        let asset: String = r.try_get("asset_id")?;
        if out.last().is_none_or(|(a, _)| *a != asset) {
            count = 0;
        }
        count += 1;
        if count <= per {
            out.push((asset, r.try_get("to_id")?));
        }
    }
    Ok(out)
}

/// Records that a sample was given to an organization (so one its administrators deleted is not
/// given again). Returns false when it was recorded before.
pub async fn record_sample_seed(
    db: &AnyPool,
    organization_id: &str,
    sample: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO sample_seeds (organization_id, sample, seeded_at) VALUES ($1, $2, $3) \
         ON CONFLICT (organization_id, sample) DO NOTHING",
    )
    .bind(organization_id)
    .bind(sample)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected();
    Ok(done > 0)
}

/// Lets go of an organization's claim on a sample (it could not be made).
pub async fn forget_sample_seed(
    db: &AnyPool,
    organization_id: &str,
    sample: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sample_seeds WHERE organization_id = $1 AND sample = $2")
        .bind(organization_id)
        .bind(sample)
        .execute(db)
        .await?;
    Ok(())
}

/// The samples an organization was given (whether or not it still has them).
pub async fn seeded_samples(db: &AnyPool, organization_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT sample FROM sample_seeds WHERE organization_id = $1")
        .bind(organization_id)
        .fetch_all(db)
        .await
}
