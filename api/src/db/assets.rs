//! The `assets` table: one row per shareable object of any kind (owner, organization, name, the
//! custom resource it mirrors), the facts the access rule needs, and the list query every kind's
//! listing uses (filter, sort, search, page) with the caller's level computed in SQL by the same
//! rule as [`crate::policy::sharing::access`].

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::named;
use crate::domain::{AccessLevel, AssetKind, Origin};

#[derive(Debug, Clone)]
pub struct AssetRow {
    pub id: String,
    pub kind: AssetKind,
    pub organization_id: String,
    pub owner_uid: Option<String>,
    pub name: String,
    pub description: String,
    pub img_path: Option<String>,
    pub namespace: Option<String>,
    pub resource_name: Option<String>,
    pub origin: Origin,
    pub views: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

pub const COLUMNS: &str = "a.id, a.kind, a.organization_id, a.owner_uid, a.name, a.description, a.img_path, \
    a.namespace, a.resource_name, a.origin, a.views, a.created_at, a.updated_at";

impl AssetRow {
    /// A new row of `kind` made through the API at `now`: no owner, description, image or
    /// resource yet (set them with struct update syntax and [`AssetRow::placed`]).
    pub fn new(kind: AssetKind, id: String, organization_id: String, name: String, now: i64) -> Self {
        Self {
            id,
            kind,
            organization_id,
            owner_uid: None,
            name,
            description: String::new(),
            img_path: None,
            namespace: None,
            resource_name: None,
            origin: Origin::Api,
            views: 0,
            created_at: now,
            updated_at: now,
        }
    }

    /// The row with its resource's place, `(namespace, name)`, when it has one.
    pub fn placed(self, at: Option<(String, String)>) -> Self {
        let (namespace, resource_name) = at.unzip();
        Self {
            namespace,
            resource_name,
            ..self
        }
    }

    pub fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            kind: named(r, "kind")?,
            organization_id: r.try_get("organization_id")?,
            owner_uid: r.try_get("owner_uid")?,
            name: r.try_get("name")?,
            description: r.try_get("description")?,
            img_path: r.try_get("img_path")?,
            namespace: r.try_get("namespace")?,
            resource_name: r.try_get("resource_name")?,
            origin: named(r, "origin")?,
            views: r.try_get("views")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }

    /// The custom resource it mirrors: `(namespace, name)`, when it has one.
    pub fn resource(&self) -> Option<(&str, &str)> {
        Some((self.namespace.as_deref()?, self.resource_name.as_deref()?))
    }

    /// Applied with kubectl or GitOps: the custom resource is the source of its fields.
    pub fn is_managed(&self) -> bool {
        self.origin == Origin::Resource
    }
}

fn search_text(name: &str, description: &str) -> String {
    format!("{name} {description}").to_lowercase()
}

/// Inserts the row (inside the caller's transaction or on the pool).
pub async fn insert<'e, E>(exec: E, a: &AssetRow) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO assets (id, kind, organization_id, owner_uid, name, search_text, description, img_path, \
         namespace, resource_name, origin, views, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(&a.id)
    .bind(a.kind.as_str())
    .bind(&a.organization_id)
    .bind(&a.owner_uid)
    .bind(&a.name)
    .bind(search_text(&a.name, &a.description))
    .bind(&a.description)
    .bind(&a.img_path)
    .bind(&a.namespace)
    .bind(&a.resource_name)
    .bind(a.origin.as_str())
    .bind(a.views)
    .bind(a.created_at)
    .bind(a.updated_at)
    .execute(exec)
    .await?;
    Ok(())
}

/// Updates the fields every kind shares (name, description, image, owner, resource, origin).
pub async fn update<'e, E>(exec: E, a: &AssetRow) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "UPDATE assets SET owner_uid = $2, name = $3, search_text = $4, description = $5, img_path = $6, \
         namespace = $7, resource_name = $8, origin = $9, updated_at = $10 WHERE id = $1",
    )
    .bind(&a.id)
    .bind(&a.owner_uid)
    .bind(&a.name)
    .bind(search_text(&a.name, &a.description))
    .bind(&a.description)
    .bind(&a.img_path)
    .bind(&a.namespace)
    .bind(&a.resource_name)
    .bind(a.origin.as_str())
    .bind(a.updated_at)
    .execute(exec)
    .await?;
    Ok(())
}

