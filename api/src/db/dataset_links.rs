//! The `dataset_links` table: temporary links to dataset files that anyone holding them may use
//! (no key), kept so that the dataset's editors can list and revoke them. The token itself is
//! never stored, only its SHA-256.

use sqlx::{AnyPool, Row as _, any::AnyRow};

/// A temporary link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRow {
    pub id: String,
    pub dataset_id: String,
    /// The file, relative to the dataset.
    pub object_key: String,
    pub created_by: String,
    pub created_at: i64,
    pub expires_at: i64,
}

const COLUMNS: &str = "id, dataset_id, object_key, created_by, created_at, expires_at";

impl LinkRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            dataset_id: r.try_get("dataset_id")?,
            object_key: r.try_get("object_key")?,
            created_by: r.try_get("created_by")?,
            created_at: r.try_get("created_at")?,
            expires_at: r.try_get("expires_at")?,
        })
    }
}

/// Stores `link`, reached by the token whose SHA-256 is `token_hash`.
pub async fn insert(db: &AnyPool, link: &LinkRow, token_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO dataset_links (id, token_hash, dataset_id, object_key, created_by, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&link.id)
    .bind(token_hash)
    .bind(&link.dataset_id)
    .bind(&link.object_key)
    .bind(&link.created_by)
    .bind(link.created_at)
    .bind(link.expires_at)
    .execute(db)
    .await?;
    Ok(())
}

/// The unexpired link of a token's SHA-256 at `now`.
pub async fn by_token_hash(db: &AnyPool, token_hash: &str, now: i64) -> Result<Option<LinkRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM dataset_links WHERE token_hash = $1 AND expires_at > $2");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(token_hash)
        .bind(now)
        .fetch_optional(db)
        .await?
        .as_ref()
        .map(LinkRow::from_row)
        .transpose()
}

/// A dataset's unexpired links at `now`, newest first; the expired ones are deleted.
pub async fn of_dataset(db: &AnyPool, dataset_id: &str, now: i64) -> Result<Vec<LinkRow>, sqlx::Error> {
    sqlx::query("DELETE FROM dataset_links WHERE dataset_id = $1 AND expires_at <= $2")
        .bind(dataset_id)
        .bind(now)
        .execute(db)
        .await?;
    let sql =
        format!("SELECT {COLUMNS} FROM dataset_links WHERE dataset_id = $1 ORDER BY created_at DESC, id");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(dataset_id)
        .fetch_all(db)
        .await?
        .iter()
        .map(LinkRow::from_row)
        .collect()
}

/// Deletes link `id` of dataset `dataset_id`; false when there is none.
pub async fn delete(db: &AnyPool, dataset_id: &str, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM dataset_links WHERE dataset_id = $1 AND id = $2")
        .bind(dataset_id)
        .bind(id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() > 0)
}
