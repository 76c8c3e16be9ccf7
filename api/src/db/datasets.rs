//! The `datasets` table: where a dataset's objects are (bucket and prefix), what the operator last
//! measured (object count, bytes), its deletion policy and whether it is a seeded sample, beside
//! its `assets` row (kind `dataset`).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::assets::{self, AssetRow};

/// Statuses: storage not confirmed yet, ready, being deleted, or the operator reported a failure.
pub const PENDING: &str = "pending";
pub const READY: &str = "ready";
pub const DELETING: &str = "deleting";
pub const FAILED: &str = "failed";

/// Deletion policies (the CR's `deletionPolicy`).
pub const RETAIN: &str = "Retain";
pub const DELETE: &str = "Delete";

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DatasetRow {
    pub id: String,
    pub bucket: String,
    pub prefix: String,
    pub deletion_policy: String,
    pub status: String,
    pub status_message: Option<String>,
    pub object_count: i64,
    pub bytes: i64,
    pub sample: Option<String>,
}

const COLUMNS: &str =
    "d.bucket, d.prefix, d.deletion_policy, d.status, d.status_message, d.object_count, d.bytes, d.sample";

impl DatasetRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            bucket: r.try_get("bucket")?,
            prefix: r.try_get("prefix")?,
            deletion_policy: r.try_get("deletion_policy")?,
            status: r.try_get("status")?,
            status_message: r.try_get("status_message")?,
            object_count: r.try_get("object_count")?,
            bytes: r.try_get("bytes")?,
            sample: r.try_get("sample")?,
        })
    }

    pub fn deletes_data(&self) -> bool {
        self.deletion_policy == DELETE
    }
}

/// A dataset: its asset row and its details.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub asset: AssetRow,
    pub details: DatasetRow,
}

async fn write<'e, E>(exec: E, d: &DatasetRow, insert: bool) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let sql = if insert {
        "INSERT INTO datasets (id, bucket, prefix, deletion_policy, status, status_message, object_count, bytes, sample) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    } else {
        "UPDATE datasets SET bucket = $2, prefix = $3, deletion_policy = $4, status = $5, status_message = $6, \
         object_count = $7, bytes = $8, sample = $9 WHERE id = $1"
    };
    sqlx::query(sql)
        .bind(&d.id)
        .bind(&d.bucket)
        .bind(&d.prefix)
        .bind(&d.deletion_policy)
        .bind(&d.status)
        .bind(&d.status_message)
        .bind(d.object_count)
        .bind(d.bytes)
        .bind(&d.sample)
        .execute(exec)
        .await?;
    Ok(())
}

/// Inserts both rows in one transaction.
pub async fn insert(db: &AnyPool, d: &Dataset) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    assets::insert(&mut *tx, &d.asset).await?;
    write(&mut *tx, &d.details, true).await?;
    tx.commit().await
}

/// Inserts both rows and a console share of the whole organization at view, in one transaction
/// (sample datasets: no owner, read-only for the organization's members).
pub async fn insert_shared_with_organization(db: &AnyPool, d: &Dataset, now: i64) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    assets::insert(&mut *tx, &d.asset).await?;
    write(&mut *tx, &d.details, true).await?;
    sqlx::query(
        "INSERT INTO shares (id, asset_id, to_type, to_id, level, origin, from_user_uid, created_at, updated_at) \
         VALUES ($1, $2, 'organization', $3, $4, 'console', NULL, $5, $5)",
    )
    .bind(super::new_id())
    .bind(&d.asset.id)
    .bind(&d.asset.organization_id)
    .bind(crate::policy::sharing::Level::View.rank())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Updates both rows in one transaction.
pub async fn update(db: &AnyPool, d: &Dataset) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    assets::update(&mut *tx, &d.asset).await?;
    write(&mut *tx, &d.details, false).await?;
    tx.commit().await
}

/// Inserts or updates both rows, and replaces the resource share entries, in one transaction
/// (the resource watcher's write).
pub async fn upsert_with_resource_shares(
    db: &AnyPool,
    d: &Dataset,
    exists: bool,
    shares: &[super::shares::Entry<'_>],
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    if exists {
        assets::update(&mut *tx, &d.asset).await?;
        write(&mut *tx, &d.details, false).await?;
    } else {
        assets::insert(&mut *tx, &d.asset).await?;
        write(&mut *tx, &d.details, true).await?;
    }
    super::shares::replace_resource(&mut tx, &d.asset.id, shares, now).await?;
    tx.commit().await
}

/// Sets what the operator (or a measurement by the API) observed.
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: &str,
    message: Option<&str>,
    usage: Option<(i64, i64)>,
) -> Result<(), sqlx::Error> {
    match usage {
        Some((count, bytes)) => {
            sqlx::query(
                "UPDATE datasets SET status = $2, status_message = $3, object_count = $4, bytes = $5 WHERE id = $1",
            )
            .bind(id)
            .bind(status)
            .bind(message)
            .bind(count)
            .bind(bytes)
            .execute(db)
            .await?
        }
        None => {
            sqlx::query("UPDATE datasets SET status = $2, status_message = $3 WHERE id = $1")
                .bind(id)
                .bind(status)
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

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<Dataset>, sqlx::Error> {
    let sql = format!(
        "SELECT {}, {COLUMNS} FROM assets a JOIN datasets d ON d.id = a.id WHERE a.id = $1",
        assets::COLUMNS
    );
    match sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?
    {
        Some(r) => Ok(Some(Dataset {
            asset: AssetRow::from_row(&r)?,
            details: DatasetRow::from_row(&r)?,
        })),
        None => Ok(None),
    }
}

/// The details of several datasets (for a listed page), in no particular order.
pub async fn details_of(db: &AnyPool, ids: &[String]) -> Result<Vec<DatasetRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT d.id, {COLUMNS} FROM datasets d WHERE d.id IN ({})",
        placeholders.join(", ")
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id.as_str());
    }
    q.fetch_all(db).await?.iter().map(DatasetRow::from_row).collect()
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
    let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT s.asset_id, s.to_id, MAX(s.level) AS level FROM shares s \
         JOIN assets a ON a.id = s.asset_id JOIN users u ON u.uid = s.to_id AND u.organization_id = a.organization_id \
         WHERE s.to_type = 'user' AND s.level > 0 AND s.asset_id IN ({}) \
         GROUP BY s.asset_id, s.to_id ORDER BY s.asset_id, level DESC, s.to_id",
        placeholders.join(", ")
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

/// The samples an organization was given (whether or not it still has them).
pub async fn seeded_samples(db: &AnyPool, organization_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT sample FROM sample_seeds WHERE organization_id = $1")
        .bind(organization_id)
        .fetch_all(db)
        .await
}
