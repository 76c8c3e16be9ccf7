//! GitOps health against the local control plane, with the real operator: every kind is driven
//! to Current, InProgress and Failed, read back from the API server, and judged by kstatus (as
//! Flux runs it) and by its Argo CD health check (as Argo CD runs it) — the health tool,
//! `dev/tools/health` — and by `kubectl wait --for=condition=Ready`; the verdicts people act on
//! leave one Warning event each (not one per reconcile), key transitions a Normal one.

use std::{collections::BTreeMap, fmt::Debug, process::Command};

use k8s_openapi::{
    NamespaceResourceScope,
    api::{core::v1::Namespace, events::v1::Event},
};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{Patch, PatchParams, PostParams},
};
use ludis_crds::{ANNOTATION_BUCKET, Dataset, Insight, Project, Workflow, WorkflowRun};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};

use common::{TestNamespace, client, condition, eventually, health, start_operator};

mod common;

/// The namespaces of a test: one as an organization's usually is, one whose bucket annotation no
/// S3 server accepts (its datasets are refused, so whatever uses them waits).
struct Namespaces {
    good: TestNamespace,
    bad_bucket: TestNamespace,
}

async fn namespaces(client: &Client, prefix: &str) -> Namespaces {
    let good = TestNamespace::new(client, prefix).await;
    let bad_bucket = TestNamespace::new(client, &format!("{prefix}-bb")).await;
    Api::<Namespace>::all(client.clone())
        .patch(
            &bad_bucket.name,
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"annotations": {ANNOTATION_BUCKET: "Not_A_Bucket"}}})),
        )
        .await
        .unwrap();
    Namespaces { good, bad_bucket }
}

trait Kind:
    Resource<DynamicType = (), Scope = NamespaceResourceScope>
    + Clone
    + Debug
    + Serialize
    + DeserializeOwned
    + Send
    + Sync
    + 'static
{
}
impl<K> Kind for K where
    K: Resource<DynamicType = (), Scope = NamespaceResourceScope>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static
{
}

/// Creates `name` of kind `K` in `ns` from its JSON spec. The API server's answer is the object
/// before the operator saw it: InProgress to kstatus and Argo CD (its status is the CRD's
/// default, "generation 1 not observed yet").
async fn create<K: Kind>(client: &Client, ns: &str, name: &str, spec: Value) -> Api<K> {
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    let obj: K = serde_json::from_value(json!({
        "apiVersion": K::api_version(&()), "kind": K::kind(&()),
        "metadata": {"name": name}, "spec": spec
    }))
    .unwrap();
    let created = api.create(&PostParams::default(), &obj).await.unwrap();
    assert_health(&created, "InProgress", "Progressing");
    api
}

/// Waits until `name`'s condition `type_` has `status` and `reason` for the object's current
/// generation, and returns the object as the API server serves it.
async fn when<K: Kind>(api: &Api<K>, name: &str, type_: &str, status: &str, reason: &str) -> K {
    eventually(
        &format!("{} {name}: {type_}={status} ({reason})", K::kind(&())),
        || async {
            let obj = api.get(name).await.ok()?;
            let value = serde_json::to_value(&obj).unwrap();
            let observed = value["status"]["observedGeneration"].as_i64();
            let current = observed.is_some() && observed == obj.meta().generation;
            (current && condition(&value["status"], type_)? == (status.to_owned(), reason.to_owned()))
                .then_some(obj)
        },
    )
    .await
}

/// What kstatus and the Argo CD health check make of `obj` are `kstatus` and `argocd`.
#[track_caller]
fn assert_health<K: Kind>(obj: &K, kstatus: &str, argocd: &str) {
    let value = serde_json::to_value(obj).unwrap();
    let k = &health::kstatus(std::slice::from_ref(&value))[0];
    let a = &health::argocd(&[value])[0];
    assert_eq!(
        (k.status.as_str(), a.status.as_str()),
        (kstatus, argocd),
        "{} {}: kstatus says {:?}, Argo CD {:?}",
        K::kind(&()),
        obj.name_any(),
        k.message,
        a.message
    );
}

