//! Benchmark: `GET /v1/applications/insights` over 100,000 insights of 1,000 users with realistic
//! sharing, for a user who sees about 1,000 of them, on SQLite and PostgreSQL. Prints p50/p99 of
//! the HTTP call (through the whole API: auth, flighting gate, access rule, views) and of the bare
//! list query in the same run, their ratio, and the query plan. Target: p99 ≤ 20 ms.
//!
//! `dev/bench-insights.sh` runs it:
//! `cargo run --release -p ludis-api --example insights_bench -- [sqlite|postgres|both] [requests]`
//! (PostgreSQL: `LUDIS_BENCH_POSTGRES_URL`, a server where a scratch database may be created).

use std::time::{Duration, Instant};

use ludis_api::{
    App, Settings,
    auth::password,
    db::{
        self,
        assets::{Filter, ListQuery, SortBy, Viewer},
    },
};
use serde_json::{Value, json};
use sqlx::{AnyPool, Row as _};

const ORGS: usize = 10;
const USERS: usize = 1_000;
const INSIGHTS: usize = 100_000;

/// Words for names and descriptions: searching one matches about 1 in 20 insights.
const WORDS: [&str; 20] = [
    "sales",
    "churn",
    "revenue",
    "forecast",
    "marketing",
    "inventory",
    "logistics",
    "finance",
    "growth",
    "retention",
    "pricing",
    "support",
    "hiring",
    "supply",
    "energy",
    "risk",
    "fraud",
    "campaign",
    "web",
    "mobile",
];
const KINDS: [&str; 4] = ["dashboard", "report", "explorer", "monitor"];

/// A small deterministic generator (xorshift), so every run seeds the same data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

struct Seeded {
    target_uid: String,
    target_email: String,
    target_org: String,
    /// The administrator of the target's organization (who sees all of its insights).
    admin_uid: String,
    admin_email: String,
    visible: i64,
    shared: i64,
}

fn uuid(rng: &mut Rng) -> String {
    let a = rng.next();
    let b = rng.next();
    uuid::Uuid::from_u64_pair(a, b).to_string()
}

/// Multi-row INSERTs of `rows` (each a list of values) in batches.
async fn bulk(db: &AnyPool, table: &str, columns: &[&str], rows: &[Vec<Value>]) -> anyhow::Result<()> {
    let per = (30_000 / columns.len()).min(1_000);
    for chunk in rows.chunks(per) {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
        let mut n = 0;
        for (i, _) in chunk.iter().enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..columns.len() {
                if c > 0 {
                    sql.push_str(", ");
                }
                n += 1;
                sql.push_str(&format!("${n}"));
            }
            sql.push(')');
        }
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for row in chunk {
            for v in row {
                q = match v {
                    Value::String(s) => q.bind(s.clone()),
                    Value::Number(n) => q.bind(n.as_i64().unwrap_or_default()),
                    Value::Null => q.bind(None::<String>),
                    other => q.bind(other.to_string()),
                };
            }
        }
        q.execute(db).await?;
    }
    Ok(())
}

