//! The `workload_activity` table: when each running preview, notebook server and app was last
//! used through the API, and when the idle sweep stopped it; and the running workloads the sweep
//! looks at, with their organization's idle time. Times are Unix seconds.

use sqlx::AnyPool;

/// What one workload's clock says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub active_at: i64,
    pub idled_at: Option<i64>,
}

/// `asset_id` was used at `now` (and so is not idled any more).
pub async fn touch(db: &AnyPool, asset_id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO workload_activity (asset_id, active_at, idled_at) VALUES ($1, $2, NULL) \
         ON CONFLICT (asset_id) DO UPDATE SET active_at = excluded.active_at, idled_at = NULL",
    )
    .bind(asset_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// `asset_id`'s clock; a workload the sweep sees for the first time starts its clock at `now`.
pub async fn clock_of(db: &AnyPool, asset_id: &str, now: i64) -> Result<Clock, sqlx::Error> {
    sqlx::query(
        "INSERT INTO workload_activity (asset_id, active_at, idled_at) VALUES ($1, $2, NULL) \
         ON CONFLICT (asset_id) DO NOTHING",
    )
    .bind(asset_id)
    .bind(now)
    .execute(db)
    .await?;
    let (active_at, idled_at): (i64, Option<i64>) =
        sqlx::query_as("SELECT active_at, idled_at FROM workload_activity WHERE asset_id = $1")
            .bind(asset_id)
            .fetch_one(db)
            .await?;
    Ok(Clock { active_at, idled_at })
}

/// `asset_id`'s clock, if it ran since the table exists.
pub async fn get(db: &AnyPool, asset_id: &str) -> Result<Option<Clock>, sqlx::Error> {
    let row: Option<(i64, Option<i64>)> =
        sqlx::query_as("SELECT active_at, idled_at FROM workload_activity WHERE asset_id = $1")
            .bind(asset_id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(active_at, idled_at)| Clock { active_at, idled_at }))
}

/// The sweep stopped `asset_id` at `now`, unless it was used since `seen_active_at` (another
/// replica's touch wins). Whether it is marked.
pub async fn mark_idled(
    db: &AnyPool,
    asset_id: &str,
    seen_active_at: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE workload_activity SET idled_at = $3 \
         WHERE asset_id = $1 AND active_at = $2 AND idled_at IS NULL",
    )
    .bind(asset_id)
    .bind(seen_active_at)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What kind of workload a candidate of the sweep is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// A project's preview or notebook server: it stops.
    Preview,
    /// A published application: it scales to zero.
    App,
}

/// A running workload of an organization with an idle time.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub asset_id: String,
    pub workload: Workload,
    pub idle_minutes: i64,
}

/// Every running preview and notebook server, and every running app not pinned always on (where
/// its organization allows pins), of organizations with an idle time.
pub async fn candidates(db: &AnyPool) -> Result<Vec<Candidate>, sqlx::Error> {
    let previews: Vec<(String, i64)> = sqlx::query_as(
        "SELECT p.id, o.idle_minutes FROM projects p JOIN assets a ON a.id = p.id \
         JOIN organizations o ON o.id = a.organization_id \
         WHERE p.running = 1 AND o.idle_minutes > 0 ORDER BY p.id",
    )
    .fetch_all(db)
    .await?;
    let apps: Vec<(String, i64)> = sqlx::query_as(
        "SELECT i.id, o.idle_minutes FROM insights i JOIN assets a ON a.id = i.id \
         JOIN organizations o ON o.id = a.organization_id \
         WHERE i.app_type = 'application' AND i.status = 'running' AND i.app_url IS NULL \
         AND o.idle_minutes > 0 AND NOT (i.always_on = 1 AND o.allow_always_on = 1) ORDER BY i.id",
    )
    .fetch_all(db)
    .await?;
    let of = |w| {
        move |(asset_id, idle_minutes): (String, i64)| Candidate {
            asset_id,
            workload: w,
            idle_minutes,
        }
    };
    Ok(previews
        .into_iter()
        .map(of(Workload::Preview))
        .chain(apps.into_iter().map(of(Workload::App)))
        .collect())
}
