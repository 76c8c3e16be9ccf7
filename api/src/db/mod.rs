//! Storage: one module per table group. Functions take the pool and return row structs; no HTTP
//! types here. SQL is portable (SQLite and PostgreSQL through sqlx's `Any` driver): `$n`
//! parameters, TEXT/BIGINT columns, `ON CONFLICT … DO UPDATE`, `LOWER(x) LIKE` for search.

pub mod activity;
pub mod app_passes;
pub mod assets;
pub mod comments;
pub mod datasets;
pub mod flighting;
pub mod insights;
pub mod organizations;
pub mod pins;
pub mod shares;
pub mod throttle;
pub mod tokens;
pub mod users;

use std::borrow::Cow;

use sqlx::{
    AnyPool, SqlSafeStr as _,
    migrate::{Migration, MigrationType, Migrator},
};

/// The migrations, embedded (one portable set for both databases).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        20260101000000,
        "create identity",
        include_str!("../../migrations/20260101000000_create_identity.sql"),
    ),
    (
        20261122000000,
        "create assets",
        include_str!("../../migrations/20261122000000_create_assets.sql"),
    ),
    (
        20261123000000,
        "create datasets",
        include_str!("../../migrations/20261123000000_create_datasets.sql"),
    ),
    (
        20261201000000,
        "index asset organizations",
        include_str!("../../migrations/20261201000000_index_asset_organizations.sql"),
    ),
    (
        20261201000100,
        "create app tickets",
        include_str!("../../migrations/20261201000100_create_app_tickets.sql"),
    ),
];

/// The pool's options: 16 connections, and for SQLite the settings a server needs — write-ahead
/// logging (readers never wait for the writer), `synchronous = NORMAL` (durable at checkpoints,
/// safe with WAL), a 64 MiB page cache and 256 MiB of memory-mapped reads per connection (list
/// queries touch rows all over the table), foreign keys, and a 5 s busy timeout.
pub fn pool_options() -> sqlx::pool::PoolOptions<sqlx::Any> {
    sqlx::pool::PoolOptions::new()
        .max_connections(16)
        .acquire_timeout(std::time::Duration::from_secs(5))
        .after_connect(|conn: &mut sqlx::AnyConnection, _meta| {
            Box::pin(async move {
                use sqlx::Executor as _;
                if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; \
                         PRAGMA mmap_size = 268435456; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                    )
                    .await?;
                }
                Ok(())
            })
        })
}

pub async fn migrate(db: &AnyPool) -> anyhow::Result<()> {
    let migrations = MIGRATIONS
        .iter()
        .map(|(version, description, sql)| {
            Migration::new(
                *version,
                Cow::Borrowed(*description),
                MigrationType::Simple,
                sql.into_sql_str(),
                false,
            )
        })
        .collect();
    Migrator::with_migrations(migrations)
        .run(db)
        .await
        .map_err(|e| anyhow::anyhow!("failed to run database migrations: {e}"))
}

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// The UTC calendar day (`YYYY-MM-DD`) of a unix time (H. Hinnant's civil_from_days).
pub fn day(unix: i64) -> String {
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}-{m:02}-{d:02}", if m <= 2 { y + 1 } else { y })
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Escapes `%`, `_` and `\` for a `LIKE … ESCAPE '\'` pattern and lowercases it.
pub fn like_pattern(term: &str) -> String {
    let mut out = String::from("%");
    for c in term.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_utc_calendar_dates() {
        for (t, d) in [
            (0, "1970-01-01"),
            (86_399, "1970-01-01"),
            (951_782_400, "2000-02-29"),
            (1_700_000_000, "2023-11-14"),
            (4_102_444_800, "2100-01-01"),
        ] {
            assert_eq!(day(t), d, "{t}");
        }
    }

    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(like_pattern("Ann_%"), "%ann\\_\\%%");
    }
}
