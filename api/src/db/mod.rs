//! Storage: one module per table group. Functions take the pool and return row structs; no HTTP
//! types here. SQL is portable (SQLite and PostgreSQL through sqlx's `Any` driver): `$n`
//! parameters, TEXT/BIGINT columns, `ON CONFLICT … DO UPDATE`, `LOWER(x) LIKE` for search.

pub mod activity;
pub mod ai_usage;
pub mod app_passes;
pub mod assets;
pub mod comments;
pub mod compute;
pub mod dataset_links;
pub mod datasets;
pub mod details;
pub mod flighting;
pub mod idle;
pub mod insights;
pub mod metrics;
pub mod notebooks;
pub mod organizations;
pub mod pins;
pub mod projects;
pub mod shares;
pub mod throttle;
pub mod tokens;
pub mod users;
pub mod web3;
pub mod workflows;

use sqlx::AnyPool;

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

/// Runs the migrations of `api/migrations/` (one portable set for both databases, embedded at
/// build time: a new migration is a new file there).
pub async fn migrate(db: &AnyPool) -> anyhow::Result<()> {
    sqlx::migrate!("./migrations")
        .run(db)
        .await
        .map_err(|e| anyhow::anyhow!("failed to run database migrations: {e}"))
}

/// Whether the database answers (`SELECT 1`).
pub async fn ping(db: &AnyPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT 1").fetch_one(db).await
}

/// A column holding a name of a fixed set ([`crate::domain`]); another text is a decode error.
pub(crate) fn named<T>(row: &sqlx::any::AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    T: std::str::FromStr<Err = crate::domain::Unknown>,
{
    named_opt(row, column)?.ok_or_else(|| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: "unexpected NULL".into(),
    })
}

/// [`named`] for a column that may be NULL.
pub(crate) fn named_opt<T>(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<T>, sqlx::Error>
where
    T: std::str::FromStr<Err = crate::domain::Unknown>,
{
    use sqlx::Row as _;
    row.try_get::<Option<String>, _>(column)?
        .map(|text| {
            text.parse().map_err(|e| sqlx::Error::ColumnDecode {
                index: column.to_owned(),
                source: Box::new(e),
            })
        })
        .transpose()
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

/// A unix time as RFC 3339 in UTC (`2026-11-25T09:30:00Z`).
pub fn rfc3339(unix: i64) -> String {
    let secs = unix.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        day(unix),
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// `$start, $start+1, …`: `n` numbered parameters, for an `IN (…)` list.
pub fn placeholders(start: usize, n: usize) -> String {
    (start..start + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
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
