//! Benchmark of datasets (issue 6) against a local S3 server, two parts:
//!
//! 1. Presigned URLs per second per core: `ludis_storage::presign::Presigner::url` for GET and PUT
//!    over 200,000 distinct keys on one thread, beside aws-sdk-s3's own presigning
//!    (`get_object().presigned(…)`, `put_object().presigned(…)`) in the same run. Target ≥ 50,000/s.
//! 2. Listing a dataset of `<objects>` files (default 100,000) page by page (1,000 a page) through
//!    `POST /v1/datasets/listfiles/{id}` of an in-process API, against ListObjectsV2 paging
//!    directly against the same server with the same prefix: three passes of each after one
//!    untimed pass, the two sides' pages alternating (API page n, direct page n, the first of the
//!    two taking turns), so both see the same load on a shared machine. Whole passes one after the
//!    other swung ±40% between passes on 2 busy cores, more than the difference measured. Each
//!    side's time is the sum of its own calls. Target: median API / median direct ≤ 1.1.
//!
//! `dev/bench-datasets.sh [objects]` runs it against a private S3 server:
//! `cargo run --release -p ludis-api --example datasets_bench -- [objects]` with
//! `LUDIS_BENCH_S3_ENDPOINT` (required, so the test servers are never written to),
//! `LUDIS_S3_ACCESS_KEY` / `LUDIS_S3_SECRET_KEY`. The dataset's id is fixed for a given object
//! count, so its objects are uploaded once and reused by later runs. Misses against the targets are
//! printed as FAIL; the exit code is 0 unless the benchmark itself cannot run.

use std::{
    collections::HashSet,
    hint::black_box,
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

use anyhow::Context as _;
use aws_sdk_s3::presigning::PresigningConfig;
use futures::{StreamExt as _, stream};
use ludis_api::{App, Secret, Settings, auth::password, db};
use ludis_storage::{
    S3Settings,
    presign::{DOWNLOAD_EXPIRES, Presigner, UPLOAD_EXPIRES},
};
use serde_json::{Value, json};

const BUCKET: &str = "ludis-bench";
const REGION: &str = "us-east-1";
const PRESIGN_URLS: usize = 200_000;
const SDK_PRESIGN_URLS: usize = 20_000;
const PRESIGN_TARGET: f64 = 50_000.0;
const LIST_RATIO_TARGET: f64 = 1.1;
const ROUNDS: usize = 3;
const PAGE: i32 = 1000;
const UPLOADS_IN_FLIGHT: usize = 64;
const UPLOAD_ATTEMPTS: u64 = 6;
const PASSWORD: &str = "bench-pass";

/// CPU time of the calling thread (Linux: `/proc/thread-self/schedstat`, nanoseconds on CPU).
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// One presigning measurement: URLs per wall-clock second on this thread, and per CPU second of
/// this thread when the kernel reports it.
struct Rate {
    per_second: f64,
    per_cpu_second: Option<f64>,
}

impl Rate {
    fn show(&self) -> String {
        match self.per_cpu_second {
            Some(cpu) => format!("{:>9.0} URLs/s ({cpu:>9.0} per CPU-second)", self.per_second),
            None => format!("{:>9.0} URLs/s", self.per_second),
        }
    }
}

fn rate(n: usize, wall: Duration, cpu: Option<Duration>) -> Rate {
    Rate {
        per_second: n as f64 / wall.as_secs_f64(),
        per_cpu_second: cpu.filter(|c| !c.is_zero()).map(|c| n as f64 / c.as_secs_f64()),
    }
}

async fn presign_ours(p: &Presigner, method: &str, keys: &[String]) -> anyhow::Result<Rate> {
    let expires = if method == "PUT" {
        UPLOAD_EXPIRES
    } else {
        DOWNLOAD_EXPIRES
    };
    // Warm-up: caches, allocator.
    for key in keys.iter().take(2_000) {
        black_box(
            p.url(method, BUCKET, key, expires, None)
                .await
                .map_err(anyhow::Error::msg)?,
        );
    }
    let cpu = thread_cpu();
    let started = Instant::now();
    let mut bytes = 0usize;
    for key in keys {
        bytes += p
            .url(method, BUCKET, key, expires, None)
            .await
            .map_err(anyhow::Error::msg)?
            .len();
    }
    let wall = started.elapsed();
    let cpu = thread_cpu().zip(cpu).map(|(b, a)| b.saturating_sub(a));
    black_box(bytes);
    Ok(rate(keys.len(), wall, cpu))
}

/// aws-sdk-s3's presigning, awaited on this thread (it does no I/O, so it never yields).
async fn presign_sdk(s3: &aws_sdk_s3::Client, method: &str, keys: &[String]) -> anyhow::Result<Rate> {
    let expires = if method == "PUT" {
        UPLOAD_EXPIRES
    } else {
        DOWNLOAD_EXPIRES
    };
    let one = |key: &str| {
        let config = PresigningConfig::expires_in(expires);
        let key = key.to_owned();
        async move {
            let config = config?;
            let url = if method == "PUT" {
                s3.put_object()
                    .bucket(BUCKET)
                    .key(key)
                    .presigned(config)
                    .await?
                    .uri()
                    .len()
            } else {
                s3.get_object()
                    .bucket(BUCKET)
                    .key(key)
                    .presigned(config)
                    .await?
                    .uri()
                    .len()
            };
            anyhow::Ok(url)
        }
    };
    for key in keys.iter().take(200) {
        black_box(one(key).await?);
    }
    let cpu = thread_cpu();
    let started = Instant::now();
    let mut bytes = 0usize;
    for key in keys {
        bytes += one(key).await?;
    }
    let wall = started.elapsed();
    let cpu = thread_cpu().zip(cpu).map(|(b, a)| b.saturating_sub(a));
    black_box(bytes);
    Ok(rate(keys.len(), wall, cpu))
}

/// A presigned PUT then GET of one object with a plain HTTP client: the URLs measured are ones
/// the server accepts.
async fn presigned_round_trip(p: &Presigner, http: &reqwest::Client) -> anyhow::Result<()> {
    let key = format!("bench-presign-check/{}.txt", uuid::Uuid::new_v4());
    let body = "presigned round trip";
    let put = p
        .url("PUT", BUCKET, &key, UPLOAD_EXPIRES, None)
        .await
        .map_err(anyhow::Error::msg)?;
    let r = http.put(put).body(body).send().await?;
    anyhow::ensure!(r.status().is_success(), "presigned PUT answered {}", r.status());
    let get = p
        .url("GET", BUCKET, &key, DOWNLOAD_EXPIRES, None)
        .await
        .map_err(anyhow::Error::msg)?;
    let r = http.get(get).send().await?;
    anyhow::ensure!(r.status().is_success(), "presigned GET answered {}", r.status());
    anyhow::ensure!(r.text().await? == body, "presigned GET returned another body");
    Ok(())
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "FAIL" }
}

