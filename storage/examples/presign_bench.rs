//! How many presigned URLs one thread makes a second: ludis-storage's `Presigner` against the
//! AWS SDK's own presigning (`PresigningConfig`) as a baseline, on the same distinct keys.
//!
//! `cargo run -p ludis-storage --release --example presign_bench [N [--ours-only]]` (default
//! N = 200,000; `--ours-only` skips the SDK, e.g. to profile). No server is contacted: presigning
//! is local. The target is at least 50,000 URLs a second on one core. Besides wall-clock rates it
//! prints rates per second of CPU time the thread got (Linux), which a busy machine disturbs less.

use std::time::{Duration, Instant};

use aws_sdk_s3::presigning::PresigningConfig;
use ludis_storage::{
    S3Settings, client,
    presign::{DOWNLOAD_EXPIRES, Presigner, UPLOAD_EXPIRES},
};

/// CPU time this thread has run, from /proc (None elsewhere).
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Wall and CPU time of `f`.
fn timed(f: impl FnOnce()) -> (Duration, Option<Duration>) {
    let (wall, cpu) = (Instant::now(), thread_cpu());
    f();
    let cpu = cpu.and_then(|before| Some(thread_cpu()? - before));
    (wall.elapsed(), cpu)
}

fn report(name: &str, n: usize, (wall, cpu): (Duration, Option<Duration>)) -> f64 {
    let rate = |d: Duration| n as f64 / d.as_secs_f64();
    let on_cpu = cpu.map_or(String::new(), |c| format!(", {:>8.0} per CPU-second", rate(c)));
    println!(
        "{name:<24} {:>8.0} URLs/s ({:.2} µs each){on_cpu}",
        rate(wall),
        wall.as_secs_f64() * 1e6 / n as f64
    );
    rate(cpu.unwrap_or(wall))
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N must be a number"))
        .unwrap_or(200_000);
    let ours_only = std::env::args().nth(2).as_deref() == Some("--ours-only");
    let settings = S3Settings {
        endpoint: "http://127.0.0.1:39000".into(),
        region: "us-east-1".into(),
        access_key: "ludis-dev".into(),
        secret_key: "ludis-dev-secret-key".into(),
    };
    let bucket = "ludis";
    // Distinct keys like the API signs: a dataset prefix, a folder, a file name with a space.
    let keys: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "datasets/0190c0de-{:04x}-7bbb-8ccc-123456789abc/folder {}/file-{i}.csv",
                i % 997,
                i % 13
            )
        })
        .collect();
    let method = |i: usize| {
        if i.is_multiple_of(2) {
            ("GET", DOWNLOAD_EXPIRES)
        } else {
            ("PUT", UPLOAD_EXPIRES)
        }
    };

    // One current-thread runtime for both: getting the credentials is async (they may come from
    // the cloud's chain); here they are the settings' keys, ready at once.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let presigner = Presigner::new(&settings);
    let sample = runtime
        .block_on(presigner.url("PUT", bucket, &keys[0], UPLOAD_EXPIRES, None))
        .unwrap();
    println!("sample URL ({} bytes): {sample}", sample.len());
    println!("{n} distinct keys, one thread, half GET half PUT");

    let mut bytes = 0usize;
    let ours = report(
        "ludis Presigner:",
        n,
        timed(|| {
            runtime.block_on(async {
                for (i, key) in keys.iter().enumerate() {
                    let (method, expires) = method(i);
                    bytes += presigner
                        .url(method, bucket, key, expires, None)
                        .await
                        .unwrap()
                        .len();
                }
            })
        }),
    );
    if !ours_only {
        let s3 = client(&settings);
        let get = PresigningConfig::expires_in(DOWNLOAD_EXPIRES).unwrap();
        let put = PresigningConfig::expires_in(UPLOAD_EXPIRES).unwrap();
        let sdk = report(
            "aws-sdk-s3 presigned():",
            n,
            timed(|| {
                runtime.block_on(async {
                    for (i, key) in keys.iter().enumerate() {
                        let url = if method(i).0 == "GET" {
                            s3.get_object()
                                .bucket(bucket)
                                .key(key)
                                .presigned(get.clone())
                                .await
                                .unwrap()
                        } else {
                            s3.put_object()
                                .bucket(bucket)
                                .key(key)
                                .presigned(put.clone())
                                .await
                                .unwrap()
                        };
                        bytes += url.uri().len();
                    }
                })
            }),
        );
        println!("ratio: {:.1}× the SDK", ours / sdk);
    }
    println!("({bytes} URL bytes in all)");
    println!(
        "target 50,000 URLs/s per core: {}",
        if ours >= 50_000.0 { "met" } else { "NOT met" }
    );
}