/// `kubectl wait --for=condition=<condition> <kind>/<name>`: whether it succeeded within `timeout`.
async fn kubectl_wait<K: Kind>(ns: &str, name: &str, condition: &str, timeout: &str) -> bool {
    let target = format!("{}.{}/{name}", K::plural(&()), K::group(&()));
    let args = [
        "wait".to_owned(),
        format!("--for=condition={condition}"),
        format!("--timeout={timeout}"),
        "-n".to_owned(),
        ns.to_owned(),
        target,
    ];
    tokio::task::spawn_blocking(move || {
        Command::new(health::kubectl())
            .args(&args)
            .output()
            .expect("kubectl runs")
            .status
            .success()
    })
    .await
    .unwrap()
}

/// The events published about `name` with `reason`.
async fn events_of(client: &Client, ns: &str, name: &str, reason: &str) -> Vec<Event> {
    Api::<Event>::namespaced(client.clone(), ns)
        .list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter(|e| {
            e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some(name)
                && e.reason.as_deref() == Some(reason)
        })
        .collect()
}

/// Waits for the event of `type_` about `name` with `reason`, and returns its note.
async fn event(client: &Client, ns: &str, name: &str, type_: &str, reason: &str) -> String {
    eventually(&format!("a {type_} event {reason} about {name}"), || async {
        let events = events_of(client, ns, name, reason).await;
        let e = events.into_iter().find(|e| e.type_.as_deref() == Some(type_))?;
        Some(e.note.unwrap_or_default())
    })
    .await
}

/// The event `reason` about `name` was published once: one Event without a series (the
/// recorder counts a repeat in the series of the same Event).
async fn published_once(client: &Client, ns: &str, name: &str, reason: &str) {
    let events = events_of(client, ns, name, reason).await;
    assert_eq!(events.len(), 1, "{events:#?}");
    assert_eq!(
        events[0].series, None,
        "{reason} was published again: {:#?}",
        events[0]
    );
}

#[tokio::test]
async fn projects_ready_waiting_and_refused() {
    start_operator().await;
    let client = client().await;
    let ns = namespaces(&client, "it-health-proj").await;
    let (good, bad) = (ns.good.name.as_str(), ns.bad_bucket.name.as_str());
    let projects = create::<Project>(
        &client,
        good,
        "stopped",
        json!({"displayName": "Stopped", "image": "default-python"}),
    )
    .await;
    create::<Project>(
        &client,
        good,
        "refused",
        json!({"displayName": "Refused", "image": "miner:latest"}),
    )
    .await;
    create::<Dataset>(&client, bad, "unusable", json!({"displayName": "Unusable"})).await;
    let waiting = create::<Project>(
        &client,
        bad,
        "waiting",
        json!({"displayName": "Waiting", "image": "default-python", "datasets": [{"name": "unusable"}]}),
    )
    .await;

    // Current, and `kubectl wait` agrees.
    assert!(kubectl_wait::<Project>(good, "stopped", "Ready", "90s").await);
    let stopped = when(&projects, "stopped", "Ready", "True", "Stopped").await;
    assert_health(&stopped, "Current", "Healthy");

    // InProgress: its dataset has no storage to give.
    let w = when(&waiting, "waiting", "Reconciling", "True", "WaitingForDataset").await;
    assert_health(&w, "InProgress", "Progressing");

    // Failed, with a Warning saying why; `kubectl wait` for Ready gives up, for Stalled returns.
    let refused = when(&projects, "refused", "Stalled", "True", "ImageNotAllowed").await;
    assert_health(&refused, "Failed", "Degraded");
    assert!(!kubectl_wait::<Project>(good, "refused", "Ready", "2s").await);
    assert!(kubectl_wait::<Project>(good, "refused", "Stalled", "30s").await);
    let note = event(&client, good, "refused", "Warning", "ImageNotAllowed").await;
    assert_eq!(
        note,
        "image \"miner:latest\" is not in the administrator's image list"
    );

    // Reconciled again for a change that does not cure it: no second warning. Then cured: a
    // Normal event says so (published after the first reconcile's, which it follows).
    projects
        .patch(
            "refused",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"description": "still refused"}})),
        )
        .await
        .unwrap();
    when(&projects, "refused", "Stalled", "True", "ImageNotAllowed").await;
    projects
        .patch(
            "refused",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"image": "default-python"}})),
        )
        .await
        .unwrap();
    let cured = when(&projects, "refused", "Ready", "True", "Stopped").await;
    assert_health(&cured, "Current", "Healthy");
    event(&client, good, "refused", "Normal", "Stopped").await;
    published_once(&client, good, "refused", "ImageNotAllowed").await;
}

