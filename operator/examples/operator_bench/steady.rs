//! The steady load, as the Kubernetes SLOs measure: with N Projects and N Insights present (all
//! Ready), RATE changes a second for SECONDS, spread over the insights in turn. Each change is a
//! new `spec.redeployToken` (a redeploy), which the operator carries into its Deployment's pod
//! template; the latency of a change runs from the API server's answer to the patch to the
//! moment a watch on the Deployments shows that token (or a later one of the same insight).
//! Printed: the latency percentiles against the goal (p99 ≤ 1 s), and the operator's share of
//! them from its /metrics over the run — how long changes waited for their reconcile, how long
//! reconciles took, the calls to the API server — with its CPU time and peak RSS.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::api::apps::v1::Deployment;
use kube::{
    Api, Client, ResourceExt as _,
    api::{Patch, PatchParams},
    runtime::watcher,
};
use ludis_crds::{ANNOTATION_REDEPLOY_TOKEN, Insight, LABEL_INSIGHT};
use ludis_operator::metrics::read::{self, Buckets, Sample};
use serde_json::json;

use crate::{
    Operator,
    bench_util::{cpu_seconds, peak_rss_mib, percentile},
    population::{self, insight_name},
};

/// The goal: CR → child p99.
const GOAL: Duration = Duration::from_secs(1);
/// How long changes still unseen at the end of the load are waited for.
const DRAIN: Duration = Duration::from_secs(60);

/// A change written: which insight, its number (the token `s<number>`), when the API server
/// answered, and how long it took to.
struct Change {
    insight: String,
    seq: u64,
    wrote: Instant,
    answered_in: Duration,
}

/// What the watch on the Deployments saw: each insight's tokens as they appeared.
#[derive(Default)]
struct Seen {
    tokens: HashMap<String, Vec<(u64, Instant)>>,
    listed: bool,
}

impl Seen {
    /// When `change` was first visible on its child, if it was.
    fn of(&self, change: &Change) -> Option<Instant> {
        self.tokens
            .get(&change.insight)?
            .iter()
            .filter(|(seq, _)| *seq >= change.seq)
            .map(|(_, at)| *at)
            .min()
    }
}

/// The control plane's processes (`BENCH_CONTROL_PLANE`: `name=pid` separated by spaces), whose
/// CPU time over the run is printed.
fn control_plane() -> Vec<(String, u32)> {
    std::env::var("BENCH_CONTROL_PLANE")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| {
            let (name, pid) = p.split_once('=')?;
            Some((name.to_owned(), pid.parse().ok()?))
        })
        .collect()
}

/// The 1-minute load average of the machine (which other work shares).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_default()
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn token(seq: u64) -> String {
    format!("s{seq}")
}

/// The change number of a Deployment's redeploy token, with its insight.
fn token_of(d: &Deployment) -> Option<(String, u64)> {
    let insight = d.labels().get(LABEL_INSIGHT)?.clone();
    let token = d
        .spec
        .as_ref()?
        .template
        .metadata
        .as_ref()?
        .annotations
        .as_ref()?
        .get(ANNOTATION_REDEPLOY_TOKEN)?;
    Some((insight, token.strip_prefix('s')?.parse().ok()?))
}

/// Watches the namespace's Deployments, noting each new token per insight.
fn watch_children(client: &Client, ns: &str, seen: Arc<Mutex<Seen>>) -> tokio::task::JoinHandle<()> {
    let api: Api<Deployment> = Api::namespaced(client.clone(), ns);
    let stream = watcher(api, watcher::Config::default().labels(LABEL_INSIGHT));
    tokio::spawn(async move {
        let mut stream = stream.boxed();
        while let Ok(Some(event)) = stream.try_next().await {
            let now = Instant::now();
            let mut seen = seen.lock().unwrap();
            match event {
                watcher::Event::Apply(d) | watcher::Event::InitApply(d) => {
                    if let Some((insight, seq)) = token_of(&d) {
                        let tokens = seen.tokens.entry(insight).or_default();
                        if tokens.last().is_none_or(|(last, _)| *last != seq) {
                            tokens.push((seq, now));
                        }
                    }
                }
                watcher::Event::InitDone => seen.listed = true,
                watcher::Event::Init | watcher::Event::Delete(_) => {}
            }
        }
    })
}

