//! The `compute_usage` table: workload pods as the sampler saw them run ([`crate::compute`]).
//! Times are Unix seconds.

use sqlx::AnyPool;

/// One workload pod's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRun {
    pub pod_uid: String,
    pub organization_id: String,
    pub asset_id: Option<String>,
    pub asset_kind: Option<String>,
    pub asset_name: Option<String>,
    pub owner_uid: Option<String>,
    pub cpu_millicores: i64,
    pub memory_bytes: i64,
    pub started_at: i64,
    pub last_seen: i64,
}

/// Records `run`, or moves a recorded run's `last_seen` on (never back: replicas sample alike).
pub async fn record(db: &AnyPool, run: &PodRun) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO compute_usage (pod_uid, organization_id, asset_id, asset_kind, asset_name, owner_uid, \
         cpu_millicores, memory_bytes, started_at, last_seen) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (pod_uid) DO UPDATE SET last_seen = excluded.last_seen \
         WHERE compute_usage.last_seen < excluded.last_seen",
    )
    .bind(&run.pod_uid)
    .bind(&run.organization_id)
    .bind(&run.asset_id)
    .bind(&run.asset_kind)
    .bind(&run.asset_name)
    .bind(&run.owner_uid)
    .bind(run.cpu_millicores)
    .bind(run.memory_bytes)
    .bind(run.started_at)
    .bind(run.last_seen)
    .execute(db)
    .await?;
    Ok(())
}

type Row = (
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    i64,
    i64,
    i64,
    i64,
);

/// The runs of `organization_id`'s pods that overlap `[from, to)`.
pub async fn overlapping(
    db: &AnyPool,
    organization_id: &str,
    from: i64,
    to: i64,
) -> Result<Vec<PodRun>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT pod_uid, organization_id, asset_id, asset_kind, asset_name, owner_uid, cpu_millicores, \
         memory_bytes, started_at, last_seen FROM compute_usage \
         WHERE organization_id = $1 AND last_seen > $2 AND started_at < $3",
    )
    .bind(organization_id)
    .bind(from)
    .bind(to)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| PodRun {
            pod_uid: r.0,
            organization_id: r.1,
            asset_id: r.2,
            asset_kind: r.3,
            asset_name: r.4,
            owner_uid: r.5,
            cpu_millicores: r.6,
            memory_bytes: r.7,
            started_at: r.8,
            last_seen: r.9,
        })
        .collect())
}
