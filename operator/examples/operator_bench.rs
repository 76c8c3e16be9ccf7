//! Operator benchmark (run by `dev/bench-operator.sh`, which starts the operator): creates N
//! Projects and N Insights (applications) in a fresh namespace and prints how long until all are
//! Ready, reconciles per second, p50/p99 latency from CR creation to child creation, and the
//! operator's peak RSS — next to a baseline run in the same process: N ConfigMaps created and
//! seen through a watch, the API server's own pace on this machine.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::api::{
    apps::v1::Deployment,
    core::v1::{ConfigMap, Namespace, PersistentVolumeClaim},
};
use kube::{
    Api, Client, ResourceExt as _,
    api::{DeleteParams, PostParams},
    runtime::{WatchStreamExt as _, watcher},
};
use ludis_crds::{Insight, InsightSpec, Project, ProjectSpec};
use serde_json::json;

mod bench_util;

use bench_util::{count_from_env, cpu_seconds, create_namespace, peak_rss_mib, percentile};

type Seen = Arc<Mutex<HashMap<String, Instant>>>;

/// Records when each object named like a key of `owners` (by `key_of`) is first seen.
fn record<K>(
    api: Api<K>,
    label: &str,
    key_of: fn(&K) -> Option<String>,
    seen: Seen,
) -> tokio::task::JoinHandle<()>
where
    K: kube::Resource + Clone + std::fmt::Debug + serde::de::DeserializeOwned + Send + 'static,
{
    let cfg = watcher::Config::default().labels(label);
    tokio::spawn(async move {
        let mut stream = watcher(api, cfg).applied_objects().boxed();
        while let Ok(Some(obj)) = stream.try_next().await {
            if let Some(key) = key_of(&obj) {
                seen.lock().unwrap().entry(key).or_insert_with(Instant::now);
            }
        }
    })
}

