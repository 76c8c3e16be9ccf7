//! The `organizations` and `buckets` tables.

use std::collections::HashMap;

use sqlx::{AnyPool, Row as _, any::AnyRow};

#[derive(Debug, Clone)]
pub struct OrganizationRow {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub admin_email: String,
    pub description: String,
    pub tier: String,
    pub max_seats: i64,
    pub bucket_id: Option<String>,
    pub is_2fa_required: bool,
    pub created_at: i64,
    /// Running previews, notebook servers and apps stop after this many minutes without use
    /// (0: never; [`crate::idle`]).
    pub idle_minutes: i64,
    /// Whether an app's owner may pin it always on (never scaled to zero when idle).
    pub allow_always_on: bool,
}

const COLUMNS: &str = "id, name, slug, admin_email, description, tier, max_seats, bucket_id, is_2fa_required, created_at, \
     idle_minutes, allow_always_on";

impl OrganizationRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            admin_email: r.try_get("admin_email")?,
            description: r.try_get("description")?,
            tier: r.try_get("tier")?,
            max_seats: r.try_get("max_seats")?,
            bucket_id: r.try_get("bucket_id")?,
            is_2fa_required: r.try_get::<i64, _>("is_2fa_required")? != 0,
            created_at: r.try_get("created_at")?,
            idle_minutes: r.try_get("idle_minutes")?,
            allow_always_on: r.try_get::<i64, _>("allow_always_on")? != 0,
        })
    }
}

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<OrganizationRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM organizations WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?
    .map(|r| OrganizationRow::from_row(&r))
    .transpose()
}

/// The names of organizations by id (ids of deleted organizations are absent).
pub async fn names(db: &AnyPool, ids: &[&str]) -> Result<HashMap<String, String>, sqlx::Error> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT id, name FROM organizations WHERE id IN ({})",
        super::placeholders(1, ids.len())
    );
    let mut q = sqlx::query_as::<_, (String, String)>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(db).await?.into_iter().collect())
}

pub async fn by_name(db: &AnyPool, name: &str) -> Result<Option<OrganizationRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM organizations WHERE name = $1"
    )))
    .bind(name)
    .fetch_optional(db)
    .await?
    .map(|r| OrganizationRow::from_row(&r))
    .transpose()
}

pub async fn slug_taken(db: &AnyPool, slug: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM organizations WHERE slug = $1")
        .bind(slug)
        .fetch_one(db)
        .await?;
    Ok(n > 0)
}

/// A page of organizations by name; `only` restricts to one id.
pub async fn list(
    db: &AnyPool,
    only: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<OrganizationRow>, i64), sqlx::Error> {
    let (filter, total) = match only {
        Some(id) => (
            "WHERE id = $1",
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM organizations WHERE id = $1")
                .bind(id)
                .fetch_one(db)
                .await?,
        ),
        None => (
            "WHERE $1 = $1",
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM organizations")
                .fetch_one(db)
                .await?,
        ),
    };
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM organizations {filter} ORDER BY name LIMIT $2 OFFSET $3"
    )))
    .bind(only.unwrap_or(""))
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await?;
    Ok((
        rows.iter()
            .map(OrganizationRow::from_row)
            .collect::<Result<_, _>>()?,
        total,
    ))
}

pub async fn insert(db: &AnyPool, o: &OrganizationRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO organizations (id, name, slug, admin_email, description, tier, max_seats, bucket_id, \
         is_2fa_required, created_at, idle_minutes, allow_always_on) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&o.id)
    .bind(&o.name)
    .bind(&o.slug)
    .bind(&o.admin_email)
    .bind(&o.description)
    .bind(&o.tier)
    .bind(o.max_seats)
    .bind(o.bucket_id.as_deref())
    .bind(i64::from(o.is_2fa_required))
    .bind(o.created_at)
    .bind(o.idle_minutes)
    .bind(i64::from(o.allow_always_on))
    .execute(db)
    .await?;
    Ok(())
}

pub async fn update(db: &AnyPool, o: &OrganizationRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE organizations SET name = $2, admin_email = $3, description = $4, tier = $5, max_seats = $6, \
         bucket_id = $7, is_2fa_required = $8, idle_minutes = $9, allow_always_on = $10 WHERE id = $1",
    )
    .bind(&o.id)
    .bind(&o.name)
    .bind(&o.admin_email)
    .bind(&o.description)
    .bind(&o.tier)
    .bind(o.max_seats)
    .bind(o.bucket_id.as_deref())
    .bind(i64::from(o.is_2fa_required))
    .bind(o.idle_minutes)
    .bind(i64::from(o.allow_always_on))
    .execute(db)
    .await?;
    Ok(())
}

pub async fn delete(db: &AnyPool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM organizations WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Active users per organization: (id, name, max_seats, active users).
pub async fn active_user_counts(
    db: &AnyPool,
    only: Option<&str>,
) -> Result<Vec<(String, String, i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT o.id, o.name, o.max_seats, \
         (SELECT COUNT(*) FROM users u WHERE u.organization_id = o.id AND u.status = 'active') AS active \
         FROM organizations o WHERE ($1 = '' OR o.id = $1) ORDER BY o.name",
    )
    .bind(only.unwrap_or(""))
    .fetch_all(db)
    .await
}

#[derive(Debug, Clone)]
pub struct BucketRow {
    pub id: String,
    pub name: String,
    pub region: String,
}

pub async fn buckets(db: &AnyPool) -> Result<Vec<BucketRow>, sqlx::Error> {
    let rows: Vec<(String, String, String)> =
        sqlx::query_as("SELECT id, name, region FROM buckets ORDER BY name")
            .fetch_all(db)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, region)| BucketRow { id, name, region })
        .collect())
}

pub async fn bucket(db: &AnyPool, id: &str) -> Result<Option<BucketRow>, sqlx::Error> {
    let row: Option<(String, String, String)> =
        sqlx::query_as("SELECT id, name, region FROM buckets WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(id, name, region)| BucketRow { id, name, region }))
}

/// Registers a bucket by name (idempotent); returns its id.
pub async fn ensure_bucket(db: &AnyPool, name: &str, region: &str) -> Result<String, sqlx::Error> {
    sqlx::query("INSERT INTO buckets (id, name, region) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING")
        .bind(super::new_id())
        .bind(name)
        .bind(region)
        .execute(db)
        .await?;
    sqlx::query_scalar("SELECT id FROM buckets WHERE name = $1")
        .bind(name)
        .fetch_one(db)
        .await
}

/// Sets whether the organization requires 2FA of its users.
pub async fn set_2fa_required(db: &AnyPool, id: &str, required: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE organizations SET is_2fa_required = $1 WHERE id = $2")
        .bind(i64::from(required))
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// The addresses outside organization `id` its administrators allow workflows to e-mail.
pub async fn mail_allowlist(db: &AnyPool, id: &str) -> Result<Vec<String>, sqlx::Error> {
    let listed: Option<String> = sqlx::query_scalar("SELECT mail_allowlist FROM organizations WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(listed
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Replaces the addresses outside organization `id` that workflows may e-mail.
pub async fn set_mail_allowlist(db: &AnyPool, id: &str, addresses: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE organizations SET mail_allowlist = $1 WHERE id = $2")
        .bind(addresses.join("\n"))
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// The id of the organization with this slug (its namespace is `ludis-<slug>`).
pub async fn id_by_slug(db: &AnyPool, slug: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM organizations WHERE slug = $1")
        .bind(slug)
        .fetch_optional(db)
        .await
}
