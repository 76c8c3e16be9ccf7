//! GitOps health against the local control plane, with the real operator: every kind is driven
//! to Current, InProgress and Failed, read back from the API server, and judged by kstatus (as
//! Flux runs it) and by its Argo CD health check (as Argo CD runs it) — the health tool,
//! `dev/tools/health` — and by `kubectl wait --for=condition=Ready`; the verdicts people act on
//! leave one Warning event each (not one per reconcile), key transitions a Normal one.

use std::{collections::BTreeMap, process::Command};

use k8s_openapi::api::{core::v1::Namespace, events::v1::Event};
use kube::{
    Api, Client, ResourceExt as _,
    api::{Patch, PatchParams, PostParams},
};
use ludis_crds::{ANNOTATION_BUCKET, Dataset, Insight, Project, Workflow, WorkflowRun};
use ludis_operator::controllers::LudisKind;
use serde::Serialize;
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

/// The kinds of Ludis, as these tests write and read them.
trait Kind: LudisKind + Serialize {}
impl<K: LudisKind + Serialize> Kind for K {}

/// Creates each `(name, spec)` of kind `K` in `ns`. The API server's answer is the object before
/// the operator saw it: InProgress to kstatus and Argo CD (its status is the CRDs' default,
/// "generation 1 not observed yet").
async fn create<K: Kind>(client: &Client, ns: &str, objects: &[(&str, Value)]) -> Api<K> {
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    for (name, spec) in objects {
        let obj: K = serde_json::from_value(json!({
            "apiVersion": K::api_version(&()), "kind": K::kind(&()),
            "metadata": {"name": name}, "spec": spec
        }))
        .unwrap();
        let created = api.create(&PostParams::default(), &obj).await.unwrap();
        assert_health(&created, "InProgress", "Progressing");
    }
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

/// Waits until `name` has the `condition` (type, status, reason) and checks what kstatus and the
/// Argo CD health check make of it; returns it.
async fn reaches<K: Kind>(api: &Api<K>, name: &str, condition: [&str; 3], kstatus: &str, argocd: &str) -> K {
    let [type_, status, reason] = condition;
    let obj = when(api, name, type_, status, reason).await;
    assert_health(&obj, kstatus, argocd);
    obj
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
        &[
            (
                "stopped",
                json!({"displayName": "Stopped", "image": "default-python"}),
            ),
            (
                "refused",
                json!({"displayName": "Refused", "image": "miner:latest"}),
            ),
        ],
    )
    .await;
    create::<Dataset>(&client, bad, &[("unusable", json!({"displayName": "Unusable"}))]).await;
    let waiting = create::<Project>(
        &client,
        bad,
        &[(
            "waiting",
            json!({"displayName": "Waiting", "image": "default-python", "datasets": [{"name": "unusable"}]}),
        )],
    )
    .await;

    // Current, and `kubectl wait` agrees.
    assert!(kubectl_wait::<Project>(good, "stopped", "Ready", "90s").await);
    reaches(
        &projects,
        "stopped",
        ["Ready", "True", "Stopped"],
        "Current",
        "Healthy",
    )
    .await;
    // InProgress: its dataset has no storage to give.
    let waiting_for = ["Reconciling", "True", "WaitingForDataset"];
    reaches(&waiting, "waiting", waiting_for, "InProgress", "Progressing").await;
    // Failed, with a Warning saying why; `kubectl wait` for Ready gives up, for Stalled returns.
    let refused = ["Stalled", "True", "ImageNotAllowed"];
    reaches(&projects, "refused", refused, "Failed", "Degraded").await;
    assert!(!kubectl_wait::<Project>(good, "refused", "Ready", "2s").await);
    assert!(kubectl_wait::<Project>(good, "refused", "Stalled", "30s").await);
    let note = event(&client, good, "refused", "Warning", "ImageNotAllowed").await;
    assert_eq!(
        note,
        "image \"miner:latest\" is not in the administrator's image list"
    );

    // Reconciled again for a change that does not cure it: no second warning. Then cured: a
    // Normal event says so (published after the first reconcile's, which it follows).
    let patch = |spec: Value| Patch::Merge(json!({ "spec": spec }));
    let params = PatchParams::default();
    projects
        .patch(
            "refused",
            &params,
            &patch(json!({"description": "still refused"})),
        )
        .await
        .unwrap();
    when(&projects, "refused", "Stalled", "True", "ImageNotAllowed").await;
    projects
        .patch("refused", &params, &patch(json!({"image": "default-python"})))
        .await
        .unwrap();
    reaches(
        &projects,
        "refused",
        ["Ready", "True", "Stopped"],
        "Current",
        "Healthy",
    )
    .await;
    event(&client, good, "refused", "Normal", "Stopped").await;
    published_once(&client, good, "refused", "ImageNotAllowed").await;
}