/// p50 and p99 of a histogram over the run, and its count, as one line.
fn share(name: &str, what: &str, before: &[Sample], after: &[Sample], keep: impl Fn(&Sample) -> bool + Copy) {
    let run = Buckets::of(after, name, keep).since(&Buckets::of(before, name, keep));
    let q = |q: f64| run.quantile(q).map_or("-".to_owned(), |s| format!("{s:.3} s"));
    println!(
        "    {what:<28} p50 {:>9}   p99 {:>9}   ({:.0})",
        q(0.50),
        q(0.99),
        run.count()
    );
}

pub async fn run(
    client: &Client,
    ns: &str,
    n: usize,
    rate: usize,
    seconds: usize,
    operator: &Operator,
) -> anyhow::Result<()> {
    anyhow::ensure!(n > 0 && rate > 0, "BENCH_COUNT and BENCH_RATE must be positive");
    eprintln!("  creating {n} Projects + {n} Insights and waiting until all are Ready");
    population::create(client, ns, n).await;
    population::wait_ready(client, ns, n, operator.pid).await?;

    let seen: Arc<Mutex<Seen>> = Arc::default();
    let watch = watch_children(client, ns, seen.clone());
    let listed = Instant::now() + Duration::from_secs(60);
    while !seen.lock().unwrap().listed {
        anyhow::ensure!(
            Instant::now() < listed,
            "the Deployments' watch did not list in 60 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The peak RSS of the run only: Linux resets VmHWM to the current RSS on "5".
    let peak_reset = std::fs::write(format!("/proc/{}/clear_refs", operator.pid), "5").is_ok();
    let before = operator.scrape().await;
    let cpu_before = cpu_seconds(operator.pid);
    let control_plane = control_plane();
    let control_plane_before: Vec<f64> = control_plane.iter().map(|(_, pid)| cpu_seconds(*pid)).collect();
    let load_before = load_average();

    let insights: Api<Insight> = Api::namespaced(client.clone(), ns);
    let total = rate * seconds;
    let changes: Arc<Mutex<Vec<Change>>> = Arc::default();
    let failed = Arc::new(Mutex::new(0usize));
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate as f64));
    let mut writes = tokio::task::JoinSet::new();
    let start = Instant::now();
    eprintln!("  {rate} changes/s for {seconds} s");
    for k in 0..total {
        tick.tick().await;
        let (insights, changes, failed) = (insights.clone(), changes.clone(), failed.clone());
        let seq = k as u64;
        let name = insight_name(k % n);
        // Open loop: a slow answer does not hold back the next change.
        writes.spawn(async move {
            let patch = json!({"spec": {"redeployToken": token(seq)}});
            let sent = Instant::now();
            match insights
                .patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
                .await
            {
                Ok(_) => changes.lock().unwrap().push(Change {
                    insight: name,
                    seq,
                    wrote: Instant::now(),
                    answered_in: sent.elapsed(),
                }),
                Err(e) => {
                    eprintln!("\n  change {seq} of {name} failed: {e}");
                    *failed.lock().unwrap() += 1;
                }
            }
        });
        if k % (rate * 10) == 0 {
            eprint!("\r  changes written: {k}/{total}   ");
        }
    }
    while writes.join_next().await.is_some() {}
    let load = start.elapsed();
    eprintln!(
        "\r  changes written: {total}/{total} in {:.1} s",
        load.as_secs_f64()
    );
    let drain = Instant::now() + DRAIN;
    loop {
        let unseen = {
            let (seen, changes) = (seen.lock().unwrap(), changes.lock().unwrap());
            changes.iter().filter(|c| seen.of(c).is_none()).count()
        };
        if unseen == 0 || Instant::now() >= drain {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = operator.scrape().await;
    let cpu = cpu_seconds(operator.pid) - cpu_before;
    let control_plane_cpu: Vec<f64> = control_plane
        .iter()
        .zip(&control_plane_before)
        .map(|((_, pid), before)| cpu_seconds(*pid) - before)
        .collect();
    let peak = peak_rss_mib(operator.pid);
    watch.abort();

    let (seen, changes) = (seen.lock().unwrap(), changes.lock().unwrap());
    let mut latencies: Vec<Duration> = changes
        .iter()
        .filter_map(|c| seen.of(c).map(|at| at.saturating_duration_since(c.wrote)))
        .collect();
    latencies.sort();
    let unseen = changes.len() - latencies.len();
    let p = |q: f64| percentile(&latencies, q).as_secs_f64();
    let p99 = percentile(&latencies, 0.99);
    let met = unseen == 0 && !latencies.is_empty() && p99 <= GOAL;

    println!(
        "Steady-load benchmark: {n} Projects + {n} Insights present, {rate} changes/s for {seconds} s \
         (each a new redeployToken of an insight, seen on its Deployment's pod template)"
    );
    println!(
        "  changes written            {:>8}  in {:.1} s ({} failed); seen on the child: {}, not within {} s: {unseen}",
        changes.len(),
        load.as_secs_f64(),
        failed.lock().unwrap(),
        latencies.len(),
        DRAIN.as_secs()
    );
    println!("  CR -> child latency p50    {:>8.3} s", p(0.50));
    println!("                      p95    {:>8.3} s", p(0.95));
    println!(
        "                      p99    {:>8.3} s  (goal <= {} s: {})",
        p(0.99),
        GOAL.as_secs(),
        if met { "met" } else { "NOT met" }
    );
    println!("                      max    {:>8.3} s", p(1.0));
    // The API server's own pace: how long it took to answer the benchmark's patches (an
    // administrator's, exempt from API Priority and Fairness).
    let mut answers: Vec<Duration> = changes.iter().map(|c| c.answered_in).collect();
    answers.sort();
    println!(
        "  the API server's answer to the patches p50 {:.3} s, p99 {:.3} s",
        percentile(&answers, 0.50).as_secs_f64(),
        percentile(&answers, 0.99).as_secs_f64()
    );
    println!("  the operator's share, from its /metrics over the run:");
    let insight = |s: &Sample| s.label("controller") == Some("insight");
    share(
        "ludis_operator_queue_wait_seconds",
        "queue wait (insight)",
        &before,
        &after,
        insight,
    );
    share(
        "ludis_operator_reconcile_duration_seconds",
        "reconcile (insight)",
        &before,
        &after,
        insight,
    );
    share(
        "ludis_operator_kube_request_duration_seconds",
        "API calls (every verb)",
        &before,
        &after,
        |_| true,
    );
    for verb in ["apply", "patch", "create", "delete", "get", "list"] {
        let of_verb = |s: &Sample| s.label("verb") == Some(verb);
        let name = "ludis_operator_kube_request_duration_seconds";
        if Buckets::of(&after, name, of_verb)
            .since(&Buckets::of(&before, name, of_verb))
            .count()
            > 0.0
        {
            share(name, &format!("  {verb}"), &before, &after, of_verb);
        }
    }
    let not_ok = |s: &Sample| !s.label("status").is_some_and(|c| c.starts_with('2'));
    let requests = "ludis_operator_kube_requests_total";
    println!(
        "    API calls not answered 2xx   {:.0}",
        read::sum(&after, requests, not_ok) - read::sum(&before, requests, not_ok)
    );
    println!(
        "    CPU time                     {cpu:.2} s  ({:.1} % of a core)",
        100.0 * cpu / load.as_secs_f64()
    );
    println!(
        "    peak RSS                     {peak:.1} MiB{}",
        if peak_reset {
            ""
        } else {
            "  (since the operator started)"
        }
    );
    if !control_plane.is_empty() {
        let parts: Vec<String> = control_plane
            .iter()
            .zip(&control_plane_cpu)
            .map(|((name, _), cpu)| format!("{name} {cpu:.0} s"))
            .collect();
        println!(
            "  the control plane's CPU time over the run: {} (of {:.0} s on {} cores)",
            parts.join(", "),
            load.as_secs_f64() * cores() as f64,
            cores()
        );
    }
    println!(
        "  the machine's load average (1 min) at the start and the end: {load_before} / {}",
        load_average()
    );
    Ok(())
}
