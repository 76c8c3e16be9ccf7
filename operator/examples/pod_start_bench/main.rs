//! Pod start latency on the local platform's real node (run by `dev/bench-node.sh`): creates
//! BENCH_PODS (default 20) pods of the python image at once in a fresh namespace and measures, for
//! each, the time from its create call to the watch seeing it Running, then prints p50, p99 and
//! the slowest against the Kubernetes SLO (p99 ≤ 5 s; images are already on the node). A second
//! round runs after the first pods are deleted, since the first start of an image on a node also
//! reads it from disk.
//!
//! With BENCH_API (the platform's API), [`contained`] then measures what containment costs: the
//! same start for pods as the operator makes them — in an organization's namespace, whose
//! NetworkPolicies the node enforces, with a storage identity — and a pod's S3 read throughput
//! with its scoped credentials through the API's storage gateway against the root key.
//!
//! Environment: KUBECONFIG, BENCH_IMAGE (the python image's reference), BENCH_PODS; for
//! [`contained`] its own.

mod contained;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::{
    Api, Client, ResourceExt as _,
    api::{DeleteParams, ListParams, PostParams},
    runtime::{WatchStreamExt as _, watcher},
};
use serde_json::json;

const SLO: Duration = Duration::from_secs(5);

/// A bare pod of `image` that sleeps.
pub fn pod(name: &str, image: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"bench": "pod-start"}},
        "spec": {
            "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
            "automountServiceAccountToken": false,
            "enableServiceLinks": false,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "main", "image": image,
                "args": ["python", "-c", "import time; time.sleep(3600)"],
                "resources": {"requests": {"cpu": "25m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}
            }]
        }
    }))
    .unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).ceil() as usize]
}

/// Starts `count` pods at once (`make` names them and gives them the `bench=pod-start` label);
/// returns each one's create → Running time, sorted.
pub async fn round(pods: &Api<Pod>, count: usize, tag: &str, make: impl Fn(&str) -> Pod) -> Vec<Duration> {
    let running: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let seen = running.clone();
    let stream = watcher(pods.clone(), watcher::Config::default().labels("bench=pod-start"))
        .applied_objects()
        .boxed();
    let watch = tokio::spawn(async move {
        let mut stream = stream;
        while let Ok(Some(p)) = stream.try_next().await {
            if p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running") {
                seen.lock()
                    .unwrap()
                    .entry(p.name_any())
                    .or_insert_with(Instant::now);
            }
        }
    });
    // Let the watch list first, so every Running is seen as it happens.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let names: Vec<String> = (0..count).map(|i| format!("{tag}-{i}")).collect();
    let make = &make;
    let created: Vec<(String, Instant)> = futures::future::join_all(names.iter().map(|name| async move {
        let start = Instant::now();
        pods.create(&PostParams::default(), &make(name))
            .await
            .unwrap_or_else(|e| panic!("creating {name}: {e}"));
        (name.clone(), start)
    }))
    .await;
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if running.lock().unwrap().len() >= count {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not every pod was Running within 180 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    watch.abort();
    let running = running.lock().unwrap();
    let mut latencies: Vec<Duration> = created
        .iter()
        .map(|(name, start)| running[name].saturating_duration_since(*start))
        .collect();
    latencies.sort();
    latencies
}

/// Deletes the pods of the rounds in `pods`' namespace and waits until they are gone, so the
/// next round has the node to itself.
pub async fn clear(pods: &Api<Pod>) -> anyhow::Result<()> {
    let ours = ListParams::default().labels("bench=pod-start");
    pods.delete_collection(&DeleteParams::default(), &ours).await?;
    while !pods.list(&ours).await?.items.is_empty() {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(())
}

pub fn report(label: &str, latencies: &[Duration]) {
    let p50 = percentile(latencies, 0.5);
    let p99 = percentile(latencies, 0.99);
    println!(
        "{label:<34} p50 {:>6.2} s   p99 {:>6.2} s   slowest {:>6.2} s   SLO p99 <= {} s: {}",
        p50.as_secs_f64(),
        p99.as_secs_f64(),
        latencies.last().unwrap().as_secs_f64(),
        SLO.as_secs(),
        if p99 <= SLO { "met" } else { "NOT met" }
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The S3 gateway's crates bring a second TLS provider: choose ring, as the operator does.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let image = std::env::var("BENCH_IMAGE").expect("BENCH_IMAGE: the python image's reference");
    let count: usize = std::env::var("BENCH_PODS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let client = Client::try_default().await?;
    let ns_name = format!("bench-pods-{}", std::process::id());
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": ns_name}}))?;
    namespaces.create(&PostParams::default(), &ns).await?;
    let accounts: Api<k8s_openapi::api::core::v1::ServiceAccount> = Api::namespaced(client.clone(), &ns_name);
    while accounts.get_opt("default").await?.is_none() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns_name);

    println!("{count} pods of {image}, created at once, create -> Running seen through a watch:");
    let first = round(&pods, count, "first", |n| pod(n, &image)).await;
    report("first round", &first);
    clear(&pods).await?;
    let second = round(&pods, count, "second", |n| pod(n, &image)).await;
    report("second round", &second);
    clear(&pods).await?;
    if let Some(platform) = contained::Platform::from_env() {
        contained::run(&client, &platform, &pods, &image, count).await?;
    }
    namespaces.delete(&ns_name, &DeleteParams::background()).await?;
    Ok(())
}