/// Records that row `id` reflects version `generation` of resource `uid`, unless it already
/// reflects a newer version of that same resource: false then, and nothing changes. The API
/// records each version it applies; the watcher mirrors a version only when it can record it, so
/// an event that arrives after the API changed the resource again is never written over the row.
/// (A resource recreated under the same name has another uid: its versions start again.)
pub async fn claim_generation<'e, E>(
    exec: E,
    id: &str,
    uid: &str,
    generation: i64,
) -> Result<bool, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let done = sqlx::query(
        "UPDATE assets SET resource_uid = $2, resource_generation = $3 WHERE id = $1 \
         AND (resource_uid IS NULL OR resource_uid <> $2 OR resource_generation <= $3)",
    )
    .bind(id)
    .bind(uid)
    .bind(generation)
    .execute(exec)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<AssetRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM assets a WHERE a.id = $1");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?
        .map(|r| AssetRow::from_row(&r))
        .transpose()
}

/// The asset mirroring a custom resource.
pub async fn by_resource(
    db: &AnyPool,
    kind: AssetKind,
    namespace: &str,
    name: &str,
) -> Result<Option<AssetRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM assets a WHERE a.kind = $1 AND a.namespace = $2 AND a.resource_name = $3"
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(kind.as_str())
        .bind(namespace)
        .bind(name)
        .fetch_optional(db)
        .await?
        .map(|r| AssetRow::from_row(&r))
        .transpose()
}

/// Deletes the asset and, by cascade, its details, shares, pins, views and comments.
pub async fn delete(db: &AnyPool, id: &str) -> Result<bool, sqlx::Error> {
    // Pins first, explicitly: deleting a pinned app unpins it first (spec 001 §4).
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM pins WHERE asset_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let done = sqlx::query("DELETE FROM assets WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected()
        > 0;
    tx.commit().await?;
    Ok(done)
}

/// The shares that concern one caller on one asset: their own entries' highest level and the
/// organization entries' highest level (only the caller's organization's entry counts).
pub async fn caller_shares(
    db: &AnyPool,
    asset_id: &str,
    uid: &str,
    organization_id: &str,
) -> Result<crate::policy::sharing::Shares, sqlx::Error> {
    let row = sqlx::query(
        "SELECT \
           (SELECT MAX(s.level) FROM shares s WHERE s.asset_id = $1 AND s.to_type = 'user' AND s.to_id = $2) AS user_level, \
           (SELECT MAX(s.level) FROM shares s WHERE s.asset_id = $1 AND s.to_type = 'organization' AND s.to_id = $3) AS org_level",
    )
    .bind(asset_id)
    .bind(uid)
    .bind(organization_id)
    .fetch_one(db)
    .await?;
    let level = |v: Option<i64>| v.map(AccessLevel::from_rank);
    Ok(crate::policy::sharing::Shares {
        user: level(row.try_get("user_level")?),
        organization: level(row.try_get("org_level")?),
    })
}

/// Counts a view by `uid`, at most once per user per `window` seconds. Returns the new count.
pub async fn count_view(
    db: &AnyPool,
    asset_id: &str,
    uid: &str,
    now: i64,
    window: i64,
) -> Result<i64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let last: Option<i64> =
        sqlx::query_scalar("SELECT last_at FROM asset_views WHERE asset_id = $1 AND user_uid = $2")
            .bind(asset_id)
            .bind(uid)
            .fetch_optional(&mut *tx)
            .await?;
    if last.is_none_or(|t| now - t >= window) {
        sqlx::query(
            "INSERT INTO asset_views (asset_id, user_uid, last_at) VALUES ($1, $2, $3) \
             ON CONFLICT (asset_id, user_uid) DO UPDATE SET last_at = excluded.last_at",
        )
        .bind(asset_id)
        .bind(uid)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE assets SET views = views + 1 WHERE id = $1")
            .bind(asset_id)
            .execute(&mut *tx)
            .await?;
    }
    let views = sqlx::query_scalar("SELECT views FROM assets WHERE id = $1")
        .bind(asset_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(views)
}

/// Who lists: the facts of the access rule about the caller.
#[derive(Debug, Clone, Copy)]
pub struct Viewer<'a> {
    pub uid: &'a str,
    pub organization_id: &'a str,
    /// An administrator (of `organization_id`).
    pub is_admin: bool,
    pub is_superadmin: bool,
}