async fn presigning(
    s3_settings: &S3Settings,
    s3: &aws_sdk_s3::Client,
    http: &reqwest::Client,
) -> anyhow::Result<()> {
    println!("== Presigned URLs (one thread; per core = the rate of this thread)");
    let presigner = Presigner::new(s3_settings);
    match presigned_round_trip(&presigner, http).await {
        Ok(()) => println!("  a presigned PUT and GET round trip against the server: ok"),
        Err(e) => println!("  a presigned PUT and GET round trip against the server: FAILED ({e:#})"),
    }
    let id = uuid::Uuid::new_v4();
    let keys: Vec<String> = (0..PRESIGN_URLS)
        .map(|n| format!("datasets/{id}/file-{n}.csv"))
        .collect();
    let mut all_ok = true;
    for method in ["GET", "PUT"] {
        let ours = presign_ours(&presigner, method, &keys).await?;
        let sdk = presign_sdk(s3, method, &keys[..SDK_PRESIGN_URLS]).await?;
        let ok = ours.per_second >= PRESIGN_TARGET;
        all_ok &= ok;
        println!(
            "  {method:<4} Presigner::url      {PRESIGN_URLS:>7} keys: {}",
            ours.show()
        );
        println!(
            "  {method:<4} aws-sdk-s3 presigned {SDK_PRESIGN_URLS:>6} keys: {}   ours/sdk {:.1}x",
            sdk.show(),
            ours.per_second / sdk.per_second
        );
        println!(
            "  {method:<4} target >= {PRESIGN_TARGET:.0} URLs/s per core: {}",
            verdict(ok)
        );
    }
    println!("  presigning: {}", verdict(all_ok));
    Ok(())
}

/// The fixed id of the benchmark's dataset of `objects` files, so a later run reuses them.
fn dataset_id(objects: usize) -> String {
    format!("00000000-0000-4000-8000-{objects:012}")
}

