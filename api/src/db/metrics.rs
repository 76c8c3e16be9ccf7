//! What the metrics routes read from the sign-in events (`login_events`) and the activity log
//! (`activity`). An empty organization id means every organization.

use sqlx::{AnyPool, Row as _};

use crate::domain::ActivityEntity;

/// A stored entity type (only [`ActivityEntity`] names are ever written).
fn parse_entity(text: &str) -> Result<ActivityEntity, sqlx::Error> {
    text.parse().map_err(|e| sqlx::Error::ColumnDecode {
        index: "entity_type".into(),
        source: Box::new(e),
    })
}

/// The totals of a period (from `from` on) in an organization, or all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    pub logins: i64,
    pub failed_logins: i64,
    pub active_users: i64,
    pub total_users: i64,
    pub organizations: i64,
    pub activities: i64,
    /// Activities per entity type, by type.
    pub by_entity: Vec<(ActivityEntity, i64)>,
}

pub async fn totals(db: &AnyPool, organization_id: &str, from: i64) -> Result<Totals, sqlx::Error> {
    let since = |sql: &'static str| {
        sqlx::query_scalar::<_, i64>(sql)
            .bind(organization_id)
            .bind(from)
            .fetch_one(db)
    };
    let logins = since(
        "SELECT COUNT(*) FROM login_events WHERE ($1 = '' OR organization_id = $1) AND at >= $2 AND success = 1",
    )
    .await?;
    let failed_logins = since(
        "SELECT COUNT(*) FROM login_events WHERE ($1 = '' OR organization_id = $1) AND at >= $2 AND success = 0",
    )
    .await?;
    let active_users = since(
        "SELECT COUNT(DISTINCT user_uid) FROM login_events WHERE ($1 = '' OR organization_id = $1) AND at >= $2 AND success = 1",
    )
    .await?;
    let activities =
        since("SELECT COUNT(*) FROM activity WHERE ($1 = '' OR organization_id = $1) AND at >= $2").await?;
    let total_users =
        sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE ($1 = '' OR organization_id = $1)")
            .bind(organization_id)
            .fetch_one(db)
            .await?;
    let organizations = sqlx::query_scalar("SELECT COUNT(*) FROM organizations WHERE ($1 = '' OR id = $1)")
        .bind(organization_id)
        .fetch_one(db)
        .await?;
    let by_entity: Vec<(String, i64)> = sqlx::query_as(
        "SELECT entity_type, COUNT(*) FROM activity WHERE ($1 = '' OR organization_id = $1) AND at >= $2 \
         GROUP BY entity_type ORDER BY entity_type",
    )
    .bind(organization_id)
    .bind(from)
    .fetch_all(db)
    .await?;
    Ok(Totals {
        logins,
        failed_logins,
        active_users,
        total_users,
        organizations,
        activities,
        by_entity: by_entity
            .into_iter()
            .map(|(entity, n)| Ok((parse_entity(&entity)?, n)))
            .collect::<Result<_, sqlx::Error>>()?,
    })
}

/// The `limit` organizations with the most successful sign-ins since `from` (only
/// `organization_id`'s when it is not empty): `(id, sign-ins)`, busiest first.
pub async fn busiest_organizations(
    db: &AnyPool,
    organization_id: &str,
    from: i64,
    limit: i64,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT organization_id, COUNT(*) AS n FROM login_events \
         WHERE success = 1 AND at >= $1 AND organization_id IS NOT NULL AND ($2 = '' OR organization_id = $2) \
         GROUP BY organization_id ORDER BY n DESC, organization_id LIMIT $3",
    )
    .bind(from)
    .bind(organization_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Successful sign-ins per UTC day (`YYYY-MM-DD`) in an organization since `from`, by day.
pub async fn logins_per_day(
    db: &AnyPool,
    organization_id: &str,
    from: i64,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT day, COUNT(*) FROM login_events WHERE success = 1 AND at >= $1 AND organization_id = $2 \
         GROUP BY day ORDER BY day",
    )
    .bind(from)
    .bind(organization_id)
    .fetch_all(db)
    .await
}

/// One entry of the activity log, with the person who did it (if they still exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub entity_name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub action: String,
    /// Unix seconds.
    pub at: i64,
}

/// Which entries of the activity log [`entries`] reads.
pub struct EntryFilter<'a> {
    pub entity_type: ActivityEntity,
    pub from: i64,
    /// Empty: every organization.
    pub organization_id: &'a str,
    /// A `LIKE` pattern ([`super::like_pattern`]) on the entity's name and the person's names and
    /// e-mail; empty: all.
    pub pattern: &'a str,
}

/// A page of the activity log (newest first) and the number of entries that match.
pub async fn entries(
    db: &AnyPool,
    f: &EntryFilter<'_>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Entry>, i64), sqlx::Error> {
    let filter = "FROM activity a LEFT JOIN users u ON u.uid = a.user_uid \
         WHERE a.entity_type = $1 AND a.at >= $2 AND ($3 = '' OR a.organization_id = $3) \
         AND ($4 = '' OR LOWER(a.entity_name) LIKE $4 ESCAPE '\\' OR LOWER(u.email) LIKE $4 ESCAPE '\\' \
         OR LOWER(u.first_name) LIKE $4 ESCAPE '\\' OR LOWER(u.last_name) LIKE $4 ESCAPE '\\')";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) {filter}")))
        .bind(f.entity_type.as_str())
        .bind(f.from)
        .bind(f.organization_id)
        .bind(f.pattern)
        .fetch_one(db)
        .await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT a.entity_name, u.first_name, u.last_name, u.email, a.action, a.at {filter} \
         ORDER BY a.at DESC, a.id LIMIT $5 OFFSET $6"
    )))
    .bind(f.entity_type.as_str())
    .bind(f.from)
    .bind(f.organization_id)
    .bind(f.pattern)
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await?;
    let entries = rows
        .iter()
        .map(|r| {
            Ok(Entry {
                entity_name: r.try_get("entity_name")?,
                first_name: r.try_get("first_name")?,
                last_name: r.try_get("last_name")?,
                email: r.try_get("email")?,
                action: r.try_get("action")?,
                at: r.try_get("at")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok((entries, total))
}

/// The `limit` entities of a type with the most activities in an organization since `from`:
/// `(id, latest name, activities)`, most used first.
pub async fn most_used(
    db: &AnyPool,
    organization_id: &str,
    entity_type: ActivityEntity,
    from: i64,
    limit: i64,
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT entity_id, MAX(entity_name) AS entity_name, COUNT(*) AS n FROM activity \
         WHERE organization_id = $1 AND entity_type = $2 AND at >= $3 \
         GROUP BY entity_id ORDER BY n DESC, entity_id LIMIT $4",
    )
    .bind(organization_id)
    .bind(entity_type.as_str())
    .bind(from)
    .bind(limit)
    .fetch_all(db)
    .await
}
