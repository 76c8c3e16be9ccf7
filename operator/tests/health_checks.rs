//! What kstatus (as Flux runs it) and the Argo CD health checks (as Argo CD runs them) make of
//! every kind in every state, with their own code (the health tool, `dev/tools/health`). The
//! objects are made by the operator's own pure steps — validate, the phase of what it observed,
//! the status — so the table checks the conditions the operator really writes. No cluster.
//!
//! `cargo test -p ludis-operator --test health_checks -- --nocapture` prints the table.

use std::{collections::BTreeMap, sync::Arc};

use k8s_openapi::{
    api::{apps::v1::Deployment, batch::v1::Job, core::v1::Pod},
    apimachinery::pkg::apis::meta::v1::Time,
    jiff::Timestamp,
};
use kube::Resource;
use ludis_crds::{Dataset, DatasetStatus, Insight, Project, Workflow, WorkflowRun, WorkflowRunSpec};
use ludis_operator::{
    context::Config,
    controllers::{
        dataset, insight, project,
        workflow::{self, dag_file::DagFileState, run},
    },
    datasets::DatasetRef,
    images::ImageCatalog,
};
use serde::Serialize;
use serde_json::{Value, json};

mod common;

use common::health;

/// One row: an object, and what kstatus and Argo CD should make of it (None: Argo CD does not
/// run a health check on an object being deleted, it says "Pending deletion" itself).
struct Case {
    state: &'static str,
    object: Value,
    kstatus: &'static str,
    argocd: Option<&'static str>,
}

fn case(state: &'static str, object: &impl Serialize, kstatus: &'static str, argocd: &'static str) -> Case {
    Case {
        state,
        object: serde_json::to_value(object).unwrap(),
        kstatus,
        argocd: Some(argocd),
    }
}

const NS: &str = "ludis-acme";

/// `obj` in the namespace, with a uid and its generation.
fn stored<K: Resource>(mut obj: K, generation: i64) -> K {
    let meta = obj.meta_mut();
    meta.namespace = Some(NS.into());
    meta.uid = Some(format!("uid-{}", meta.name.clone().unwrap_or_default()));
    meta.generation = Some(generation);
    obj
}

/// `obj` with the status the API server serves before the operator wrote one: the CRDs' default
/// (`crds/src/lib.rs`; `integration_health` reads it from a real API server).
fn unobserved<K: Serialize + serde::de::DeserializeOwned>(obj: &K) -> K {
    let mut value = serde_json::to_value(obj).unwrap();
    value["status"] = json!({"observedGeneration": ludis_crds::UNOBSERVED_GENERATION});
    serde_json::from_value(value).unwrap()
}

/// `obj` after its spec changed: a generation the operator has not observed yet.
fn spec_changed<K: Resource>(mut obj: K) -> K {
    let generation = obj.meta().generation.unwrap_or(1);
    obj.meta_mut().generation = Some(generation + 1);
    obj
}

/// `obj` being deleted.
fn deleting<K: Resource>(mut obj: K) -> K {
    obj.meta_mut().deletion_timestamp = Some(Time(Timestamp::now()));
    obj.meta_mut().finalizers = Some(vec!["example.com/wait".into()]);
    obj
}

fn images() -> ImageCatalog {
    ImageCatalog(BTreeMap::from([("default-python".into(), "python:3.12".into())]))
}

fn pod(value: Value) -> Pod {
    serde_json::from_value(value).unwrap()
}