#[tokio::test]
async fn insights_ready_waiting_and_refused() {
    start_operator().await;
    let client = client().await;
    let ns = namespaces(&client, "it-health-ins").await;
    let (good, bad) = (ns.good.name.as_str(), ns.bad_bucket.name.as_str());
    let insights = create::<Insight>(
        &client,
        good,
        "external",
        json!({"displayName": "BI", "type": "application", "appUrl": "https://bi.example.com"}),
    )
    .await;
    create::<Insight>(
        &client,
        good,
        "orphan",
        json!({"displayName": "Orphan", "type": "application", "source": {"project": "nowhere", "files": ["app.py"]}}),
    )
    .await;
    create::<Project>(
        &client,
        bad,
        "demo",
        json!({"displayName": "Demo", "image": "default-python"}),
    )
    .await;
    create::<Dataset>(&client, bad, "unusable", json!({"displayName": "Unusable"})).await;
    let waiting = create::<Insight>(
        &client,
        bad,
        "report",
        json!({"displayName": "Q3", "type": "report", "source": {"project": "demo", "files": ["q3.py"]},
            "datasets": [{"name": "unusable"}]}),
    )
    .await;

    assert!(kubectl_wait::<Insight>(good, "external", "Ready", "90s").await);
    let external = when(&insights, "external", "Ready", "True", "External").await;
    assert_health(&external, "Current", "Healthy");

    let report = when(&waiting, "report", "Reconciling", "True", "WaitingForDataset").await;
    assert_health(&report, "InProgress", "Progressing");

    let orphan = when(&insights, "orphan", "Stalled", "True", "ProjectNotFound").await;
    assert_health(&orphan, "Failed", "Degraded");
    let note = event(&client, good, "orphan", "Warning", "ProjectNotFound").await;
    assert_eq!(note, "the source project \"nowhere\" does not exist");
}