fn object_key(prefix: &str, n: usize) -> String {
    format!("{prefix}part-{n:06}.csv")
}

/// One side's paging through the dataset's top folder: where it is, what it counted, and the
/// time its calls took.
#[derive(Default)]
struct Pass {
    token: Option<String>,
    done: bool,
    files: usize,
    folders: usize,
    pages: usize,
    busy: Duration,
}

/// The next page of ListObjectsV2 (prefix, delimiter '/', `max_keys`), straight from the server;
/// `each` sees every key.
async fn direct_page(
    s3: &aws_sdk_s3::Client,
    prefix: &str,
    max_keys: i32,
    pass: &mut Pass,
    mut each: impl FnMut(&str),
) -> anyhow::Result<()> {
    let started = Instant::now();
    let out = s3
        .list_objects_v2()
        .bucket(BUCKET)
        .prefix(prefix)
        .delimiter("/")
        .max_keys(max_keys)
        .set_continuation_token(pass.token.take())
        .send()
        .await
        .map_err(|e| anyhow::anyhow!("ListObjectsV2: {}", aws_sdk_s3::error::DisplayErrorContext(e)))?;
    pass.busy += started.elapsed();
    pass.pages += 1;
    for o in out.contents() {
        if let Some(k) = o.key() {
            each(k);
        }
    }
    pass.files += out.contents().len();
    pass.folders += out.common_prefixes().len();
    match out.next_continuation_token() {
        Some(t) if out.is_truncated().unwrap_or(false) => pass.token = Some(t.to_owned()),
        _ => pass.done = true,
    }
    Ok(())
}

/// The next page of the API's folder listing (`POST /v1/datasets/listfiles/{id}`, limit `PAGE`).
async fn api_page(http: &reqwest::Client, url: &str, bearer: &str, pass: &mut Pass) -> anyhow::Result<()> {
    let started = Instant::now();
    let r = http
        .post(url)
        .bearer_auth(bearer)
        .json(&json!({"path": "", "limit": PAGE, "continuationToken": pass.token.take()}))
        .send()
        .await?;
    let status = r.status();
    let body: Value = r.json().await?;
    pass.busy += started.elapsed();
    anyhow::ensure!(status == 200, "listfiles answered {status}: {body}");
    pass.pages += 1;
    pass.files += body["Contents"].as_array().map_or(0, Vec::len);
    pass.folders += body["CommonPrefixes"].as_array().map_or(0, Vec::len);
    match body["NextContinuationToken"].as_str() {
        Some(t) if body["IsTruncated"] == true => pass.token = Some(t.to_owned()),
        _ => pass.done = true,
    }
    Ok(())
}

/// One whole pass of each side, page by page in lockstep — the API's page n and the direct page n
/// one after the other, the first of the two alternating — so both see the same load on the
/// machine and neither always follows the other into a warm cache.
async fn round(
    s3: &aws_sdk_s3::Client,
    prefix: &str,
    http: &reqwest::Client,
    url: &str,
    bearer: &str,
) -> anyhow::Result<(Pass, Pass)> {
    let (mut api, mut direct) = (Pass::default(), Pass::default());
    let mut n = 0usize;
    while !api.done || !direct.done {
        let api_first = n.is_multiple_of(2);
        for api_turn in [api_first, !api_first] {
            if api_turn && !api.done {
                api_page(http, url, bearer, &mut api).await?;
            } else if !api_turn && !direct.done {
                direct_page(s3, prefix, PAGE, &mut direct, |_| {}).await?;
            }
        }
        n += 1;
    }
    Ok((api, direct))
}