fn project_cases() -> Vec<Case> {
    use project::{build, observe::Observed, status, validate};
    let config = Config::for_tests("ludis-system");
    let project = |name: &str, spec: Value| -> Project {
        stored(Project::new(name, serde_json::from_value(spec).unwrap()), 1)
    };
    let observed = |datasets: BTreeMap<String, DatasetRef>| Observed {
        images: images(),
        sizes: Default::default(),
        secrets: BTreeMap::new(),
        datasets,
        preview_pods: vec![],
        workspaces: vec![],
        services: vec![],
    };
    // The operator's steps: validate, build, the phase of the observed pod, the status.
    let reconciled = |p: Project, observed: &Observed, pod: Option<&Pod>| -> Project {
        let (phase, verdict, desired) = match validate::validate(&p, observed) {
            Ok(valid) => {
                let desired = build::build(&p, &valid, &config);
                let (phase, verdict) = status::phase_of(&p, pod);
                (phase, verdict, Some(desired))
            }
            Err(verdict) => (status::invalid_phase(&verdict), verdict, None),
        };
        let status = status::status_of(&p, phase, &verdict, desired.as_ref());
        Project {
            status: Some(status),
            ..p
        }
    };
    let none = observed(BTreeMap::new());
    let stopped = project("stopped", json!({"displayName": "D", "image": "default-python"}));
    let previewing = |name| {
        project(
            name,
            json!({"displayName": "D", "image": "default-python", "preview": {"running": true}}),
        )
    };
    let running_pod = pod(json!({"status": {"phase": "Running",
        "conditions": [{"type": "Ready", "status": "True"}]}}));
    let failed_pod = pod(json!({"status": {"phase": "Failed"}}));
    let exited_pod = pod(json!({"status": {"phase": "Succeeded"}}));
    let bad_image = project("bad-image", json!({"displayName": "D", "image": "miner:latest"}));
    let with_dataset = project(
        "with-dataset",
        json!({"displayName": "D", "image": "default-python", "datasets": [{"name": "sales"}]}),
    );
    let stopped_now = reconciled(stopped.clone(), &none, None);
    vec![
        case(
            "new (not observed yet)",
            &unobserved(&stopped),
            "InProgress",
            "Progressing",
        ),
        case("stopped", &stopped_now, "Current", "Healthy"),
        case(
            "preview starting",
            &reconciled(previewing("starting"), &none, None),
            "InProgress",
            "Progressing",
        ),
        case(
            "preview running",
            &reconciled(previewing("running"), &none, Some(&running_pod)),
            "Current",
            "Healthy",
        ),
        case(
            "preview failed",
            &reconciled(previewing("failed"), &none, Some(&failed_pod)),
            "Failed",
            "Degraded",
        ),
        case(
            "preview exited",
            &reconciled(previewing("exited"), &none, Some(&exited_pod)),
            "Failed",
            "Degraded",
        ),
        case(
            "image not allowed",
            &reconciled(bad_image, &none, None),
            "Failed",
            "Degraded",
        ),
        case(
            "dataset not found",
            &reconciled(
                with_dataset.clone(),
                &observed(BTreeMap::from([("sales".into(), DatasetRef::Missing)])),
                None,
            ),
            "Failed",
            "Degraded",
        ),
        case(
            "waiting for a dataset",
            &reconciled(
                with_dataset,
                &observed(BTreeMap::from([("sales".into(), DatasetRef::Pending)])),
                None,
            ),
            "InProgress",
            "Progressing",
        ),
        case(
            "spec changed, not observed yet",
            &spec_changed(stopped_now.clone()),
            "InProgress",
            "Progressing",
        ),
        Case {
            argocd: None,
            ..case("being deleted", &deleting(stopped_now), "Terminating", "")
        },
    ]
}

