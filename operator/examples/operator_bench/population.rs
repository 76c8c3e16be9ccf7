//! The objects both benchmarks run with: N Projects `p-<i>` (a workspace volume each) and N
//! Insights `i-<i>` (applications of `p-<i>`: a Deployment and a Service each, whose pods run on
//! the KWOK node).

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use futures::StreamExt as _;
use kube::{Api, Client, api::PostParams};
use ludis_crds::{Insight, InsightSpec, Project, ProjectSpec};
use serde_json::json;

use crate::bench_util::peak_rss_mib;

/// How many create calls are in flight at once.
const CONCURRENCY: usize = 32;

/// Runs `f(0..n)` with [`CONCURRENCY`] calls at once; each returns the key of what it created,
/// kept with the moment its call returned.
pub async fn create_all<F, Fut>(n: usize, f: F) -> HashMap<String, Instant>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = String>,
{
    futures::stream::iter(0..n)
        .map(|i| {
            let fut = f(i);
            async move { (fut.await, Instant::now()) }
        })
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await
}

/// The name of the `i`th insight.
pub fn insight_name(i: usize) -> String {
    format!("i-{i}")
}

/// Creates the N Projects, then the N Insights; returns when each was created, keyed
/// `project/<name>` and `insight/<name>`.
pub async fn create(client: &Client, ns: &str, n: usize) -> HashMap<String, Instant> {
    let projects: Api<Project> = Api::namespaced(client.clone(), ns);
    let insights: Api<Insight> = Api::namespaced(client.clone(), ns);
    let mut created = create_all(n, |i| {
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
        create_all(n, |i| {
            let insights = insights.clone();
            async move {
                let name = insight_name(i);
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
    created
}

fn ready(status: &serde_json::Value) -> bool {
    status["conditions"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
}

/// Waits (15 minutes at most) until all 2N objects are Ready (insights need their pods Available);
/// returns the operator's peak RSS meanwhile, in MiB.
pub async fn wait_ready(client: &Client, ns: &str, n: usize, operator_pid: u32) -> anyhow::Result<f64> {
    let projects: Api<Project> = Api::namespaced(client.clone(), ns);
    let insights: Api<Insight> = Api::namespaced(client.clone(), ns);
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
            eprintln!();
            return Ok(peak);
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
}
