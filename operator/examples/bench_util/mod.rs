//! Measurements shared by the operator's benchmark programs: a process's CPU time and peak RSS
//! (from /proc), percentiles, and the benchmark's own namespace.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client,
    api::{DeleteParams, PostParams},
};

/// The `p` percentile (0…1) of sorted durations; zero when there are none.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// CPU seconds (user + system) the process has used so far.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command (which may hold spaces) start after the last ')'.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // utime and stime are fields 14 and 15 of stat(5); here 11 and 12 (0-based, after the state).
    (ticks(11) + ticks(12)) / 100.0
}

/// The process's peak resident set, in MiB.
pub fn peak_rss_mib(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// The number in the environment variable `name`, else `default`.
pub fn count_from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// How long a namespace of an earlier run may take to go.
const NAMESPACE_GONE: Duration = Duration::from_secs(600);

/// Creates the benchmark's own namespace, `<prefix>-<pid>`, once no namespace of an earlier run
/// (`<prefix>-…`) is still being deleted: a measurement starts on a quiet cluster.
pub async fn create_namespace(client: &Client, prefix: &str) -> anyhow::Result<String> {
    let namespaces = Api::<Namespace>::all(client.clone());
    let deadline = Instant::now() + NAMESPACE_GONE;
    loop {
        let leaving = namespaces
            .list(&Default::default())
            .await?
            .items
            .iter()
            .filter(|n| n.metadata.deletion_timestamp.is_some())
            .filter_map(|n| n.metadata.name.clone())
            .filter(|n| n.starts_with(&format!("{prefix}-")))
            .count();
        if leaving == 0 {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "{leaving} namespaces of earlier runs are still being deleted"
        );
        eprintln!("  waiting for {leaving} namespaces of an earlier run to be deleted");
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    let ns = format!("{prefix}-{}", std::process::id());
    let namespace: Namespace = serde_json::from_value(serde_json::json!({"metadata": {"name": ns}}))?;
    namespaces.create(&PostParams::default(), &namespace).await?;
    Ok(ns)
}

/// Deletes the benchmark's namespace and waits (10 minutes at most) until it is gone, so the next
/// measurement starts on a quiet cluster.
pub async fn delete_namespace(client: &Client, ns: &str) -> anyhow::Result<()> {
    let namespaces = Api::<Namespace>::all(client.clone());
    namespaces.delete(ns, &DeleteParams::background()).await?;
    let deadline = Instant::now() + NAMESPACE_GONE;
    while namespaces.get_opt(ns).await?.is_some() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(())
}
