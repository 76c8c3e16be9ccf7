//! Workflow engine benchmark, run by `dev/bench-workflows.sh` (which starts the engine's
//! controller and prints the ratios). One engine per run, on KWOK nodes of the local control plane:
//!
//! - `BENCH_ENGINE=ludis|argo`, `BENCH_SHAPE=burst`: a burst of `BENCH_COUNT` single-task workflow
//!   runs (Ludis WorkflowRuns of a one-task Workflow; Argo Workflows with one container template)
//!   created as fast as the API server takes them. Prints how long until every run has its pod
//!   ("pod created"), the create → pod latency, and the runs finished per minute at saturation
//!   (between the 10th and the 90th percentile of completions).
//! - `BENCH_ENGINE=ludis`, `BENCH_SHAPE=fans`: 100 workflows of 10 tasks (a root, 8 in parallel,
//!   a sink); `BENCH_SHAPE=big`: one of 1,000 tasks (10 chains of 100); one run each. Prints the
//!   controller's CPU seconds per task scheduled (dependency resolution, pod creation, status),
//!   the figure the script compares with Airflow's scheduler on the same shapes.
//!
//! KWOK marks pods Running; this program plays the kubelet's last part and marks each Running
//! pod of the benchmark Succeeded (the same work for both engines, outside their processes).
//! The last line is `RESULT key=value…` for the script.

mod bench_util;

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use anyhow::Context as _;
use bench_util::{count_from_env, cpu_seconds, create_namespace, delete_namespace, peak_rss_mib, percentile};
use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::{
    Api, Client, ResourceExt as _,
    api::{ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams},
    runtime::{WatchStreamExt as _, watcher},
};
use ludis_crds::{LABEL_WORKFLOW_RUN, Project, Workflow, WorkflowRun};
use ludis_operator::{controllers::workflow::dag_file::parse_pod, images, list_watch::AdminList};
use serde_json::{Value, json};

const ARGO_LABEL: &str = "workflows.argoproj.io/workflow";
const KWOK_TAINT: &str = "kwok.x-k8s.io/node";
/// How many creates are in flight at once.
const CONCURRENCY: usize = 32;

type Times = Arc<Mutex<HashMap<String, Instant>>>;

#[derive(Clone, Copy, PartialEq)]
enum Engine {
    Ludis,
    Argo,
}

impl Engine {
    /// The pod label naming the run a pod belongs to.
    fn run_label(self) -> &'static str {
        match self {
            Engine::Ludis => LABEL_WORKFLOW_RUN,
            Engine::Argo => ARGO_LABEL,
        }
    }
}

fn argo_workflows(client: &Client, ns: &str) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk("argoproj.io", "v1alpha1", "Workflow");
    Api::namespaced_with(client.clone(), ns, &ApiResource::from_gvk(&gvk))
}

/// Marks every Running pod of the namespace Succeeded, as a kubelet reports a container that
/// exited 0.
fn fake_kubelet(pods: Api<Pod>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let done: Arc<Mutex<HashSet<String>>> = Arc::default();
        let (tx, rx) = futures::channel::mpsc::unbounded::<Pod>();
        let patcher = {
            let pods = pods.clone();
            tokio::spawn(rx.for_each_concurrent(16, move |pod| {
                let pods = pods.clone();
                async move {
                    let now = k8s_openapi::jiff::Timestamp::now().to_string();
                    let statuses: Vec<Value> = pod
                        .spec
                        .iter()
                        .flat_map(|s| s.containers.iter())
                        .map(|c| {
                            json!({
                                "name": c.name, "image": c.image, "imageID": "", "ready": false,
                                "restartCount": 0, "started": false,
                                "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                                                         "startedAt": now, "finishedAt": now}}
                            })
                        })
                        .collect();
                    let patch = json!({"status": {"phase": "Succeeded", "containerStatuses": statuses}});
                    let _ = pods
                        .patch_status(&pod.name_any(), &PatchParams::default(), &Patch::Merge(&patch))
                        .await;
                }
            }))
        };
        let mut stream = watcher(pods, watcher::Config::default())
            .applied_objects()
            .boxed();
        while let Ok(Some(pod)) = stream.try_next().await {
            let running = pod.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running");
            if running && done.lock().unwrap().insert(pod.name_any()) {
                let _ = tx.unbounded_send(pod);
            }
        }
        drop(tx);
        let _ = patcher.await;
    })
}