/// An application's pod whose program keeps ending with an error.
fn crashing_pod() -> k8s_openapi::api::core::v1::Pod {
    serde_json::from_value(
        json!({"status": {"phase": "Running", "containerStatuses": [{"name": "app",
        "ready": false, "restartCount": 2, "image": "i", "imageID": "",
        "state": {"waiting": {"reason": "CrashLoopBackOff"}},
        "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}}}]}}),
    )
    .unwrap()
}

/// An application's pod that no node has room for.
fn unschedulable_pod() -> k8s_openapi::api::core::v1::Pod {
    serde_json::from_value(json!({"status": {"phase": "Pending", "conditions": [{"type": "PodScheduled",
        "status": "False", "reason": "Unschedulable", "message": "0/2 nodes are available: 1 Insufficient cpu."}]}}))
    .unwrap()
}

fn insight_cases() -> Vec<Case> {
    use insight::{build, observe::Observed, status, validate};
    let config = Config::for_tests("ludis-system");
    let insight = |name: &str, spec: Value| -> Insight {
        stored(Insight::new(name, serde_json::from_value(spec).unwrap()), 1)
    };
    let observed = |project_exists: bool, deployments: Vec<Deployment>, jobs: Vec<Job>| Observed {
        images: images(),
        sizes: Default::default(),
        project_exists: Some(project_exists),
        git: None,
        datasets: BTreeMap::new(),
        bucket: Some("acme".into()),
        deployments: deployments.into_iter().map(Arc::new).collect(),
        pods: vec![],
        jobs: jobs.into_iter().map(Arc::new).collect(),
        services: vec![],
    };
    let reconciled = |i: Insight, observed: &Observed| -> Insight {
        let (phase, verdict, desired) = match validate::validate(&i, observed) {
            Ok(valid) => {
                let desired = build::build(&i, &valid, &config, observed.bucket.as_deref());
                let (phase, verdict) = status::phase_of(&i, &desired, observed);
                (phase, verdict, desired)
            }
            Err(verdict) => (
                status::invalid_phase(&i, &verdict),
                verdict,
                build::Desired::default(),
            ),
        };
        let status = status::status_of(&i, phase, &verdict, &desired);
        Insight {
            status: Some(status),
            ..i
        }
    };
    let app = |name| {
        insight(
            name,
            json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["app.py"]}}),
        )
    };
    let report = |name| {
        insight(
            name,
            json!({"displayName": "Q3", "type": "report", "source": {"project": "demo", "files": ["q3.py"]}}),
        )
    };
    let available: Deployment =
        serde_json::from_value(json!({"metadata": {"name": "app-running", "generation": 1},
        "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1}}))
        .unwrap();
    // The render Job the operator would make, in the state it ended in.
    let render_job = |i: &Insight, condition: &str| -> Job {
        let valid = validate::validate(i, &observed(true, vec![], vec![])).unwrap();
        let mut job = build::build(i, &valid, &config, Some("acme")).job.unwrap();
        job.status = Some(
            serde_json::from_value(json!({"conditions": [{"type": condition, "status": "True"}]})).unwrap(),
        );
        job
    };
    let (rendered, failed) = (report("report-rendered"), report("report-failed"));
    let external = insight(
        "external",
        json!({"displayName": "BI", "type": "application", "appUrl": "https://bi.example.com"}),
    );
    let stopped = insight(
        "app-stopped",
        json!({"displayName": "Sales", "type": "application", "running": false,
            "source": {"project": "demo", "files": ["app.py"]}}),
    );
    vec![
        case(
            "new (not observed yet)",
            &unobserved(&app("app-new")),
            "InProgress",
            "Progressing",
        ),
        case(
            "external application",
            &reconciled(external, &observed(true, vec![], vec![])),
            "Current",
            "Healthy",
        ),
        case(
            "application running",
            &reconciled(app("app-running"), &observed(true, vec![available], vec![])),
            "Current",
            "Healthy",
        ),
        case(
            "application starting",
            &reconciled(app("app-starting"), &observed(true, vec![], vec![])),
            "InProgress",
            "Progressing",
        ),
        case(
            "application failing",
            &reconciled(app("app-failing"), &{
                let mut seen = observed(true, vec![], vec![]);
                seen.pods = vec![Arc::new(crashing_pod())];
                seen
            }),
            "Failed",
            "Degraded",
        ),
        case(
            "application waiting for a node",
            &reconciled(app("app-waiting"), &{
                let mut seen = observed(true, vec![], vec![]);
                seen.pods = vec![Arc::new(unschedulable_pod())];
                seen
            }),
            "InProgress",
            "Progressing",
        ),
        case(
            "application stopped",
            &reconciled(stopped, &observed(true, vec![], vec![])),
            "Current",
            "Healthy",
        ),
        case(
            "source project not found",
            &reconciled(app("app-orphan"), &observed(false, vec![], vec![])),
            "Failed",
            "Degraded",
        ),
        case(
            "report rendering",
            &reconciled(report("report-rendering"), &observed(true, vec![], vec![])),
            "InProgress",
            "Progressing",
        ),
        case(
            "report rendered",
            &reconciled(
                rendered.clone(),
                &observed(true, vec![], vec![render_job(&rendered, "Complete")]),
            ),
            "Current",
            "Healthy",
        ),
        case(
            "report render failed",
            &reconciled(
                failed.clone(),
                &observed(true, vec![], vec![render_job(&failed, "Failed")]),
            ),
            "Failed",
            "Degraded",
        ),
    ]
}

fn workflow_cases() -> Vec<Case> {
    let project: Project = stored(
        Project::new(
            "demo",
            serde_json::from_value(json!({"displayName": "Demo", "image": "default-python"})).unwrap(),
        ),
        1,
    );
    let workflow = |name: &str, extra: Value| -> Workflow {
        let mut spec = json!({"displayName": "Nightly", "project": "demo", "schedule": "0 3 * * *",
            "tasks": [{"name": "a", "script": {"file": "a.py", "image": "default-python"}},
                      {"name": "b", "script": {"file": "b.py", "image": "default-python"}}],
            "edges": [{"from": "a", "to": "b"}]});
        spec.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        stored(Workflow::new(name, serde_json::from_value(spec).unwrap()), 1)
    };
    // The operator's steps: validate, then the status (a DAG file's state when it has one).
    let reconciled = |wf: Workflow, dag_state: Option<DagFileState>| -> Workflow {
        let valid = workflow::validate(&wf, Some(&project), &images(), &Default::default()).map(|_| ());
        let valid = match (&valid, &dag_state) {
            (Ok(()), Some(DagFileState::Broken(_, why))) => Err(why.clone()),
            _ => valid,
        };
        let (status, _) = workflow::status_of(
            &wf,
            valid.as_ref().map(|_| ()).map_err(String::as_str),
            dag_state.as_ref(),
            &[],
        );
        Workflow {
            status: Some(status),
            ..wf
        }
    };
    let cycle = workflow(
        "cycle",
        json!({"edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]}),
    );
    let coded = json!({"tasks": [], "edges": [], "dagFile": "nightly_dag.py"});
    let import_error = DagFileState::Broken(
        Default::default(),
        "NameError: name 'BashOperatr' is not defined (nightly_dag.py, line 4)".into(),
    );
    let scheduled = reconciled(workflow("scheduled", json!({})), None);
    vec![
        case(
            "new (not observed yet)",
            &unobserved(&workflow("new", json!({}))),
            "InProgress",
            "Progressing",
        ),
        case("scheduled", &scheduled, "Current", "Healthy"),
        case(
            "paused",
            &reconciled(workflow("paused", json!({"paused": true})), None),
            "Current",
            "Suspended",
        ),
        case(
            "broken DAG (a cycle)",
            &reconciled(cycle, None),
            "Failed",
            "Degraded",
        ),
        case(
            "image not allowed",
            &reconciled(
                workflow(
                    "bad-image",
                    json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "miner"}}], "edges": []}),
                ),
                None,
            ),
            "Failed",
            "Degraded",
        ),
        case(
            "reading its DAG file",
            &reconciled(workflow("reading", coded.clone()), Some(DagFileState::Reading)),
            "InProgress",
            "Progressing",
        ),
        case(
            "DAG file fails to import",
            &reconciled(workflow("import-error", coded), Some(import_error)),
            "Failed",
            "Degraded",
        ),
        case(
            "spec changed, not observed yet",
            &spec_changed(scheduled),
            "InProgress",
            "Progressing",
        ),
    ]
}

fn run_cases() -> Vec<Case> {
    use run::{build, observe::Observed, status, validate};
    let config = Config::for_tests("ludis-system");
    let project: Project = stored(
        Project::new(
            "demo",
            serde_json::from_value(json!({"displayName": "Demo", "image": "default-python",
                "git": {"url": "https://git.example/acme/demo.git"}}))
            .unwrap(),
        ),
        1,
    );
    let wf: Workflow = stored(
        Workflow::new(
            "nightly",
            serde_json::from_value(json!({"displayName": "Nightly", "project": "demo",
                "tasks": [{"name": "a", "script": {"file": "a.py", "image": "default-python"}}]}))
            .unwrap(),
        ),
        1,
    );
    let new_run = |name: &str, workflow: &str| -> WorkflowRun {
        let spec: WorkflowRunSpec =
            serde_json::from_value(json!({"workflow": workflow, "trigger": "manual"})).unwrap();
        stored(WorkflowRun::new(name, spec), 1)
    };
    let observed = |pods: Vec<Pod>| Observed {
        workflow: Some(wf.clone()),
        project: Some(project.clone()),
        images: images(),
        sizes: Default::default(),
        destinations: BTreeMap::new(),
        pods: pods.into_iter().map(Arc::new).collect(),
    };
    // One step of the run (its status written), seeing `pods`.
    let stepped = |r: WorkflowRun, pods: Vec<Pod>| -> WorkflowRun {
        let o = observed(pods);
        let status = match validate::validate(&r, &o) {
            Ok(valid) => {
                build::build(&r, &valid, &o, &config, Time(Timestamp::now()))
                    .unwrap()
                    .status
            }
            Err(verdict) => status::degraded(&r, &verdict),
        };
        WorkflowRun {
            status: Some(status),
            ..r
        }
    };
    let task_pod = |run: &str, phase: &str| {
        pod(json!({"metadata": {"name": format!("{run}-a-1")}, "status": {"phase": phase}}))
    };
    let ended = |name: &'static str, phase: &str| {
        let started = stepped(new_run(name, "nightly"), vec![]);
        stepped(started, vec![task_pod(name, phase)])
    };
    let orphan = {
        let r = new_run("orphan", "gone");
        let status = status::degraded(&r, &validate::validate(&r, &Observed::default()).unwrap_err());
        WorkflowRun {
            status: Some(status),
            ..r
        }
    };
    vec![
        case(
            "new (not observed yet)",
            &unobserved(&new_run("new", "nightly")),
            "InProgress",
            "Progressing",
        ),
        case(
            "running",
            &stepped(new_run("running", "nightly"), vec![]),
            "InProgress",
            "Progressing",
        ),
        case(
            "succeeded",
            &ended("succeeded", "Succeeded"),
            "Current",
            "Healthy",
        ),
        case(
            "failed (a task failed)",
            &ended("failed", "Failed"),
            "Failed",
            "Degraded",
        ),
        case("workflow not found", &orphan, "Failed", "Degraded"),
    ]
}

fn dataset_cases() -> Vec<Case> {
    let new = || -> Dataset {
        stored(
            Dataset::new(
                "sales",
                serde_json::from_value(json!({"displayName": "Sales"})).unwrap(),
            ),
            1,
        )
    };
    let (bucket, prefix) = ("acme", "datasets/ludis-acme/uid-sales/");
    let with = |status: DatasetStatus, verdict| -> Dataset {
        let d = new();
        Dataset {
            status: Some(dataset::status_of(&d, status, &verdict)),
            ..d
        }
    };
    let location = DatasetStatus {
        bucket: Some(bucket.into()),
        prefix: Some(prefix.into()),
        object_count: Some(3),
        bytes: Some(1200),
        ..Default::default()
    };
    let refused = dataset::invalid_bucket("Acme_Data").expect("an invalid bucket name");
    let available = with(location, dataset::available(bucket, prefix));
    vec![
        case(
            "new (not observed yet)",
            &unobserved(&new()),
            "InProgress",
            "Progressing",
        ),
        case("available", &available, "Current", "Healthy"),
        case(
            "waiting for its storage",
            &with(
                DatasetStatus::default(),
                dataset::waiting_for_storage(bucket, prefix),
            ),
            "InProgress",
            "Progressing",
        ),
        case(
            "invalid bucket",
            &with(DatasetStatus::default(), refused),
            "Failed",
            "Degraded",
        ),
        case(
            "storage not configured",
            &with(DatasetStatus::default(), dataset::storage_not_configured()),
            "Failed",
            "Degraded",
        ),
        Case {
            argocd: None,
            ..case("being deleted", &deleting(available), "Terminating", "")
        },
    ]
}

#[test]
fn kstatus_and_argo_cd_read_every_kind_in_every_state_as_the_table_says() {
    let cases: Vec<Case> = [
        project_cases(),
        insight_cases(),
        workflow_cases(),
        run_cases(),
        dataset_cases(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let objects: Vec<Value> = cases.iter().map(|c| c.object.clone()).collect();
    let kstatus = health::kstatus(&objects);
    // Argo CD runs no check on an object being deleted.
    let checked: Vec<Value> = cases
        .iter()
        .filter(|c| c.argocd.is_some())
        .map(|c| c.object.clone())
        .collect();
    let mut checked_verdicts = health::argocd(&checked).into_iter();
    let argocd: Vec<Option<health::Judged>> = cases
        .iter()
        .map(|c| {
            c.argocd
                .map(|_| checked_verdicts.next().expect("a verdict per checked object"))
        })
        .collect();

    let mut table = String::from(
        "| kind | state | kstatus | Argo CD | message (kstatus / Argo CD) |\n|---|---|---|---|---|\n",
    );
    let mut wrong = Vec::new();
    for ((c, k), a) in cases.iter().zip(&kstatus).zip(&argocd) {
        let got_argocd = a.as_ref().map(|a| a.status.as_str());
        if k.status != c.kstatus || got_argocd != c.argocd {
            wrong.push(format!(
                "{} {} ({}): kstatus {} (want {}), Argo CD {got_argocd:?} (want {:?}): {} / {:?}",
                k.kind,
                c.object["metadata"]["name"],
                c.state,
                k.status,
                c.kstatus,
                c.argocd,
                k.message,
                a.as_ref().map(|a| &a.message)
            ));
        }
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} / {} |\n",
            k.kind,
            c.state,
            k.status,
            got_argocd.unwrap_or("(Pending deletion)"),
            k.message,
            a.as_ref().map(|a| a.message.as_str()).unwrap_or_default()
        ));
    }
    println!("{table}");
    assert!(wrong.is_empty(), "unexpected verdicts:\n{}", wrong.join("\n"));
    // Every kind is in the table in each of kstatus's three states.
    for kind in ["Project", "Insight", "Workflow", "WorkflowRun", "Dataset"] {
        for status in ["Current", "InProgress", "Failed"] {
            assert!(
                kstatus.iter().any(|k| k.kind == kind && k.status == status),
                "no {status} {kind} in the table"
            );
        }
    }
    // Argo CD: never Missing; Suspended for the paused workflow only.
    let suspended: Vec<_> = argocd
        .iter()
        .flatten()
        .filter(|a| a.status == "Suspended")
        .map(|a| (a.kind.as_str(), a.name.as_str()))
        .collect();
    assert_eq!(suspended, [("Workflow", "paused")]);
    assert!(argocd.iter().flatten().all(|a| a.status != "Missing"));
}