#[tokio::test]
async fn workflows_scheduled_paused_and_broken() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-health-wf").await;
    let n = ns.name.as_str();
    create::<Project>(
        &client,
        n,
        "demo",
        json!({"displayName": "Demo", "image": "default-python"}),
    )
    .await;
    let task = |name: &str| json!({"name": name, "script": {"file": format!("{name}.py"), "image": "default-python"}});
    let workflows = create::<Workflow>(
        &client,
        n,
        "nightly",
        json!({"displayName": "Nightly", "project": "demo", "schedule": "0 3 * * *", "tasks": [task("a")]}),
    )
    .await;
    create::<Workflow>(
        &client,
        n,
        "paused",
        json!({"displayName": "Paused", "project": "demo", "schedule": "0 3 * * *", "paused": true, "tasks": [task("a")]}),
    )
    .await;
    create::<Workflow>(
        &client,
        n,
        "cycle",
        json!({"displayName": "Cycle", "project": "demo", "tasks": [task("a"), task("b")],
            "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]}),
    )
    .await;

    assert!(kubectl_wait::<Workflow>(n, "nightly", "Ready", "90s").await);
    let nightly = when(&workflows, "nightly", "Ready", "True", "Scheduled").await;
    assert_health(&nightly, "Current", "Healthy");
    // Paused: current for kstatus, suspended for Argo CD.
    let paused = when(&workflows, "paused", "Ready", "True", "Paused").await;
    assert_health(&paused, "Current", "Suspended");

    let broken = when(&workflows, "cycle", "Stalled", "True", "WorkflowBroken").await;
    assert_health(&broken, "Failed", "Degraded");
    let note = event(&client, n, "cycle", "Warning", "WorkflowBroken").await;
    assert_eq!(note, "the tasks form a cycle through a, b");
}

#[tokio::test]
async fn runs_running_succeeded_and_failed() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-health-run").await;
    let n = ns.name.as_str();
    let files = BTreeMap::from([
        ("ok.py", "print('done')\n"),
        ("fail.py", "import sys\nsys.exit(3)\n"),
        ("slow.py", "import time\ntime.sleep(600)\n"),
    ]);
    let repo = common::project_with_repo(&client, n, "demo", &files).await;
    for script in ["ok", "fail", "slow"] {
        create::<Workflow>(
            &client,
            n,
            script,
            json!({"displayName": script, "project": "demo", "revision": repo.head,
                "tasks": [{"name": "a", "script": {"file": format!("{script}.py"), "image": "default-python"}}]}),
        )
        .await;
    }
    let run = |workflow: &str| json!({"workflow": workflow, "trigger": "manual"});
    let runs = create::<WorkflowRun>(&client, n, "ok-1", run("ok")).await;
    create::<WorkflowRun>(&client, n, "fail-1", run("fail")).await;
    create::<WorkflowRun>(&client, n, "slow-1", run("slow")).await;
    create::<WorkflowRun>(&client, n, "orphan-1", run("nowhere")).await;

    // Its task sleeps: InProgress for as long as the test looks.
    let slow = when(&runs, "slow-1", "Reconciling", "True", "Running").await;
    assert_health(&slow, "InProgress", "Progressing");

    let ok = when(&runs, "ok-1", "Ready", "True", "Succeeded").await;
    assert_health(&ok, "Current", "Healthy");
    assert!(kubectl_wait::<WorkflowRun>(n, "ok-1", "Ready", "30s").await);
    assert_eq!(
        event(&client, n, "ok-1", "Normal", "Succeeded").await,
        "every task succeeded"
    );

    let failed = when(&runs, "fail-1", "Stalled", "True", "Failed").await;
    assert_health(&failed, "Failed", "Degraded");
    assert_eq!(
        event(&client, n, "fail-1", "Warning", "Failed").await,
        "failed tasks: a"
    );

    let orphan = when(&runs, "orphan-1", "Stalled", "True", "WorkflowNotFound").await;
    assert_health(&orphan, "Failed", "Degraded");
    event(&client, n, "orphan-1", "Warning", "WorkflowNotFound").await;
}

#[tokio::test]
async fn datasets_available_and_refused() {
    start_operator().await;
    let client = client().await;
    let ns = namespaces(&client, "it-health-ds").await;
    let (good, bad) = (ns.good.name.as_str(), ns.bad_bucket.name.as_str());
    let datasets = create::<Dataset>(&client, good, "sales", json!({"displayName": "Sales"})).await;
    let refused = create::<Dataset>(&client, bad, "refused", json!({"displayName": "Refused"})).await;

    assert!(kubectl_wait::<Dataset>(good, "sales", "Ready", "90s").await);
    let sales = when(&datasets, "sales", "Ready", "True", "Available").await;
    assert_health(&sales, "Current", "Healthy");

    let r = when(&refused, "refused", "Stalled", "True", "InvalidBucket").await;
    assert_health(&r, "Failed", "Degraded");
    let note = event(&client, bad, "refused", "Warning", "InvalidBucket").await;
    assert!(note.contains("\"Not_A_Bucket\""), "{note}");
}
