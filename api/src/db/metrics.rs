//! What the metrics routes read from the sign-in events (`login_events`) and the activity log
//! (`activity`). An empty organization id means every organization.

use std::str::FromStr;

use sqlx::{AnyPool, Row as _};

use crate::domain::{ActivityAction, ActivityEntity, Figure, Unknown};

/// A stored name of one of the domain's sets (only their names are ever written).
fn parse<T: FromStr<Err = Unknown>>(text: &str, column: &str) -> Result<T, sqlx::Error> {
    text.parse().map_err(|e: Unknown| sqlx::Error::ColumnDecode {
        index: column.into(),
        source: Box::new(e),
    })
}

/// The successful sign-ins every sign-in figure counts: into the organization `$1` (every
/// organization when empty, deleted ones included) from `$2` on. The Logins tile counts them, the
/// Logins chart splits them by organization and day, and Active users are the accounts among them.
const SIGN_INS: &str =
    "FROM login_events e WHERE e.success = 1 AND ($1 = '' OR e.organization_id = $1) AND e.at >= $2";

/// The figures of a period (from `from` on) in an organization, or all (empty id). Each is
/// described by its [`Figure`](crate::domain::Figure) definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    pub logins: i64,
    pub failed_logins: i64,
    /// Accounts that exist now, of the organization, among those who signed in.
    pub active_users: i64,
    pub total_users: i64,
    pub organizations: i64,
    pub activities: i64,
    /// Activities per entity type, by type.
    pub by_entity: Vec<(ActivityEntity, i64)>,
}

impl Totals {
    /// The value of an overview figure (`None` for a figure counted elsewhere).
    pub const fn figure(&self, figure: Figure) -> Option<i64> {
        Some(match figure {
            Figure::Logins => self.logins,
            Figure::FailedLogins => self.failed_logins,
            Figure::ActiveUsers => self.active_users,
            Figure::TotalUsers => self.total_users,
            Figure::Organizations => self.organizations,
            Figure::Activities => self.activities,
            Figure::SeatsInUse => return None,
        })
    }
}

pub async fn totals(db: &AnyPool, organization_id: &str, from: i64) -> Result<Totals, sqlx::Error> {
    let count = |sql: String| {
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
            .bind(organization_id)
            .bind(from)
            .fetch_one(db)
    };
    let logins = count(format!("SELECT COUNT(*) {SIGN_INS}")).await?;
    let failed_logins = count(
        "SELECT COUNT(*) FROM login_events WHERE ($1 = '' OR organization_id = $1) AND at >= $2 AND success = 0"
            .into(),
    )
    .await?;
    // The accounts of Total users (same organization condition) that signed in: never more.
    let active_users = count(format!(
        "SELECT COUNT(*) FROM users u WHERE ($1 = '' OR u.organization_id = $1) \
         AND u.uid IN (SELECT e.user_uid {SIGN_INS})"
    ))
    .await?;
    let activities =
        count("SELECT COUNT(*) FROM activity WHERE ($1 = '' OR organization_id = $1) AND at >= $2".into())
            .await?;
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
            .map(|(entity, n)| Ok((parse(&entity, "entity_type")?, n)))
            .collect::<Result<_, sqlx::Error>>()?,
    })
}

/// The sign-ins of one organization on one UTC day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayLogins {
    /// `None` only for an event recorded without an organization.
    pub organization_id: Option<String>,
    /// `None`: the organization has been deleted since.
    pub organization_name: Option<String>,
    /// `YYYY-MM-DD`.
    pub day: String,
    pub logins: i64,
}

/// The sign-ins the Logins figure counts ([`SIGN_INS`]), per organization and UTC day, by day.
pub async fn logins_per_organization_and_day(
    db: &AnyPool,
    organization_id: &str,
    from: i64,
) -> Result<Vec<DayLogins>, sqlx::Error> {
    let rows: Vec<(Option<String>, Option<String>, String, i64)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT e.organization_id, (SELECT o.name FROM organizations o WHERE o.id = e.organization_id), \
         e.day, COUNT(*) {SIGN_INS} GROUP BY e.organization_id, e.day ORDER BY e.day, e.organization_id"
        )))
        .bind(organization_id)
        .bind(from)
        .fetch_all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(organization_id, organization_name, day, logins)| DayLogins {
            organization_id,
            organization_name,
            day,
            logins,
        })
        .collect())
}

/// One entry of the activity log, with the person who did it (if they still exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub entity_type: ActivityEntity,
    pub entity_id: String,
    /// The name at the time of the action.
    pub entity_name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub action: ActivityAction,
    /// Unix seconds.
    pub at: i64,
}

/// Which entries of the activity log [`entries`] reads.
pub struct EntryFilter<'a> {
    /// `None`: every entity type.
    pub entity_type: Option<ActivityEntity>,
    pub from: i64,
    /// Empty: every organization.
    pub organization_id: &'a str,
    /// A `LIKE` pattern ([`super::like_pattern`]) on the entity's name and the person's names and
    /// e-mail; empty: all.
    pub pattern: &'a str,
}

/// A page of the activity log (newest first: by second, then by the time-ordered id) and the
/// number of entries that match.
pub async fn entries(
    db: &AnyPool,
    f: &EntryFilter<'_>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Entry>, i64), sqlx::Error> {
    let filter = "FROM activity a LEFT JOIN users u ON u.uid = a.user_uid \
         WHERE ($1 = '' OR a.entity_type = $1) AND a.at >= $2 AND ($3 = '' OR a.organization_id = $3) \
         AND ($4 = '' OR LOWER(a.entity_name) LIKE $4 ESCAPE '\\' OR LOWER(u.email) LIKE $4 ESCAPE '\\' \
         OR LOWER(u.first_name) LIKE $4 ESCAPE '\\' OR LOWER(u.last_name) LIKE $4 ESCAPE '\\')";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) {filter}")))
        .bind(f.entity_type.map_or("", ActivityEntity::as_str))
        .bind(f.from)
        .bind(f.organization_id)
        .bind(f.pattern)
        .fetch_one(db)
        .await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT a.entity_type, a.entity_id, a.entity_name, u.first_name, u.last_name, u.email, a.action, a.at {filter} \
         ORDER BY a.at DESC, a.id DESC LIMIT $5 OFFSET $6"
    )))
    .bind(f.entity_type.map_or("", ActivityEntity::as_str))
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
                entity_type: parse(&r.try_get::<String, _>("entity_type")?, "entity_type")?,
                entity_id: r.try_get("entity_id")?,
                entity_name: r.try_get("entity_name")?,
                first_name: r.try_get("first_name")?,
                last_name: r.try_get("last_name")?,
                email: r.try_get("email")?,
                action: parse(&r.try_get::<String, _>("action")?, "action")?,
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