/// Which of the visible assets to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// Everything the caller may see.
    All,
    /// Pinned by the caller.
    Starred,
    /// Owned by the caller.
    Owned,
    /// Shared with the caller (by a share to them or to their organization), not owned.
    Shared,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    Name,
    CreatedAt,
    UpdatedAt,
}

#[derive(Debug, Clone)]
pub struct ListQuery {
    pub kind: AssetKind,
    pub filter: Filter,
    pub sort_by: SortBy,
    pub descending: bool,
    /// Lowercased substring of name or description; empty: no search.
    pub search: String,
    pub limit: i64,
    pub offset: i64,
    /// Extra conditions on the kind's details table (aliased `d`, joined on `d.id = a.id`), with
    /// their string parameters numbered from `$100`: e.g. `d.app_type IN ($100, $101)`.
    pub details: Option<(String, Vec<String>)>,
}

/// One listed asset with the caller's level and pin.
#[derive(Debug, Clone)]
pub struct Listed {
    pub asset: AssetRow,
    pub level: AccessLevel,
    pub pinned: bool,
}

/// Whether the caller sees `a` (the rule of [`crate::policy::sharing::access`] above none), as a
/// condition on `assets a` with `$1` the caller's uid and `$2` their organization.
pub fn visible_sql(v: Viewer<'_>) -> String {
    if v.is_superadmin {
        return "1 = 1".to_owned();
    }
    format!(
        "(a.owner_uid = $1{} OR (a.organization_id = $2 AND EXISTS (SELECT 1 FROM shares s WHERE s.asset_id = a.id \
         AND s.level > 0 AND ((s.to_type = 'user' AND s.to_id = $1) OR (s.to_type = 'organization' AND s.to_id = $2)))))",
        if v.is_admin {
            " OR a.organization_id = $2"
        } else {
            ""
        }
    )
}

/// The caller's level on `a` (its rank), by the rule of [`crate::policy::sharing::access`], with
/// `$1` the caller's uid and `$2` their organization.
pub fn level_sql(v: Viewer<'_>) -> String {
    if v.is_superadmin {
        return "3".to_owned();
    }
    format!(
        "CASE WHEN a.owner_uid = $1{} THEN 3 WHEN a.organization_id <> $2 THEN 0 ELSE \
         COALESCE((SELECT MAX(s.level) FROM shares s WHERE s.asset_id = a.id AND \
         ((s.to_type = 'user' AND s.to_id = $1) OR (s.to_type = 'organization' AND s.to_id = $2))), 0) END",
        if v.is_admin {
            " OR a.organization_id = $2"
        } else {
            ""
        }
    )
}