/// Records when the first pod of each run appears.
fn pods_created(pods: Api<Pod>, engine: Engine, seen: Times) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let cfg = watcher::Config::default().labels(engine.run_label());
        let mut stream = watcher(pods, cfg).applied_objects().boxed();
        while let Ok(Some(pod)) = stream.try_next().await {
            if let Some(run) = pod.labels().get(engine.run_label()) {
                seen.lock()
                    .unwrap()
                    .entry(run.clone())
                    .or_insert_with(Instant::now);
            }
        }
    })
}

/// Records when each run reaches its final, successful phase.
fn runs_finished(client: Client, ns: String, engine: Engine, seen: Times) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let record = |name: String, phase: Option<&str>| {
            if phase == Some("Succeeded") {
                seen.lock().unwrap().entry(name).or_insert_with(Instant::now);
            }
        };
        match engine {
            Engine::Ludis => {
                let api: Api<WorkflowRun> = Api::namespaced(client, &ns);
                let mut s = watcher(api, watcher::Config::default()).applied_objects().boxed();
                while let Ok(Some(run)) = s.try_next().await {
                    let phase = run
                        .status
                        .as_ref()
                        .and_then(|s| s.phase)
                        .map(|p| format!("{p:?}"));
                    record(run.name_any(), phase.as_deref());
                }
            }
            Engine::Argo => {
                let api = argo_workflows(&client, &ns);
                let mut s = watcher(api, watcher::Config::default()).applied_objects().boxed();
                while let Ok(Some(wf)) = s.try_next().await {
                    let phase = wf.data["status"]["phase"].as_str().map(str::to_owned);
                    record(wf.name_any(), phase.as_deref());
                }
            }
        }
    })
}