async fn seed(db: &AnyPool, password_hash: &str) -> anyhow::Result<Seeded> {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let now = db::now();
    let orgs: Vec<String> = (0..ORGS).map(|_| uuid(&mut rng)).collect();
    let org_rows: Vec<Vec<Value>> = orgs
        .iter()
        .enumerate()
        .map(|(i, id)| {
            vec![
                json!(id),
                json!(format!("Org {i}")),
                json!(format!("org-{i}")),
                json!(format!("admin@org{i}.example")),
                json!("paid"),
                json!(1000),
                json!(now),
            ]
        })
        .collect();
    bulk(
        db,
        "organizations",
        &[
            "id",
            "name",
            "slug",
            "admin_email",
            "tier",
            "max_seats",
            "created_at",
        ],
        &org_rows,
    )
    .await?;
    let users: Vec<(String, usize)> = (0..USERS).map(|i| (uuid(&mut rng), i % ORGS)).collect();
    let user_rows: Vec<Vec<Value>> = users
        .iter()
        .enumerate()
        .map(|(i, (uid, org))| {
            vec![
                json!(uid),
                json!(format!("user{i}@bench.example")),
                json!(password_hash),
                json!(format!("First{i}")),
                json!(format!("Last{i}")),
                json!(if i < ORGS { "administrator" } else { "developer" }),
                json!(orgs[*org]),
                json!("UTC"),
                json!(now),
                json!(now),
            ]
        })
        .collect();
    bulk(
        db,
        "users",
        &[
            "uid",
            "email",
            "password_hash",
            "first_name",
            "last_name",
            "role",
            "organization_id",
            "timezone",
            "created_at",
            "updated_at",
        ],
        &user_rows,
    )
    .await?;
    // Members of each organization, for shares.
    let members: Vec<Vec<usize>> = (0..ORGS)
        .map(|o| (0..USERS).filter(|u| users[*u].1 == o).collect())
        .collect();

    let mut asset_rows = Vec::with_capacity(INSIGHTS);
    let mut insight_rows = Vec::with_capacity(INSIGHTS);
    let mut share_rows = Vec::new();
    let mut pin_rows = Vec::new();
    let types = ["application", "report", "user_report"];
    for i in 0..INSIGHTS {
        let id = uuid(&mut rng);
        let owner = i % USERS;
        let org = users[owner].1;
        let name = format!(
            "{} {} {i}",
            WORDS[rng.below(WORDS.len())],
            KINDS[rng.below(KINDS.len())]
        );
        let description = format!(
            "{} {} numbers",
            WORDS[rng.below(WORDS.len())],
            KINDS[rng.below(KINDS.len())]
        );
        let created = now - (rng.below(365 * 86_400) as i64);
        let updated = created + rng.below(30 * 86_400) as i64;
        asset_rows.push(vec![
            json!(id),
            json!("application"),
            json!(orgs[org]),
            json!(users[owner].0),
            json!(name),
            json!(format!("{name} {description}").to_lowercase()),
            json!(description),
            json!("api"),
            json!(rng.below(500)),
            json!(created),
            json!(updated),
        ]);
        let app_type = types[rng.below(3)];
        insight_rows.push(vec![
            json!(id),
            json!(app_type),
            json!(if app_type == "application" {
                "running"
            } else {
                "rendered"
            }),
            json!("python"),
        ]);
        // Realistic sharing: most insights are shared with a few colleagues, a few with the whole
        // organization, and now and then with someone in another organization.
        let mut seen = Vec::new();
        for _ in 0..rng.below(6) {
            let to = if rng.chance(3) {
                rng.below(USERS)
            } else {
                members[org][rng.below(members[org].len())]
            };
            if to == owner || seen.contains(&to) {
                continue;
            }
            seen.push(to);
            share_rows.push(vec![
                json!(uuid(&mut rng)),
                json!(id),
                json!("user"),
                json!(users[to].0),
                json!(1 + rng.below(3)),
                json!("console"),
                json!(now),
                json!(now),
            ]);
        }
        if rng.chance(6) {
            share_rows.push(vec![
                json!(uuid(&mut rng)),
                json!(id),
                json!("organization"),
                json!(orgs[org]),
                json!(1),
                json!("console"),
                json!(now),
                json!(now),
            ]);
        }
        if rng.chance(2) {
            pin_rows.push(vec![json!(users[owner].0), json!(id), json!(now)]);
        }
    }
    bulk(
        db,
        "assets",
        &[
            "id",
            "kind",
            "organization_id",
            "owner_uid",
            "name",
            "search_text",
            "description",
            "origin",
            "views",
            "created_at",
            "updated_at",
        ],
        &asset_rows,
    )
    .await?;
    bulk(
        db,
        "insights",
        &["id", "app_type", "status", "language"],
        &insight_rows,
    )
    .await?;
    bulk(
        db,
        "shares",
        &[
            "id",
            "asset_id",
            "to_type",
            "to_id",
            "level",
            "origin",
            "created_at",
            "updated_at",
        ],
        &share_rows,
    )
    .await?;
    bulk(db, "pins", &["user_uid", "asset_id", "created_at"], &pin_rows).await?;

    // The target: the user (of the first 100) who sees the number of insights closest to 1,000.
    let mut best: Option<(i64, usize)> = None;
    for (u, (uid, org)) in users.iter().enumerate().skip(ORGS).take(100) {
        let v = Viewer {
            uid,
            organization_id: &orgs[*org],
            is_admin: false,
            is_superadmin: false,
        };
        let (_, total) = db::assets::list(db, v, &query(Filter::All, "")).await?;
        if best.is_none_or(|(t, _)| (total - 1000).abs() < (t - 1000).abs()) {
            best = Some((total, u));
        }
    }
    let (visible, u) = best.expect("users exist");
    let (uid, org) = &users[u];
    let v = Viewer {
        uid,
        organization_id: &orgs[*org],
        is_admin: false,
        is_superadmin: false,
    };
    let (_, shared) = db::assets::list(db, v, &query(Filter::Shared, "")).await?;
    // User i < ORGS is organization i's administrator (users are dealt round-robin).
    Ok(Seeded {
        target_uid: uid.clone(),
        target_email: format!("user{u}@bench.example"),
        target_org: orgs[*org].clone(),
        admin_uid: users[*org].0.clone(),
        admin_email: format!("user{org}@bench.example"),
        visible,
        shared,
    })
}

