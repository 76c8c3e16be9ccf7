//! The burst: creates N Projects and N Insights (applications) at once and prints how long until
//! all are Ready, reconciles per second, p50/p99 latency from CR creation to child creation, and
//! the operator's CPU time and peak RSS — next to a baseline run in the same process: N ConfigMaps
//! created and seen through a watch, the API server's own pace on this machine.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::api::{
    apps::v1::Deployment,
    core::v1::{ConfigMap, PersistentVolumeClaim},
};
use kube::{
    Api, Client, ResourceExt as _,
    api::PostParams,
    runtime::{WatchStreamExt as _, watcher},
};
use ludis_operator::metrics::read;
use serde_json::json;

use crate::{
    Operator,
    bench_util::{cpu_seconds, percentile},
    population::{self, create_all},
};

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

async fn reconciles(operator: &Operator) -> f64 {
    read::sum(
        &operator.scrape().await,
        "ludis_operator_reconciles_total",
        |_| true,
    )
}

pub async fn run(client: &Client, ns: &str, n: usize, operator: &Operator) -> anyhow::Result<()> {
    // Baseline: the API server's pace for N plain objects, created and seen through a watch.
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), ns);
    let seen_cm: Seen = Arc::default();
    let w = record(
        cms.clone(),
        "bench=baseline",
        |o: &ConfigMap| Some(o.name_any()),
        seen_cm.clone(),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let t0 = Instant::now();
    create_all(n, |i| {
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

    // The operator: N Projects and N Insights, each child seen through a watch.
    let seen_child: Seen = Arc::default();
    let label = "app.kubernetes.io/managed-by=ludis-operator";
    let w1 = record(
        Api::<PersistentVolumeClaim>::namespaced(client.clone(), ns),
        label,
        |o| {
            o.labels()
                .get("ludis.dev/project")
                .map(|n| format!("project/{n}"))
        },
        seen_child.clone(),
    );
    let w2 = record(
        Api::<Deployment>::namespaced(client.clone(), ns),
        label,
        |o| {
            o.labels()
                .get("ludis.dev/insight")
                .map(|n| format!("insight/{n}"))
        },
        seen_child.clone(),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reconciles_before = reconciles(operator).await;
    let cpu_before = cpu_seconds(operator.pid);
    let t1 = Instant::now();
    let created = population::create(client, ns, n).await;
    let created_in = t1.elapsed();
    let peak = population::wait_ready(client, ns, n, operator.pid).await?;
    let all_ready = t1.elapsed();
    let cpu = cpu_seconds(operator.pid) - cpu_before;
    let reconciles = reconciles(operator).await - reconciles_before;
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
    Ok(())
}