/// Uploads the dataset's missing objects, `UPLOADS_IN_FLIGHT` at a time.
async fn fill(s3: &aws_sdk_s3::Client, prefix: &str, objects: usize) -> anyhow::Result<()> {
    let mut present = HashSet::new();
    let started = Instant::now();
    let mut pass = Pass::default();
    while !pass.done {
        // Untimed: as many keys a page as the server gives (S3 gives at most 1,000; the local
        // server reads the whole folder for every page, so one page instead of a hundred).
        direct_page(s3, prefix, i32::MAX, &mut pass, |k| {
            present.insert(k.to_owned());
        })
        .await?;
    }
    let missing: Vec<String> = (0..objects)
        .map(|n| object_key(prefix, n))
        .filter(|k| !present.contains(k))
        .collect();
    println!(
        "  {} of {objects} objects already under {prefix} (counted in {:.1} s); uploading {}",
        objects - missing.len(),
        started.elapsed().as_secs_f64(),
        missing.len()
    );
    if missing.is_empty() {
        return Ok(());
    }
    let started = Instant::now();
    let total = missing.len();
    let retried = &AtomicUsize::new(0);
    let mut uploads = stream::iter(missing)
        .map(|key| async move {
            let body = format!("id,value\n{key},1\n").into_bytes();
            // The local server now and then answers a burst of writes with 500s or drops a
            // connection; a few more tries, spaced out, get every object written.
            let mut attempt = 1;
            loop {
                match ludis_storage::objects::put(s3, BUCKET, &key, body.clone(), "text/csv").await {
                    Ok(()) => return Ok(()),
                    Err(e) if attempt >= UPLOAD_ATTEMPTS => {
                        return Err(format!("{e} (after {attempt} tries)"));
                    }
                    Err(_) => {
                        retried.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(250 * attempt)).await;
                        attempt += 1;
                    }
                }
            }
        })
        .buffer_unordered(UPLOADS_IN_FLIGHT);
    let mut done = 0;
    while let Some(r) = uploads.next().await {
        r.map_err(anyhow::Error::msg)?;
        done += 1;
        if done % 10_000 == 0 || done == total {
            println!(
                "  uploaded {done}/{total} ({:.0} objects/s, {} writes retried)",
                done as f64 / started.elapsed().as_secs_f64(),
                retried.load(Ordering::Relaxed)
            );
        }
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

async fn listing(
    s3_settings: &S3Settings,
    s3: &aws_sdk_s3::Client,
    http: &reqwest::Client,
    objects: usize,
) -> anyhow::Result<()> {
    println!("== Listing a dataset of {objects} files, {PAGE} a page");
    ludis_storage::ensure_bucket(s3, BUCKET)
        .await
        .map_err(anyhow::Error::msg)?;
    let id = dataset_id(objects);
    let prefix = ludis_storage::dataset_prefix("ludis-bench", &id);
    fill(s3, &prefix, objects).await?;

    // The API, in this process, on a scratch SQLite database, with no cluster.
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("bench.db").display());
    let mut settings = Settings::for_tests(url, dir.path().join("no-console"));
    settings.secrets_file = dir.path().join("secrets.env");
    settings.s3_endpoint = s3_settings.endpoint.clone();
    settings.s3_region = s3_settings.region.clone();
    settings.s3_access_key = s3_settings.access_key.clone();
    settings.s3_secret_key = Secret(s3_settings.secret_key.clone());
    settings.s3_bucket = BUCKET.into();
    // The passes may take minutes over a slow server; the token must outlive them.
    settings.access_token_ttl = 24 * 3600;
    let app = App::build(settings).await?;
    let state = app.state().clone();
    let address = format!("http://{}", app.local_addr());
    tokio::spawn(app.run_until_stopped());

    let now = db::now();
    let org = db::new_id();
    db::organizations::insert(
        &state.db,
        &db::organizations::OrganizationRow {
            id: org.clone(),
            name: "Bench".into(),
            slug: "bench".into(),
            admin_email: "admin@bench.example".into(),
            description: String::new(),
            tier: "paid".into(),
            max_seats: 10,
            bucket_id: None,
            is_2fa_required: false,
            created_at: now,
            idle_minutes: ludis_api::idle::DEFAULT_IDLE_MINUTES,
            allow_always_on: false,
        },
    )
    .await?;
    db::flighting::upsert_all(&state.db, &org, &ludis_api::policy::flags::defaults()).await?;
    let uid = db::new_id();
    let email = "owner@bench.example";
    let hash = password::hash(PASSWORD.into(), state.auth.hash).await?;
    db::users::insert(
        &state.db,
        &db::users::NewUser {
            uid: &uid,
            email,
            password_hash: &hash,
            first_name: "Bench",
            last_name: "Owner",
            role: ludis_api::domain::Role::Developer,
            organization_id: &org,
            cluster_id: None,
            timezone: "UTC",
            date_format: "MM/DD/YY",
        },
        now,
    )
    .await?;
    db::details::insert(
        &state.db,
        &db::datasets::Dataset {
            asset: db::assets::AssetRow {
                id: id.clone(),
                kind: ludis_api::domain::AssetKind::Dataset,
                organization_id: org.clone(),
                owner_uid: Some(uid.clone()),
                name: format!("Bench {objects}"),
                description: String::new(),
                img_path: None,
                namespace: None,
                resource_name: None,
                origin: ludis_api::domain::Origin::Api,
                views: 0,
                created_at: now,
                updated_at: now,
            },
            details: db::datasets::DatasetRow {
                id: id.clone(),
                bucket: BUCKET.into(),
                prefix: prefix.clone(),
                deletion_policy: ludis_api::domain::DeletionPolicy::Retain,
                status: ludis_api::domain::DatasetStatus::Ready,
                ..Default::default()
            },
        },
    )
    .await?;
    let login: Value = http
        .post(format!("{address}/v1/auth/login"))
        .json(&json!({"user": {"email": email, "password": PASSWORD}}))
        .send()
        .await?
        .json()
        .await?;
    let token = login["token"]
        .as_str()
        .with_context(|| format!("sign-in failed: {login}"))?
        .to_owned();

    let url = format!("{address}/v1/datasets/listfiles/{id}");
    let mut counts_ok = true;
    let mut check = |side: &str, pass: &Pass| {
        if pass.files != objects || pass.folders != 0 {
            counts_ok = false;
            println!(
                "  {side}: counted {} files and {} folders, expected {objects} files",
                pass.files, pass.folders
            );
        }
    };
    let (a, d) = round(s3, &prefix, http, &url, &token).await?;
    check("API (warm-up)", &a);
    check("direct (warm-up)", &d);
    println!(
        "  warm-up: one untimed pass of each; then each pass of the API and of ListObjectsV2 in lockstep"
    );
    println!(
        "  {:<6} {:>12} {:>6} {:>12} {:>6} {:>10}",
        "pass", "API s", "pages", "direct s", "pages", "API/direct"
    );
    let (mut api_times, mut direct_times) = (Vec::new(), Vec::new());
    for n in 1..=ROUNDS {
        let (a, d) = round(s3, &prefix, http, &url, &token).await?;
        check("API", &a);
        check("direct", &d);
        let (api, direct) = (a.busy.as_secs_f64(), d.busy.as_secs_f64());
        println!(
            "  {n:<6} {api:>12.3} {:>6} {direct:>12.3} {:>6} {:>10.3}",
            a.pages,
            d.pages,
            api / direct
        );
        api_times.push(api);
        direct_times.push(direct);
    }
    let (api, direct) = (median(api_times), median(direct_times));
    let ratio = api / direct;
    println!(
        "  median {api:>12.3} {:>6} {direct:>12.3}          ({:.0} vs {:.0} files/s)",
        "",
        objects as f64 / api,
        objects as f64 / direct
    );
    println!(
        "  every pass counted {objects} files: {}",
        if counts_ok { "yes" } else { "NO" }
    );
    let ok = ratio <= LIST_RATIO_TARGET && counts_ok;
    println!(
        "  ratio API / direct ListObjectsV2: {ratio:.3} (target <= {LIST_RATIO_TARGET}): {}",
        verdict(ok)
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let objects: usize = match std::env::args().nth(1) {
        Some(a) => a
            .replace(['_', ','], "")
            .parse()
            .with_context(|| format!("the object count {a:?} is not a number"))?,
        None => 100_000,
    };
    anyhow::ensure!(objects > 0, "the object count must be at least 1");
    let endpoint = std::env::var("LUDIS_BENCH_S3_ENDPOINT").map_err(|_| {
        anyhow::anyhow!("set LUDIS_BENCH_S3_ENDPOINT to a scratch S3 server (dev/bench-datasets.sh does)")
    })?;
    let env = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_owned());
    let s3_settings = S3Settings {
        endpoint,
        region: REGION.into(),
        access_key: env("LUDIS_S3_ACCESS_KEY", "ludis-dev"),
        secret_key: env("LUDIS_S3_SECRET_KEY", "ludis-dev-secret-key"),
    };
    let s3 = ludis_storage::client(&s3_settings);
    let http = reqwest::Client::new();
    println!(
        "datasets benchmark against {} (bucket {BUCKET})",
        s3_settings.endpoint
    );
    presigning(&s3_settings, &s3, &http).await?;
    listing(&s3_settings, &s3, &http, objects).await?;
    Ok(())
}