/// The SQL of [`list`] (also printed by the benchmark with its query plan), for this caller: one
/// statement that yields the page's rows, each with the caller's level, pin, and the total.
///
/// The visible set is a union of parts, each a plain predicate an index serves (owned by the
/// caller; shared with the caller; shared with the caller's organization; the organization's
/// assets for its administrators; pinned), so nothing scans the table. The union of the parts'
/// ids and sort keys (`v`, read from the covering index `assets_list_idx`) is counted and cut to
/// the page, and only the page's rows are read whole and get their level and pin. Parameters:
/// `$1` uid, `$2` organization, `$3` kind, `$4` search pattern (or ''), then the details'
/// parameters (`$100…` become `$5…`). With `count`, the statement counts the visible set only.
pub fn list_sql(q: &ListQuery, v: Viewer<'_>, count: bool) -> String {
    // Shares reach only the asset's organization (the access rule): the caller's own entries and
    // their organization's entry count on their organization's assets only.
    let user_shares = "a.id IN (SELECT s.asset_id FROM shares s WHERE s.to_type = 'user' AND s.to_id = $1 AND s.level > 0) \
         AND a.organization_id = $2";
    let org_shares = "a.id IN (SELECT s.asset_id FROM shares s WHERE s.to_type = 'organization' AND s.to_id = $2 AND s.level > 0) \
         AND a.organization_id = $2";
    let not_owned = "(a.owner_uid IS NULL OR a.owner_uid <> $1)";
    // Visible, for the few rows of a pinned list.
    let visible = visible_sql(v);
    let parts: Vec<String> = match q.filter {
        Filter::Owned => vec!["a.owner_uid = $1".into()],
        Filter::Shared => vec![
            format!("{user_shares} AND {not_owned}"),
            format!("{org_shares} AND {not_owned}"),
        ],
        Filter::Starred => vec![format!(
            "a.id IN (SELECT p.asset_id FROM pins p WHERE p.user_uid = $1) AND {visible}"
        )],
        Filter::All if v.is_superadmin => vec!["1 = 1".into()],
        // Their organization's assets: shares from elsewhere do not reach them.
        Filter::All if v.is_admin => vec!["a.organization_id = $2".into()],
        Filter::All => vec!["a.owner_uid = $1".into(), user_shares.into(), org_shares.into()],
    };
    let mut common = vec![
        "a.kind = $3".to_owned(),
        // Without a search the text is not read at all (so the indexes that serve the parts cover
        // them); `$4` is then '' and the condition is only there to use the parameter.
        if q.search.trim().is_empty() {
            "$4 = ''".to_owned()
        } else {
            "a.search_text LIKE $4 ESCAPE '\\'".to_owned()
        },
    ];
    let mut join = String::new();
    if let Some((cond, params)) = &q.details {
        join = format!(" JOIN {} d ON d.id = a.id", q.kind.details_table());
        let mut cond = cond.clone();
        for i in (0..params.len()).rev() {
            cond = cond.replace(&format!("${}", 100 + i), &format!("${}", 5 + i));
        }
        common.push(format!("({cond})"));
    }
    let common = common.join(" AND ");
    let key = match q.sort_by {
        SortBy::Name => "LOWER(a.name)",
        SortBy::CreatedAt => "a.created_at",
        SortBy::UpdatedAt => "a.updated_at",
    };
    // An administrator's or a superadmin's whole list is large (an organization's, or every
    // organization's, assets) and its parts are disjoint: each part is read in index order up
    // to the page's end and the parts are counted separately, instead of sorting the whole set.
    let ordered = q.filter == Filter::All && (v.is_admin || v.is_superadmin);
    let visible_set = parts
        .iter()
        .map(|p| format!("SELECT a.id AS id, {key} AS k FROM assets a{join} WHERE {common} AND {p}"))
        .collect::<Vec<_>>()
        .join(" UNION ");
    let counted = if ordered {
        parts
            .iter()
            .map(|p| format!("(SELECT COUNT(*) FROM assets a{join} WHERE {common} AND {p})"))
            .collect::<Vec<_>>()
            .join(" + ")
    } else {
        "(SELECT COUNT(*) FROM v)".to_owned()
    };
    if count {
        return if ordered {
            format!("SELECT {counted}")
        } else {
            format!("SELECT COUNT(*) FROM ({visible_set}) v")
        };
    }
    let dir = if q.descending { "DESC" } else { "ASC" };
    let (limit, offset) = (q.limit.max(0), q.offset.max(0));
    // The caller's level, for the page's rows only.
    let access = level_sql(v);
    let (with, page) = if ordered {
        let first = limit.saturating_add(offset);
        let heads = parts
            .iter()
            .map(|p| {
                format!(
                    "SELECT * FROM (SELECT a.id AS id, {key} AS k FROM assets a{join} WHERE {common} AND {p} \
                     ORDER BY {key} {dir}, a.id {dir} LIMIT {first}) h"
                )
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        (
            String::new(),
            format!(
                "SELECT v.id, v.k FROM ({heads}) v ORDER BY v.k {dir}, v.id {dir} LIMIT {limit} OFFSET {offset}"
            ),
        )
    } else {
        (
            format!("WITH v AS ({visible_set}) "),
            format!("SELECT v.id, v.k FROM v ORDER BY v.k {dir}, v.id {dir} LIMIT {limit} OFFSET {offset}"),
        )
    };
    format!(
        "{with}SELECT {COLUMNS}, {access} AS access, \
           CASE WHEN EXISTS (SELECT 1 FROM pins p WHERE p.user_uid = $1 AND p.asset_id = a.id) THEN 1 ELSE 0 END AS pinned, \
           {counted} AS total \
         FROM ({page}) page \
         JOIN assets a ON a.id = page.id \
         ORDER BY page.k {dir}, page.id {dir}"
    )
}

fn bind_list<'q>(
    sql: &'q str,
    v: Viewer<'q>,
    q: &'q ListQuery,
    search: &'q str,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(v.uid)
        .bind(v.organization_id)
        .bind(q.kind.as_str())
        .bind(search);
    if let Some((_, params)) = &q.details {
        for p in params {
            query = query.bind(p.as_str());
        }
    }
    query
}

/// The search pattern bound as `$4` of [`list_sql`] ('' for no search).
pub fn search_pattern(search: &str) -> String {
    if search.trim().is_empty() {
        String::new()
    } else {
        super::like_pattern(search.trim())
    }
}

/// The page and the total count of the caller's visible assets of a kind (one statement; a
/// second, counting only, for a page past the end).
pub async fn list(db: &AnyPool, v: Viewer<'_>, q: &ListQuery) -> Result<(Vec<Listed>, i64), sqlx::Error> {
    let search = search_pattern(&q.search);
    let sql = list_sql(q, v, false);
    let rows = bind_list(&sql, v, q, &search).fetch_all(db).await?;
    let mut total = 0;
    let mut items = Vec::with_capacity(rows.len());
    for r in &rows {
        total = r.try_get::<i64, _>("total")?;
        items.push(Listed {
            asset: AssetRow::from_row(r)?,
            level: AccessLevel::from_rank(r.try_get("access")?),
            pinned: r.try_get::<i64, _>("pinned")? != 0,
        });
    }
    if items.is_empty() && q.offset > 0 {
        let sql = list_sql(q, v, true);
        total = bind_list(&sql, v, q, &search)
            .fetch_one(db)
            .await?
            .try_get::<i64, _>(0)?;
    }
    Ok((items, total))
}

/// Moves every asset of a kind in an organization from one owner to another (ownership moves).
/// Returns how many moved.
pub async fn move_owner(
    db: &AnyPool,
    kind: AssetKind,
    organization_id: &str,
    from_uid: &str,
    to_uid: &str,
    now: i64,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE assets SET owner_uid = $4, updated_at = $5 \
         WHERE kind = $1 AND organization_id = $2 AND owner_uid = $3",
    )
    .bind(kind.as_str())
    .bind(organization_id)
    .bind(from_uid)
    .bind(to_uid)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected())
}

/// Every asset of a kind that mirrors a custom resource (`namespace` and `resource_name` set),
/// for the resource watcher's sweep after a (re)list. (Added by the cluster work.)
pub async fn with_resources(db: &AnyPool, kind: AssetKind) -> Result<Vec<AssetRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM assets a WHERE a.kind = $1 AND a.namespace IS NOT NULL AND a.resource_name IS NOT NULL"
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(kind.as_str())
        .fetch_all(db)
        .await?
        .iter()
        .map(AssetRow::from_row)
        .collect()
}