fn ready(status: &serde_json::Value) -> bool {
    status["conditions"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
}

async fn create_all<F, Fut>(n: usize, concurrency: usize, f: F) -> HashMap<String, Instant>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = String>,
{
    futures::stream::iter(0..n)
        .map(|i| {
            let fut = f(i);
            async move { (fut.await, Instant::now()) }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await
}

async fn metric(url: &str) -> f64 {
    let text = match reqwest::get(url).await {
        Ok(r) => r.text().await.unwrap_or_default(),
        Err(_) => return f64::NAN,
    };
    text.lines()
        .filter(|l| l.starts_with("ludis_operator_reconciles_total"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let n: usize = count_from_env("BENCH_COUNT", 1000);
    let metrics_url =
        std::env::var("BENCH_METRICS_URL").unwrap_or_else(|_| "http://127.0.0.1:18081/metrics".into());
    let operator_pid: u32 = std::env::var("BENCH_OPERATOR_PID")?.parse()?;
    let client = Client::try_default().await?;
    let ns = create_namespace(&client, "bench").await?;
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let concurrency = 32;

    // Baseline: the API server's pace for N plain objects, created and seen through a watch.
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), &ns);
    let seen_cm: Seen = Arc::default();
    let w = record(
        cms.clone(),
        "bench=baseline",
        |o: &ConfigMap| Some(o.name_any()),
        seen_cm.clone(),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let t0 = Instant::now();
    create_all(n, concurrency, |i| {
        let cms = cms.clone();
        async move {
            let name = format!("cm-{i}");
            let cm =
                serde_json::from_value(json!({"metadata": {"name": name, "labels": {"bench": "baseline"}}}))
                    .unwrap();
            cms.create(&PostParams::default(), &cm)
                .await
                .expect("create ConfigMap");
            name
        }
    })
    .await;
    while seen_cm.lock().unwrap().len() < n {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let baseline = t0.elapsed();
    w.abort();

    // The operator: N Projects (a workspace volume each) and N Insights (a Deployment and a
    // Service each, whose pods run on the KWOK node).
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns);
    let insights: Api<Insight> = Api::namespaced(client.clone(), &ns);
    let seen_child: Seen = Arc::default();
    let label = "app.kubernetes.io/managed-by=ludis-operator";
    let w1 = record(
        Api::<PersistentVolumeClaim>::namespaced(client.clone(), &ns),
        label,
        |o| {
            o.labels()
                .get("ludis.dev/project")
                .map(|n| format!("project/{n}"))
        },
        seen_child.clone(),
    );
    let w2 = record(
        Api::<Deployment>::namespaced(client.clone(), &ns),
        label,
        |o| {
            o.labels()
                .get("ludis.dev/insight")
                .map(|n| format!("insight/{n}"))
        },
        seen_child.clone(),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reconciles_before = metric(&metrics_url).await;
    let cpu_before = cpu_seconds(operator_pid);
    let t1 = Instant::now();
    let mut created = create_all(n, concurrency, |i| {
        let projects = projects.clone();
        async move {
            let name = format!("p-{i}");
            let spec: ProjectSpec =
                serde_json::from_value(json!({"displayName": name, "image": "default-python"})).unwrap();
            projects
                .create(&PostParams::default(), &Project::new(&name, spec))
                .await
                .expect("create Project");
            format!("project/{name}")
        }
    })
    .await;
    created.extend(
        create_all(n, concurrency, |i| {
            let insights = insights.clone();
            async move {
                let name = format!("i-{i}");
                let spec: InsightSpec =
                    serde_json::from_value(json!({"displayName": name, "type": "application",
                    "source": {"project": format!("p-{i}"), "files": ["app.py"]}}))
                    .unwrap();
                insights
                    .create(&PostParams::default(), &Insight::new(&name, spec))
                    .await
                    .expect("create Insight");
                format!("insight/{name}")
            }
        })
        .await,
    );
    let created_in = t1.elapsed();

    // Wait until every object is Ready.
    let deadline = Instant::now() + Duration::from_secs(900);
    let mut peak = peak_rss_mib(operator_pid);
    loop {
        let p = projects.list(&Default::default()).await?;
        let i = insights.list(&Default::default()).await?;
        let ready_count = p
            .items
            .iter()
            .filter(|o| ready(&serde_json::to_value(&o.status).unwrap_or_default()))
            .count()
            + i.items
                .iter()
                .filter(|o| ready(&serde_json::to_value(&o.status).unwrap_or_default()))
                .count();
        peak = peak.max(peak_rss_mib(operator_pid));
        if ready_count == 2 * n {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "only {ready_count} of {} objects Ready after 15 minutes",
            2 * n
        );
        eprint!("\r  ready: {ready_count}/{}   ", 2 * n);
        // Listing 2,000 objects loads the API server too: look every 2 s only.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    eprintln!();
    let all_ready = t1.elapsed();
    let cpu = cpu_seconds(operator_pid) - cpu_before;
    let reconciles = metric(&metrics_url).await - reconciles_before;
    w1.abort();
    w2.abort();

    let seen = seen_child.lock().unwrap().clone();
    let mut latencies: Vec<Duration> = created
        .iter()
        .filter_map(|(k, at)| seen.get(k).map(|s| s.saturating_duration_since(*at)))
        .collect();
    latencies.sort();
    let (p50, p99) = (percentile(&latencies, 0.50), percentile(&latencies, 0.99));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let changes_per_s = (2 * n) as f64 / all_ready.as_secs_f64();
    let baseline_per_s = n as f64 / baseline.as_secs_f64();

    println!("Operator benchmark: {n} Projects + {n} Insights on the local control plane ({cores} cores)");
    println!(
        "  baseline: {n} ConfigMaps created and watched in {:.2} s ({baseline_per_s:.0}/s)",
        baseline.as_secs_f64()
    );
    println!("  created {} objects in {:.2} s", 2 * n, created_in.as_secs_f64());
    println!("  all Ready after            {:>8.2} s", all_ready.as_secs_f64());
    println!(
        "  objects handled per second {:>8.1}  ({:.1} per core; target >= 80 per core)",
        changes_per_s,
        changes_per_s / cores
    );
    println!(
        "  operator CPU time          {:>8.2} s  ({:.0} objects per CPU-second of the operator)",
        cpu,
        (2 * n) as f64 / cpu
    );
    println!(
        "  ratio to the baseline pace {:>8.2}",
        changes_per_s / baseline_per_s
    );
    println!(
        "  reconciles                 {:>8.0}  ({:.1}/s)",
        reconciles,
        reconciles / all_ready.as_secs_f64()
    );
    println!("  CR -> child latency p50    {:>8.3} s", p50.as_secs_f64());
    println!(
        "  CR -> child latency p99    {:>8.3} s  (target <= 1 s; {} children seen)",
        p99.as_secs_f64(),
        latencies.len()
    );
    println!(
        "  operator peak RSS          {:>8.1} MiB  (target <= 100 MB)",
        peak
    );

    namespaces.delete(&ns, &DeleteParams::background()).await?;
    Ok(())
}