/// Waits until `times` holds `n` entries (or `limit` passes); the instant of the last one.
async fn wait_for_all(what: &str, times: &Times, n: usize, limit: Duration) -> anyhow::Result<()> {
    let (start, mut shown) = (Instant::now(), usize::MAX);
    loop {
        let have = times.lock().unwrap().len();
        if have != shown {
            eprint!("\r  {what}: {have}/{n}   ");
            shown = have;
        }
        if have >= n {
            eprintln!();
            return Ok(());
        }
        if start.elapsed() > limit {
            anyhow::bail!("only {have} of {n} runs reached \"{what}\" within {limit:?}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Creates `n` objects with `create(i)` (the object's name), `CONCURRENCY` at a time; when each
/// create returned.
async fn create_all<F, Fut>(n: usize, create: F) -> HashMap<String, Instant>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<String>>,
{
    futures::stream::iter(0..n)
        .map(|i| {
            let fut = create(i);
            async move {
                let sent = Instant::now();
                fut.await.map(|name| (name, sent))
            }
        })
        .buffer_unordered(CONCURRENCY)
        .filter_map(|r| async move { r.map_err(|e| eprintln!("create failed: {e:#}")).ok() })
        .collect()
        .await
}

/// A Ludis project without a repository and a workflow of `tasks` (name, upstream names).
async fn ludis_workflow(
    client: &Client,
    ns: &str,
    name: &str,
    tasks: &[(String, Vec<String>)],
) -> anyhow::Result<()> {
    let spec = json!({
        "displayName": name, "project": "bench",
        "tasks": tasks.iter().map(|(t, _)| json!({"name": t, "script": {"file": "main.py", "image": "python-3.11"}})).collect::<Vec<_>>(),
        "edges": tasks.iter().flat_map(|(t, up)| up.iter().map(move |u| json!({"from": u, "to": t}))).collect::<Vec<_>>(),
    });
    let wf = Workflow::new(name, serde_json::from_value(spec)?);
    Api::<Workflow>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &wf)
        .await?;
    Ok(())
}

/// The project the workflows belong to. Its repository is never cloned: KWOK does not run pods.
async fn ludis_project(client: &Client, ns: &str) -> anyhow::Result<()> {
    let project = Project::new(
        "bench",
        serde_json::from_value(json!({"displayName": "Bench", "image": "python-3.11",
            "git": {"url": "http://127.0.0.1:9/bench.git"}}))?,
    );
    Api::<Project>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &project)
        .await?;
    Ok(())
}

/// A Ludis workflow written as code whose DAG file declares `tasks` (name, upstream names). KWOK
/// pods have no logs, so the operator cannot read the file's verdict from its parse pod: the
/// reading is recorded in the status, as the operator records it (at the source hash it
/// computes), and the operator takes it as read. The workflow is made with an image outside the
/// list (broken: no parse pod starts) and gets its image once the reading is recorded.
async fn ludis_dag_file_workflow(
    client: &Client,
    ns: &str,
    name: &str,
    tasks: &[(String, Vec<String>)],
) -> anyhow::Result<()> {
    const DAG_FILE: &str = "bench_dag.py";
    let revision = "0".repeat(40);
    let spec = json!({"displayName": name, "project": "bench", "dagFile": DAG_FILE, "revision": revision,
        "image": "bench-not-listed"});
    let api: Api<Workflow> = Api::namespaced(client.clone(), ns);
    api.create(
        &PostParams::default(),
        &Workflow::new(name, serde_json::from_value(spec)?),
    )
    .await?;
    let images = Api::<ConfigMap>::namespaced(client.clone(), "ludis-system")
        .get("ludis-images")
        .await?;
    let image = <images::ImageCatalog as AdminList>::from_config_map(Some(images))
        .resolve("python-3.11")
        .context("the image python-3.11 is not in the image list")?
        .to_owned();
    let dag = json!({
        "source": parse_pod::source(DAG_FILE, Some(&revision), &image),
        "revision": revision, "dagId": name,
        "tasks": tasks.iter().map(|(t, _)| json!({"name": t, "operator": "EmptyOperator"})).collect::<Vec<_>>(),
        "edges": tasks.iter().flat_map(|(t, up)| up.iter().map(move |u| json!({"from": u, "to": t}))).collect::<Vec<_>>(),
    });
    api.patch_status(
        name,
        &PatchParams::default(),
        &Patch::Merge(&json!({"status": {"dag": dag}})),
    )
    .await?;
    api.patch(
        name,
        &PatchParams::default(),
        &Patch::Merge(&json!({"spec": {"image": "python-3.11"}})),
    )
    .await?;
    Ok(())
}

/// Waits until every Ludis workflow of the namespace is ready.
async fn ludis_ready(client: &Client, ns: &str, n: usize) -> anyhow::Result<()> {
    let api: Api<Workflow> = Api::namespaced(client.clone(), ns);
    let start = Instant::now();
    loop {
        let ready = api
            .list(&Default::default())
            .await?
            .items
            .iter()
            .filter(|w| {
                w.status.as_ref().and_then(|s| s.state).map(|s| format!("{s:?}")) == Some("Ready".into())
            })
            .count();
        if ready >= n {
            return Ok(());
        }
        anyhow::ensure!(
            start.elapsed() < Duration::from_secs(300),
            "only {ready} of {n} workflows became ready"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn ludis_run(client: &Client, ns: &str, workflow: &str, name: String) -> anyhow::Result<String> {
    let run = WorkflowRun::new(
        &name,
        serde_json::from_value(json!({"workflow": workflow, "trigger": "manual"}))?,
    );
    Api::<WorkflowRun>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &run)
        .await?;
    Ok(name)
}

async fn argo_run(client: &Client, ns: &str, name: String) -> anyhow::Result<String> {
    let wf: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
        "metadata": {"name": name},
        "spec": {
            "entrypoint": "main",
            "tolerations": [{"key": KWOK_TAINT, "operator": "Exists", "effect": "NoSchedule"}],
            "templates": [{"name": "main", "container": {
                "image": "localhost/ludis/python:bench", "command": ["python", "main.py"]}}]
        }
    }))?;
    argo_workflows(client, ns)
        .create(&PostParams::default(), &wf)
        .await?;
    Ok(name)
}

/// The burst: `n` single-task runs.
async fn burst(client: &Client, ns: &str, engine: Engine, n: usize, pid: u32) -> anyhow::Result<String> {
    if engine == Engine::Ludis {
        ludis_project(client, ns).await?;
        ludis_workflow(client, ns, "one", &[("main".into(), vec![])]).await?;
        ludis_ready(client, ns, 1).await?;
    }
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    let (pod_seen, finished): (Times, Times) = Default::default();
    let watchers = [
        pods_created(pods.clone(), engine, pod_seen.clone()),
        runs_finished(client.clone(), ns.to_owned(), engine, finished.clone()),
    ];
    tokio::time::sleep(Duration::from_secs(1)).await; // the watches' initial lists
    let cpu0 = cpu_seconds(pid);
    let start = Instant::now();
    let created = create_all(n, |i| {
        let name = format!("run-{i:05}");
        async move {
            match engine {
                Engine::Ludis => ludis_run(client, ns, "one", name).await,
                Engine::Argo => argo_run(client, ns, name).await,
            }
        }
    })
    .await;
    let created_in = start.elapsed();
    wait_for_all("pod created", &pod_seen, created.len(), Duration::from_secs(1800)).await?;
    let all_pods = start.elapsed();
    wait_for_all("finished", &finished, created.len(), Duration::from_secs(1800)).await?;
    let cpu = cpu_seconds(pid) - cpu0;
    watchers.iter().for_each(|w| w.abort());

    let pod_seen = pod_seen.lock().unwrap().clone();
    let mut latency: Vec<Duration> = created
        .iter()
        .filter_map(|(name, t)| Some(pod_seen.get(name)?.saturating_duration_since(*t)))
        .collect();
    latency.sort();
    let mut done: Vec<Duration> = finished
        .lock()
        .unwrap()
        .values()
        .map(|t| t.duration_since(start))
        .collect();
    done.sort();
    let (p10, p90) = (percentile(&done, 0.1), percentile(&done, 0.9));
    let steady = (p90 - p10).as_secs_f64().max(1e-3);
    let per_min = 0.8 * done.len() as f64 / steady * 60.0;
    println!(
        "  {} runs created in {:.2} s; every pod created after {:.2} s; create→pod p50 {:.3} s, p99 {:.3} s",
        created.len(),
        created_in.as_secs_f64(),
        all_pods.as_secs_f64(),
        percentile(&latency, 0.5).as_secs_f64(),
        percentile(&latency, 0.99).as_secs_f64()
    );
    println!(
        "  finished: {per_min:.0} runs/min at saturation (10th→90th percentile), all after {:.2} s; controller CPU {cpu:.2} s, peak RSS {:.1} MiB",
        done.last().copied().unwrap_or_default().as_secs_f64(),
        peak_rss_mib(pid)
    );
    Ok(format!(
        "burst_s={:.3} per_min={per_min:.1} p50_s={:.4} p99_s={:.4} cpu_s={cpu:.3}",
        all_pods.as_secs_f64(),
        percentile(&latency, 0.5).as_secs_f64(),
        percentile(&latency, 0.99).as_secs_f64()
    ))
}

/// The tasks of a 10-task workflow: a root, 8 in parallel, a sink.
fn fan_of_ten() -> Vec<(String, Vec<String>)> {
    let middle: Vec<String> = (1..=8).map(|i| format!("t{i}")).collect();
    let mut tasks = vec![("t0".to_owned(), vec![])];
    tasks.extend(middle.iter().map(|t| (t.clone(), vec!["t0".to_owned()])));
    tasks.push(("t9".into(), middle));
    tasks
}

/// One DAG of 1,000 tasks: 10 chains of 100.
fn chains() -> Vec<(String, Vec<String>)> {
    (0..10)
        .flat_map(|c| {
            (0..100).map(move |k| {
                let up = if k == 0 {
                    vec![]
                } else {
                    vec![format!("c{c}_{}", k - 1)]
                };
                (format!("c{c}_{k}"), up)
            })
        })
        .collect()
}

/// The DAG shapes Airflow runs too, one run each: `shape` `fans` (100 workflows of 10 tasks,
/// drawn) or `big` (one workflow of 1,000 tasks, written as code: drawn workflows hold at most
/// 100).
async fn dags(client: &Client, ns: &str, pid: u32, shape: &str) -> anyhow::Result<String> {
    ludis_project(client, ns).await?;
    let count = if shape == "big" { 1 } else { 100 };
    for i in 0..count {
        let name = format!("d-{i:03}");
        if shape == "big" {
            ludis_dag_file_workflow(client, ns, &name, &chains()).await?;
        } else {
            ludis_workflow(client, ns, &name, &fan_of_ten()).await?;
        }
    }
    ludis_ready(client, ns, count).await?;
    let finished: Times = Arc::default();
    let watcher = runs_finished(client.clone(), ns.to_owned(), Engine::Ludis, finished.clone());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let cpu0 = cpu_seconds(pid);
    let start = Instant::now();
    let created = create_all(count, |i| async move {
        ludis_run(client, ns, &format!("d-{i:03}"), format!("d-{i:03}-run")).await
    })
    .await;
    wait_for_all("finished", &finished, created.len(), Duration::from_secs(1800)).await?;
    let cpu = cpu_seconds(pid) - cpu0;
    watcher.abort();
    let per_run = if shape == "big" { 1000 } else { 10 };
    let tasks = count * per_run;
    println!(
        "  {count} workflow(s) × {per_run} tasks: every run finished after {:.2} s; controller CPU {cpu:.2} s = {:.3} ms per task",
        start.elapsed().as_secs_f64(),
        cpu * 1000.0 / tasks as f64
    );
    Ok(format!(
        "tasks={tasks} cpu_s={cpu:.3} per_task_ms={:.4}",
        cpu * 1000.0 / tasks as f64
    ))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The S3 gateway's crates bring a second TLS provider: choose ring, as the operator does.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let engine = match std::env::var("BENCH_ENGINE").as_deref() {
        Ok("argo") => Engine::Argo,
        Ok("ludis") | Err(_) => Engine::Ludis,
        Ok(other) => anyhow::bail!("BENCH_ENGINE must be ludis or argo, not {other}"),
    };
    let shape = std::env::var("BENCH_SHAPE").unwrap_or_else(|_| "burst".into());
    let n: usize = count_from_env("BENCH_COUNT", 1000);
    let pid: u32 = std::env::var("BENCH_CONTROLLER_PID")?.parse()?;
    let client = Client::try_default().await?;
    let ns = create_namespace(&client, "bench-wf").await?;
    let kubelet = fake_kubelet(Api::namespaced(client.clone(), &ns));
    let result = match shape.as_str() {
        "burst" => burst(&client, &ns, engine, n, pid).await,
        "fans" | "big" if engine == Engine::Ludis => dags(&client, &ns, pid, &shape).await,
        other => Err(anyhow::anyhow!(
            "BENCH_SHAPE {other} is not measured for this engine"
        )),
    };
    kubelet.abort();
    // The next measurement starts on a quiet cluster: the namespace's objects are gone.
    let _ = delete_namespace(&client, &ns).await;
    println!("RESULT {}", result?);
    Ok(())
}