fn query(filter: Filter, search: &str) -> ListQuery {
    ListQuery {
        kind: ludis_api::domain::AssetKind::Insight,
        filter,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: search.into(),
        limit: 12,
        offset: 0,
        details: None,
    }
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(i).copied().unwrap_or_default().as_secs_f64() * 1e3
}

async fn measure<F, Fut>(n: usize, mut f: F) -> anyhow::Result<(f64, f64)>
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    for i in 0..(n / 10).max(5) {
        f(i).await?; // warm-up
    }
    let mut lat = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        f(i).await?;
        lat.push(t.elapsed());
    }
    lat.sort();
    Ok((pct(&lat, 0.50), pct(&lat, 0.99)))
}

async fn plan(db: &AnyPool, postgres: bool, s: &Seeded, search: &str) -> anyhow::Result<String> {
    let q = query(Filter::Shared, search);
    let v = Viewer {
        uid: &s.target_uid,
        organization_id: &s.target_org,
        is_admin: false,
        is_superadmin: false,
    };
    let sql = db::assets::list_sql(&q, v, false);
    let explain = if postgres {
        format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) {sql}")
    } else {
        format!("EXPLAIN QUERY PLAN {sql}")
    };
    let rows = sqlx::query(sqlx::AssertSqlSafe(explain))
        .bind(s.target_uid.as_str())
        .bind(s.target_org.as_str())
        .bind(ludis_api::domain::AssetKind::Insight.as_str())
        .bind(db::assets::search_pattern(search))
        .fetch_all(db)
        .await?;
    let mut out = String::new();
    for r in rows {
        let line: String = if postgres {
            r.try_get(0)?
        } else {
            r.try_get("detail")?
        };
        out.push_str("    ");
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

async fn run(label: &str, url: &str, requests: usize) -> anyhow::Result<bool> {
    let postgres = url.starts_with("postgres");
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::for_tests(url.to_owned(), dir.path().join("no-console"));
    settings.secrets_file = dir.path().join("secrets.env");
    let app = App::build(settings).await?;
    let state = app.state().clone();
    let address = format!("http://{}", app.local_addr());
    tokio::spawn(app.run_until_stopped());

    let started = Instant::now();
    let hash = password::hash("bench-pass".into(), state.auth.hash).await?;
    let s = seed(&state.db, &hash).await?;
    // Planner statistics (and, on PostgreSQL, the visibility map index-only scans use), as a
    // database in service has them from autovacuum / `PRAGMA optimize`.
    let analyze = if postgres { "VACUUM ANALYZE" } else { "ANALYZE" };
    sqlx::query(analyze).execute(&state.db).await?;
    println!(
        "{label}: seeded {INSIGHTS} insights, {USERS} users, {ORGS} organizations in {:.1} s; \
         the measured user sees {} (shared with them: {})",
        started.elapsed().as_secs_f64(),
        s.visible,
        s.shared
    );

    let http = reqwest::Client::new();
    let login: Value = http
        .post(format!("{address}/v1/auth/login"))
        .json(&json!({"user": {"email": s.target_email, "password": "bench-pass"}}))
        .send()
        .await?
        .json()
        .await?;
    let token = login["token"].as_str().expect("signed in").to_owned();
    let admin_login: Value = http
        .post(format!("{address}/v1/auth/login"))
        .json(&json!({"user": {"email": s.admin_email, "password": "bench-pass"}}))
        .send()
        .await?
        .json()
        .await?;
    let admin_token = admin_login["token"].as_str().expect("signed in").to_owned();

    let mut ok = true;
    println!(
        "  {:<44} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "GET /v1/applications/insights", "http p50", "http p99", "query p50", "query p99", "http/q"
    );
    // (label, filter, search, as the organization's administrator)
    for (name, filter, search, admin) in [
        (
            "filter=shared sortBy=updated_at search=<word>",
            Filter::Shared,
            true,
            false,
        ),
        ("filter=shared sortBy=updated_at", Filter::Shared, false, false),
        (
            "filter=all sortBy=updated_at search=<word>",
            Filter::All,
            true,
            false,
        ),
        ("admin*: filter=all sortBy=updated_at", Filter::All, false, true),
        (
            "admin*: filter=all sortBy=updated_at search=<w>",
            Filter::All,
            true,
            true,
        ),
    ] {
        let filter_name = if filter == Filter::Shared { "shared" } else { "all" };
        let token = if admin { &admin_token } else { &token };
        let (hp50, hp99) = measure(requests, |i| {
            let word = if search { WORDS[i % WORDS.len()] } else { "" };
            let url = format!(
                "{address}/v1/applications/insights?page=1&pageSize=12&filter={filter_name}\
                 &sortBy=updated_at&sortOperator=DESC&search={word}&screen=Dashboard"
            );
            let req = http.get(url).bearer_auth(token);
            async move {
                let r = req.send().await?;
                anyhow::ensure!(r.status() == 200, "the list answered {}", r.status());
                let body: Value = r.json().await?;
                anyhow::ensure!(body["applications"].is_array(), "no applications in {body}");
                Ok(())
            }
        })
        .await?;
        let v = Viewer {
            uid: if admin { &s.admin_uid } else { &s.target_uid },
            organization_id: &s.target_org,
            is_admin: admin,
            is_superadmin: false,
        };
        let (qp50, qp99) = measure(requests, |i| {
            let word = if search { WORDS[i % WORDS.len()] } else { "" };
            let q = query(filter, word);
            let db = state.db.clone();
            async move {
                db::assets::list(&db, v, &q).await?;
                Ok(())
            }
        })
        .await?;
        println!(
            "  {name:<44} {hp50:>7.2}ms {hp99:>7.2}ms {qp50:>7.2}ms {qp99:>7.2}ms {:>7.2}",
            hp99 / qp99.max(0.001)
        );
        // The target is for the user who sees ~1,000; the administrator (who sees the whole
        // organization, 10,000 here) is printed for comparison.
        if !admin {
            ok &= hp99 <= 20.0;
        }
    }
    println!(
        "  * the organization's administrator, who sees all of its {} insights",
        INSIGHTS / ORGS
    );
    println!("  query plan (filter=shared, sortBy=updated_at, search=sales):");
    print!("{}", plan(&state.db, postgres, &s, "sales").await?);
    Ok(ok)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("both");
    let requests: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(500);
    sqlx::any::install_default_drivers();
    let mut all_ok = true;
    if which == "sqlite" || which == "both" {
        let dir = tempfile::tempdir()?;
        // LUDIS_BENCH_SQLITE_FILE keeps the seeded database for a closer look (sqlite3 CLI).
        let file = std::env::var("LUDIS_BENCH_SQLITE_FILE")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|_| dir.path().join("bench.db"));
        let url = format!("sqlite://{}?mode=rwc", file.display());
        all_ok &= run("SQLite", &url, requests).await?;
    }
    if which == "postgres" || which == "both" {
        let base = std::env::var("LUDIS_BENCH_POSTGRES_URL")
            .map_err(|_| anyhow::anyhow!("set LUDIS_BENCH_POSTGRES_URL (dev/bench-insights.sh does)"))?;
        let name = format!("ludis_bench_{}", uuid::Uuid::new_v4().simple());
        let admin: AnyPool = sqlx::pool::PoolOptions::new()
            .max_connections(1)
            .connect(&base)
            .await?;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await?;
        let url = match base.rfind('/') {
            Some(i) => format!("{}/{name}", &base[..i]),
            None => anyhow::bail!("LUDIS_BENCH_POSTGRES_URL has no database name"),
        };
        let result = run("PostgreSQL", &url, requests).await;
        // Give the app's pool a moment to go idle, then drop the scratch database.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        )))
        .execute(&admin)
        .await;
        all_ok &= result?;
    }
    println!(
        "target: p99 <= 20 ms for every query: {}",
        if all_ok { "met" } else { "NOT MET" }
    );
    Ok(())
}