#[tokio::test]
async fn insights_ready_waiting_and_refused() {
    start_operator().await;
    let client = client().await;
    let ns = namespaces(&client, "it-health-ins").await;
    let (good, bad) = (ns.good.name.as_str(), ns.bad_bucket.name.as_str());
    let app = |source: Value| json!({"displayName": "App", "type": "application", "source": source});
    let insights = create::<Insight>(
        &client,
        good,
        &[
            (
                "external",
                json!({"displayName": "BI", "type": "application", "appUrl": "https://bi.example.com"}),
            ),
            ("orphan", app(json!({"project": "nowhere", "files": ["app.py"]}))),
        ],
    )
    .await;
    create::<Project>(
        &client,
        bad,
        &[("demo", json!({"displayName": "Demo", "image": "default-python"}))],
    )
    .await;
    create::<Dataset>(&client, bad, &[("unusable", json!({"displayName": "Unusable"}))]).await;
    let waiting = create::<Insight>(
        &client,
        bad,
        &[(
            "report",
            json!({"displayName": "Q3", "type": "report", "source": {"project": "demo", "files": ["q3.py"]},
                "datasets": [{"name": "unusable"}]}),
        )],
    )
    .await;

    assert!(kubectl_wait::<Insight>(good, "external", "Ready", "90s").await);
    reaches(
        &insights,
        "external",
        ["Ready", "True", "External"],
        "Current",
        "Healthy",
    )
    .await;
    let waiting_for = ["Reconciling", "True", "WaitingForDataset"];
    reaches(&waiting, "report", waiting_for, "InProgress", "Progressing").await;
    let refused = ["Stalled", "True", "ProjectNotFound"];
    reaches(&insights, "orphan", refused, "Failed", "Degraded").await;
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
        &[("demo", json!({"displayName": "Demo", "image": "default-python"}))],
    )
    .await;
    let task = |name: &str| json!({"name": name, "script": {"file": format!("{name}.py"), "image": "default-python"}});
    let workflow = |extra: Value| {
        let mut spec = json!({"displayName": "Nightly", "project": "demo", "tasks": [task("a")]});
        spec.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        spec
    };
    let workflows = create::<Workflow>(
        &client,
        n,
        &[
            ("nightly", workflow(json!({"schedule": "0 3 * * *"}))),
            (
                "paused",
                workflow(json!({"schedule": "0 3 * * *", "paused": true})),
            ),
            (
                "cycle",
                workflow(json!({"tasks": [task("a"), task("b")],
                    "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]})),
            ),
        ],
    )
    .await;

    assert!(kubectl_wait::<Workflow>(n, "nightly", "Ready", "90s").await);
    reaches(
        &workflows,
        "nightly",
        ["Ready", "True", "Scheduled"],
        "Current",
        "Healthy",
    )
    .await;
    // Paused: current for kstatus, suspended for Argo CD.
    reaches(
        &workflows,
        "paused",
        ["Ready", "True", "Paused"],
        "Current",
        "Suspended",
    )
    .await;
    let broken = ["Stalled", "True", "WorkflowBroken"];
    reaches(&workflows, "cycle", broken, "Failed", "Degraded").await;
    let note = event(&client, n, "cycle", "Warning", "WorkflowBroken").await;
    assert_eq!(note, "the tasks form a cycle through a, b");
}

#[tokio::test]
async fn runs_running_succeeded_and_failed() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-health-run").await;
    let n = ns.name.as_str();
    let scripts = [
        ("ok", "print('done')\n"),
        ("fail", "import sys\nsys.exit(3)\n"),
        ("slow", "import time\ntime.sleep(600)\n"),
    ];
    let files: Vec<(String, &str)> = scripts
        .iter()
        .map(|(name, code)| (format!("{name}.py"), *code))
        .collect();
    let files: BTreeMap<&str, &str> = files.iter().map(|(f, c)| (f.as_str(), *c)).collect();
    let repo = common::project_with_repo(&client, n, "demo", &files).await;
    let workflows: Vec<(&str, Value)> = scripts
        .iter()
        .map(|(name, _)| {
            let task =
                json!({"name": "a", "script": {"file": format!("{name}.py"), "image": "default-python"}});
            let spec =
                json!({"displayName": name, "project": "demo", "revision": repo.head, "tasks": [task]});
            (*name, spec)
        })
        .collect();
    create::<Workflow>(&client, n, &workflows).await;
    let run = |workflow: &str| json!({"workflow": workflow, "trigger": "manual"});
    let runs = create::<WorkflowRun>(
        &client,
        n,
        &[
            ("ok-1", run("ok")),
            ("fail-1", run("fail")),
            ("slow-1", run("slow")),
            ("orphan-1", run("nowhere")),
        ],
    )
    .await;

    // Its task sleeps: InProgress for as long as the test looks.
    let running = ["Reconciling", "True", "Running"];
    reaches(&runs, "slow-1", running, "InProgress", "Progressing").await;

    reaches(
        &runs,
        "ok-1",
        ["Ready", "True", "Succeeded"],
        "Current",
        "Healthy",
    )
    .await;
    assert!(kubectl_wait::<WorkflowRun>(n, "ok-1", "Ready", "30s").await);
    let note = event(&client, n, "ok-1", "Normal", "Succeeded").await;
    assert_eq!(note, "every task succeeded");

    reaches(
        &runs,
        "fail-1",
        ["Stalled", "True", "Failed"],
        "Failed",
        "Degraded",
    )
    .await;
    let note = event(&client, n, "fail-1", "Warning", "Failed").await;
    assert_eq!(note, "failed tasks: a");

    let orphaned = ["Stalled", "True", "WorkflowNotFound"];
    reaches(&runs, "orphan-1", orphaned, "Failed", "Degraded").await;
    event(&client, n, "orphan-1", "Warning", "WorkflowNotFound").await;
}

#[tokio::test]
async fn datasets_available_and_refused() {
    start_operator().await;
    let client = client().await;
    let ns = namespaces(&client, "it-health-ds").await;
    let (good, bad) = (ns.good.name.as_str(), ns.bad_bucket.name.as_str());
    let datasets = create::<Dataset>(&client, good, &[("sales", json!({"displayName": "Sales"}))]).await;
    let refused = create::<Dataset>(&client, bad, &[("refused", json!({"displayName": "Refused"}))]).await;

    assert!(kubectl_wait::<Dataset>(good, "sales", "Ready", "90s").await);
    reaches(
        &datasets,
        "sales",
        ["Ready", "True", "Available"],
        "Current",
        "Healthy",
    )
    .await;
    let invalid = ["Stalled", "True", "InvalidBucket"];
    reaches(&refused, "refused", invalid, "Failed", "Degraded").await;
    let note = event(&client, bad, "refused", "Warning", "InvalidBucket").await;
    assert!(note.contains("\"Not_A_Bucket\""), "{note}");
}