#[test]
fn a_health_check_never_answers_missing_and_tolerates_objects_without_conditions() {
    // Odd objects a cluster may hold: a status of another operator version, conditions without
    // messages, no metadata.generation at all.
    let objects = vec![
        json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Project", "metadata": {"name": "bare"}}),
        json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset", "metadata": {"name": "old", "generation": 2},
            "status": {"observedGeneration": 2, "conditions": [{"type": "Degraded", "status": "True", "reason": "X"}]}}),
        json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Insight", "metadata": {"name": "terse", "generation": 1},
            "status": {"observedGeneration": 1, "conditions": [{"type": "Stalled", "status": "True", "reason": "RenderFailed"}]}}),
        json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Workflow", "metadata": {"name": "ready", "generation": 1},
            "status": {"observedGeneration": 1, "conditions": [{"type": "Ready", "status": "True", "reason": "Scheduled", "message": ""}]}}),
    ];
    let got: Vec<(String, String)> = health::argocd(&objects)
        .into_iter()
        .map(|j| (j.status, j.message))
        .collect();
    assert_eq!(
        got,
        [
            ("Progressing".into(), "Waiting for the Ludis operator".into()),
            ("Progressing".into(), "Waiting for the Ludis operator".into()),
            ("Degraded".into(), "RenderFailed".into()),
            ("Healthy".into(), "Scheduled".into()),
        ]
    );
}
