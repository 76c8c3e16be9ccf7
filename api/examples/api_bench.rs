//! Benchmark: authenticated `GET /v1/users/{id}` on the Ludis API against a bare axum + sqlx
//! handler that runs the same user query on the same SQLite file, in the same run, on loopback.
//! Prints requests per second, p99 latency and the ratio (target ≥ 0.5).
//!
//! `dev/bench-api.sh` runs it: `cargo run --release -p ludis-api --example api_bench -- [seconds] [concurrency]`.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{Json, Router, extract::Path, extract::State, routing::get};
use ludis_api::{App, Settings, auth::password, db};
use serde_json::{Value, json};
use sqlx::AnyPool;

struct Run {
    rps: f64,
    p50: Duration,
    p99: Duration,
    errors: usize,
}

async fn load(url: String, token: Option<String>, seconds: u64, concurrency: usize) -> Run {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .build()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (client, url, token) = (client.clone(), url.clone(), token.clone());
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut errors = 0;
            while Instant::now() < deadline {
                let t = Instant::now();
                let mut req = client.get(&url);
                if let Some(tok) = &token {
                    req = req.bearer_auth(tok);
                }
                match req.send().await {
                    Ok(r) if r.status() == 200 => {
                        let _ = r.bytes().await;
                        lat.push(t.elapsed());
                    }
                    _ => errors += 1,
                }
            }
            (lat, errors)
        }));
    }
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.unwrap();
        all.extend(l);
        errors += e;
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Run {
        rps: all.len() as f64 / elapsed,
        p50: pct(0.50),
        p99: pct(0.99),
        errors,
    }
}

/// The baseline: the same query, no auth, no middleware.
async fn bare_user(State(db): State<Arc<AnyPool>>, Path(uid): Path<String>) -> Json<Value> {
    let sql = format!("SELECT {} FROM users u WHERE u.uid = $1", db::users::COLUMNS);
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(uid)
        .fetch_one(&*db)
        .await
        .unwrap();
    let u = db::users::UserRow::from_row(&row).unwrap();
    Json(
        json!({"success": true, "user": {"uid": u.uid, "email": u.email, "first_name": u.first_name,
        "last_name": u.last_name, "role": u.role, "organization": u.organization_id}}),
    )
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let concurrency: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(32);
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("bench.db").display());

    let mut settings = Settings::for_tests(url.clone(), dir.path().join("no-console"));
    settings.secrets_file = dir.path().join("secrets.env");
    let app = App::build(settings).await?;
    let state = app.state().clone();
    let address = format!("http://{}", app.local_addr());
    tokio::spawn(app.run_until_stopped());

    // One organization and one user, signed in.
    let org = db::new_id();
    db::organizations::insert(
        &state.db,
        &db::organizations::OrganizationRow {
            id: org.clone(),
            name: "Bench".into(),
            slug: "bench".into(),
            admin_email: "bench@example.com".into(),
            description: String::new(),
            tier: "free".into(),
            max_seats: 10,
            bucket_id: None,
            is_2fa_required: false,
            created_at: db::now(),
            idle_minutes: ludis_api::idle::DEFAULT_IDLE_MINUTES,
            allow_always_on: false,
        },
    )
    .await?;
    let caller = db::new_id();
    let hash = password::hash("bench-pass".into(), state.auth.hash).await?;
    db::users::insert(
        &state.db,
        &db::users::NewUser {
            uid: &caller,
            email: "bench@example.com",
            password_hash: &hash,
            first_name: "Bench",
            last_name: "User",
            role: ludis_api::domain::Role::Developer,
            organization_id: &org,
            cluster_id: None,
            timezone: "UTC",
            date_format: "MM/DD/YY",
        },
        db::now(),
    )
    .await?;
    // The benchmark reads a colleague's record (the auth query plus the user query), not the
    // caller's own (which the extractor has already loaded).
    let colleague = db::new_id();
    db::users::insert(
        &state.db,
        &db::users::NewUser {
            uid: &colleague,
            email: "colleague@example.com",
            password_hash: &hash,
            first_name: "Col",
            last_name: "League",
            role: ludis_api::domain::Role::Developer,
            organization_id: &org,
            cluster_id: None,
            timezone: "UTC",
            date_format: "MM/DD/YY",
        },
        db::now(),
    )
    .await?;
    let uid = colleague;
    let login: Value = reqwest::Client::new()
        .post(format!("{address}/v1/auth/login"))
        .json(&json!({"user": {"email": "bench@example.com", "password": "bench-pass"}}))
        .send()
        .await?
        .json()
        .await?;
    let token = login["token"].as_str().expect("signed in").to_owned();

    // The bare handler on its own pool over the same file.
    let pool: AnyPool = sqlx::pool::PoolOptions::new()
        .max_connections(16)
        .connect(&url)
        .await?;
    let bare = Router::new()
        .route("/users/{uid}", get(bare_user))
        .with_state(Arc::new(pool));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let bare_address = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, bare).await });

    // Warm up both, then measure each for the same time.
    let _ = load(format!("{bare_address}/users/{uid}"), None, 1, concurrency).await;
    let _ = load(
        format!("{address}/v1/users/{uid}"),
        Some(token.clone()),
        1,
        concurrency,
    )
    .await;
    let base = load(format!("{bare_address}/users/{uid}"), None, seconds, concurrency).await;
    let ours = load(
        format!("{address}/v1/users/{uid}"),
        Some(token),
        seconds,
        concurrency,
    )
    .await;

    println!("GET /v1/users/{{id}}, {concurrency} connections, {seconds} s each, SQLite, loopback");
    println!(
        "bare axum+sqlx : {:>8.0} req/s  p50 {:>6.2} ms  p99 {:>6.2} ms  errors {}",
        base.rps,
        base.p50.as_secs_f64() * 1e3,
        base.p99.as_secs_f64() * 1e3,
        base.errors
    );
    println!(
        "ludis-api      : {:>8.0} req/s  p50 {:>6.2} ms  p99 {:>6.2} ms  errors {}",
        ours.rps,
        ours.p50.as_secs_f64() * 1e3,
        ours.p99.as_secs_f64() * 1e3,
        ours.errors
    );
    let ratio = ours.rps / base.rps;
    println!(
        "ratio ludis/bare: {ratio:.2} (target >= 0.50) {}",
        if ratio >= 0.5 { "OK" } else { "BELOW TARGET" }
    );
    Ok(())
}
