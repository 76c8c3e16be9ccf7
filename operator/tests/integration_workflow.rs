//! Workflows against the local control plane, their tasks running on the real node, each task
//! checking out the project's repository at the pinned revision: the CronJob, a manual run (a Job
//! from the CronJob's template) becoming a WorkflowRun, a diamond DAG whose scripts really run (a
//! task fails by its own exit code), mark success, clear with downstream, an upload task copying
//! a file of the repository into a dataset, and the notification e-mails arriving at a real SMTP
//! server; a workflow written as code (an Airflow-style DAG file) read by a parse pod and run, and
//! one whose file fails to import being broken with the import error.

use std::collections::BTreeMap;

use k8s_openapi::api::{
    batch::v1::{CronJob, Job},
    core::v1::{ConfigMap, Pod},
};
use kube::{
    Api, Resource as _, ResourceExt as _,
    api::{ObjectMeta, Patch, PatchParams, PostParams},
};
use ludis_crds::{
    Dataset, DatasetSpec, Project, ProjectSpec, Workflow, WorkflowRun, WorkflowSpec,
    workflow::{RunPhase, TaskState, Trigger, WorkflowState},
};
use serde_json::json;

use common::{TestNamespace, client, eventually, node, start_operator, storage_gateway};

mod common;

/// Messages in the test SMTP server's Maildir whose text contains `needle`.
fn mails_containing(needle: &str) -> Vec<String> {
    let dir = std::env::var("LUDIS_TEST_MAILDIR")
        .expect("LUDIS_TEST_MAILDIR is not set: run the tests with dev/test.sh");
    let mut found = Vec::new();
    for sub in ["new", "cur"] {
        for entry in std::fs::read_dir(format!("{dir}/{sub}"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            if text.contains(needle) {
                found.push(text);
            }
        }
    }
    found
}

async fn run_in_phase(runs: &Api<WorkflowRun>, name: &str, phase: RunPhase, applied: usize) -> WorkflowRun {
    eventually(&format!("run {name} to be {phase:?}"), || async {
        let r = runs.get(name).await.ok()?;
        let s = r.status.as_ref()?;
        (s.phase == Some(phase) && s.applied_requests.len() == applied).then_some(r)
    })
    .await
}

fn task_states(run: &WorkflowRun) -> BTreeMap<String, (TaskState, i32)> {
    run.status
        .as_ref()
        .unwrap()
        .tasks
        .iter()
        .map(|t| (t.name.clone(), (t.state, t.try_number)))
        .collect()
}

async fn request(runs: &Api<WorkflowRun>, name: &str, requests: serde_json::Value) {
    runs.patch(
        name,
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"requests": requests}})),
    )
    .await
    .unwrap();
}

/// The DAG's scripts: extract writes a file, clean needs what its install script made, check
/// fails with its own exit code.
const EXTRACT: &str = "import os\nos.makedirs('out', exist_ok=True)\n\
    open('out/result.csv', 'w').write('region,total\\nnorth,12\\nsouth,30\\n')\nprint('extracted 2 rows')\n";
const SETUP: &str = "echo prepared > /tmp/installed\n";
const CLEAN: &str = "assert open('/tmp/installed').read() == 'prepared\\n'\nprint('cleaned')\n";
const CHECK: &str = "import sys\nprint('the totals do not add up', file=sys.stderr)\nsys.exit(3)\n";
const RESULT: &str = "region,total\nnorth,12\nsouth,30\n";

#[tokio::test]
async fn a_manual_run_of_a_diamond_fails_then_recovers_with_mark_and_clear() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-wf").await;
    let n = ns.name.as_str();
    storage_gateway::client_config(&client, n).await;
    let files = BTreeMap::from([
        ("extract.py", EXTRACT),
        ("setup.sh", SETUP),
        ("clean.py", CLEAN),
        ("fail_check.py", CHECK),
        ("data/result.csv", RESULT),
    ]);
    let repo = common::project_with_repo(&client, n, "demo", &files).await;
    let ds: DatasetSpec =
        serde_json::from_value(json!({"displayName": "Out", "deletionPolicy": "Delete"})).unwrap();
    let datasets: Api<Dataset> = Api::namespaced(client.clone(), n);
    datasets
        .create(&PostParams::default(), &Dataset::new("out", ds))
        .await
        .unwrap();
    eventually("the dataset to have a prefix", || async {
        datasets.get("out").await.ok()?.status?.prefix
    })
    .await;

    // The e-mail goes to the organization's members only (the API lists them in the namespace);
    // an address that is not one is never e-mailed, whatever the Workflow says.
    let recipient = format!("ops+{n}@example.com");
    let stranger = format!("stranger+{n}@example.net");
    let listed: ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": ludis_crds::MAIL_RECIPIENTS_CONFIGMAP},
        "data": {(ludis_crds::MAIL_RECIPIENTS_KEY): format!("someone@example.com\n{recipient}")}
    }))
    .unwrap();
    Api::<ConfigMap>::namespaced(client.clone(), n)
        .create(&PostParams::default(), &listed)
        .await
        .unwrap();
    let spec: WorkflowSpec = serde_json::from_value(json!({
        "displayName": format!("Nightly {n}"), "project": "demo", "schedule": "0 3 * * *",
        "revision": repo.head,
        "tasks": [
            {"name": "extract", "script": {"file": "extract.py", "image": "python-3.11"}},
            {"name": "clean", "script": {"file": "clean.py", "image": "python-3.11", "installScript": "setup.sh"}},
            {"name": "check", "script": {"file": "fail_check.py", "image": "python-3.11"}},
            {"name": "load", "upload": {"file": "data/result.csv", "dataset": "out", "destinationPath": "daily"}}
        ],
        "edges": [{"from": "extract", "to": "clean"}, {"from": "extract", "to": "check"},
                  {"from": "clean", "to": "load"}, {"from": "check", "to": "load"}],
        "notification": {"emails": [recipient, stranger], "on": "both"}
    }))
    .unwrap();
    let workflows: Api<Workflow> = Api::namespaced(client.clone(), n);
    workflows
        .create(&PostParams::default(), &Workflow::new("nightly", spec))
        .await
        .unwrap();
    let wf = eventually("the workflow to be ready", || async {
        let w = workflows.get("nightly").await.ok()?;
        (w.status.as_ref()?.state == Some(WorkflowState::Ready)).then_some(w)
    })
    .await;

    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), n);
    let cj = cronjobs.get("nightly").await.unwrap();
    assert_eq!(cj.owner_references()[0].name, "nightly");
    let cj_spec = cj.spec.clone().unwrap();
    assert_eq!(
        (cj_spec.schedule.as_str(), cj_spec.suspend),
        ("0 3 * * *", Some(false))
    );
    assert_eq!(wf.status.unwrap().cron_job.as_deref(), Some("nightly"));

    run_now(&client, n, "nightly", "nightly-manual-1").await;

    let runs: Api<WorkflowRun> = Api::namespaced(client.clone(), n);
    let run = run_in_phase(&runs, "nightly-manual-1", RunPhase::Failed, 0).await;
    assert_eq!(run.spec.trigger, Trigger::Manual);
    assert_eq!(run.spec.job.as_deref(), Some("nightly-manual-1"));
    use TaskState::*;
    let expect = |pairs: [(&str, TaskState, i32); 4]| -> BTreeMap<String, (TaskState, i32)> {
        pairs
            .into_iter()
            .map(|(k, s, t)| (k.to_owned(), (s, t)))
            .collect()
    };
    assert_eq!(
        task_states(&run),
        expect([
            ("extract", Success, 1),
            ("clean", Success, 1),
            ("check", Failed, 1),
            ("load", UpstreamFailed, 0)
        ])
    );
    // The check failed by its own exit code, and its logs are its own.
    let pods: Api<Pod> = Api::namespaced(client.clone(), n);
    let check_pod = task_pod(&run, "check");
    let terminated = pods
        .get(&check_pod)
        .await
        .unwrap()
        .status
        .unwrap()
        .container_statuses
        .unwrap()[0]
        .state
        .clone()
        .unwrap()
        .terminated
        .unwrap();
    assert_eq!(terminated.exit_code, 3);
    let logs = pods.logs(&check_pod, &Default::default()).await.unwrap();
    assert_eq!(logs, "the totals do not add up\n");
    let logs = pods
        .logs(&task_pod(&run, "extract"), &Default::default())
        .await
        .unwrap();
    assert_eq!(logs, "extracted 2 rows\n");
    eventually("the failure e-mail", || async {
        mails_containing(&recipient)
            .into_iter()
            .find(|m| {
                m.contains("Subject: Ludis: a workflow run failed")
                    && m.contains("The run nightly-manual-1 of")
            })
            .map(|_| ())
    })
    .await;

    // Mark the failed check as a success: load runs, and the run succeeds.
    request(
        &runs,
        "nightly-manual-1",
        json!([{"id": "m1", "action": "markSuccess", "task": "check"}]),
    )
    .await;
    let run = run_in_phase(&runs, "nightly-manual-1", RunPhase::Succeeded, 1).await;
    assert_eq!(
        task_states(&run),
        expect([
            ("extract", Success, 1),
            ("clean", Success, 1),
            ("check", Success, 1),
            ("load", Success, 1)
        ])
    );
    eventually("the success e-mail", || async {
        mails_containing(&recipient)
            .into_iter()
            .find(|m| {
                m.contains("Subject: Ludis: a workflow run succeeded")
                    && m.contains("The run nightly-manual-1 of")
            })
            .map(|_| ())
    })
    .await;
    assert_eq!(
        mails_containing(&stranger),
        Vec::<String>::new(),
        "the stranger was not e-mailed"
    );

    // Clear clean with its downstream: exactly clean and load run again.
    request(
        &runs,
        "nightly-manual-1",
        json!([{"id": "m1", "action": "markSuccess", "task": "check"},
        {"id": "c1", "action": "clear", "task": "clean", "downstream": true}]),
    )
    .await;
    let run = run_in_phase(&runs, "nightly-manual-1", RunPhase::Succeeded, 2).await;
    let run = if task_states(&run)["load"].1 == 2 {
        run
    } else {
        eventually("the cleared tasks to finish", || async {
            let r = runs.get("nightly-manual-1").await.ok()?;
            (task_states(&r)["load"] == (Success, 2) && r.status.as_ref()?.phase == Some(RunPhase::Succeeded))
                .then_some(r)
        })
        .await
    };
    assert_eq!(
        task_states(&run),
        expect([
            ("extract", Success, 1),
            ("clean", Success, 2),
            ("check", Success, 1),
            ("load", Success, 2)
        ])
    );

    // The upload task copied the repository's file into the dataset's folder, with the storage
    // credentials.
    let out = datasets.get("out").await.unwrap().status.unwrap();
    let (bucket, prefix) = (out.bucket.clone().unwrap(), out.prefix.clone().unwrap());
    assert_eq!(
        node::object_text(&node::s3(), &bucket, &format!("{prefix}daily/result.csv")).await,
        "region,total\nnorth,12\nsouth,30\n"
    );
    let pod = pods.get(&task_pod(&run, "load")).await.unwrap();
    let container = &pod.spec.unwrap().containers[0];
    assert!(container.args.as_ref().unwrap()[2].starts_with("aws s3 cp"));
    let destination = container
        .env
        .as_ref()
        .unwrap()
        .iter()
        .find(|e| e.name == "LUDIS_DESTINATION")
        .and_then(|e| e.value.clone());
    assert_eq!(destination, Some(format!("s3://{bucket}/{prefix}daily/")));
    // It wrote with the pod's own identity, for its dataset: the AWS CLI exchanged the pod's
    // token (the storage audience) at the gateway; no key, no Secret.
    assert!(container.env_from.is_none());
    let load = task_pod(&run, "load");
    assert_eq!(
        pod.metadata.annotations.as_ref().unwrap()[ludis_crds::ANNOTATION_DATASETS],
        "out"
    );
    let exchanged: Vec<_> = storage_gateway::exchanges(n)
        .into_iter()
        .map(|e| {
            (
                e.pod,
                e.audience,
                e.annotations.get(ludis_crds::ANNOTATION_DATASETS).cloned(),
            )
        })
        .collect();
    assert!(
        exchanged.contains(&(load, ludis_crds::STORAGE_AUDIENCE.into(), Some("out".into()))),
        "{exchanged:?}"
    );
    // Script tasks reference no dataset and made no exchange.
    assert!(
        exchanged.iter().all(|(pod, ..)| pod.contains("-load-")),
        "{exchanged:?}"
    );

    // The workflow reports its last run; pausing suspends the CronJob.
    let w = eventually("the workflow to report its last run", || async {
        let w = workflows.get("nightly").await.ok()?;
        (w.status.as_ref()?.last_run.as_deref() == Some("nightly-manual-1")).then_some(w)
    })
    .await;
    assert!(w.status.unwrap().last_run_time.is_some());
    workflows
        .patch(
            "nightly",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"paused": true}})),
        )
        .await
        .unwrap();
    eventually("the CronJob to be suspended", || async {
        (cronjobs.get("nightly").await.ok()?.spec?.suspend == Some(true)).then_some(())
    })
    .await;
}

/// Runs the workflow now: exactly what `kubectl create job --from=cronjob/<workflow>` does.
async fn run_now(client: &kube::Client, ns: &str, workflow: &str, job_name: &str) {
    let cj = Api::<CronJob>::namespaced(client.clone(), ns)
        .get(workflow)
        .await
        .unwrap();
    let template = cj.spec.clone().unwrap().job_template;
    let mut annotations = template
        .metadata
        .as_ref()
        .and_then(|m| m.annotations.clone())
        .unwrap_or_default();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), "manual".into());
    let job = Job {
        metadata: ObjectMeta {
            name: Some(job_name.into()),
            labels: template.metadata.as_ref().and_then(|m| m.labels.clone()),
            annotations: Some(annotations),
            owner_references: Some(vec![cj.controller_owner_ref(&()).unwrap()]),
            ..Default::default()
        },
        spec: template.spec,
        status: None,
    };
    Api::<Job>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &job)
        .await
        .unwrap();
}

/// The pod of a task's current try.
fn task_pod(run: &WorkflowRun, task: &str) -> String {
    let status = run.status.as_ref().unwrap();
    let t = status.tasks.iter().find(|t| t.name == task).unwrap();
    t.pod.clone().unwrap()
}

#[tokio::test]
async fn a_workflow_whose_image_is_not_allowed_is_broken() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-wf-bad").await;
    let project: ProjectSpec =
        serde_json::from_value(json!({"displayName": "Demo", "image": "default-python"})).unwrap();
    Api::<Project>::namespaced(client.clone(), &ns.name)
        .create(&PostParams::default(), &Project::new("demo", project))
        .await
        .unwrap();
    let spec: WorkflowSpec = serde_json::from_value(json!({"displayName": "X", "project": "demo",
        "tasks": [{"name": "a", "script": {"file": "a.py", "image": "evil/miner"}}]}))
    .unwrap();
    let workflows: Api<Workflow> = Api::namespaced(client.clone(), &ns.name);
    workflows
        .create(&PostParams::default(), &Workflow::new("x", spec))
        .await
        .unwrap();
    let w = eventually("the workflow to be broken", || async {
        let w = workflows.get("x").await.ok()?;
        (w.status.as_ref()?.state == Some(WorkflowState::Broken)).then_some(w)
    })
    .await;
    assert!(
        w.status
            .unwrap()
            .import_error
            .unwrap()
            .contains("\"evil/miner\" is not in the administrator's image list")
    );
    assert!(
        Api::<CronJob>::namespaced(client.clone(), &ns.name)
            .get_opt("x")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_scheduled_tick_becomes_a_run_that_runs_its_tasks() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-wf-tick").await;
    let files = BTreeMap::from([("a.py", "print('tick ran')\n")]);
    let _repo = common::project_with_repo(&client, &ns.name, "demo", &files).await;
    // Every minute: the controller-manager's CronJob controller starts the tick (within 60 s).
    let spec: WorkflowSpec = serde_json::from_value(json!({"displayName": "Minutely", "project": "demo",
        "schedule": "* * * * *",
        "tasks": [{"name": "a", "script": {"file": "a.py", "image": "default-python"}}]}))
    .unwrap();
    Api::<Workflow>::namespaced(client.clone(), &ns.name)
        .create(&PostParams::default(), &Workflow::new("minutely", spec))
        .await
        .unwrap();
    let runs: Api<WorkflowRun> = Api::namespaced(client.clone(), &ns.name);
    let run = eventually("a scheduled run to succeed", || async {
        let list = runs.list(&Default::default()).await.ok()?;
        list.items.into_iter().find(|r| {
            r.spec.trigger == Trigger::Schedule
                && r.status.as_ref().and_then(|s| s.phase) == Some(RunPhase::Succeeded)
        })
    })
    .await;
    assert!(run.name_any().starts_with("minutely-"));
    assert_eq!(task_states(&run)["a"], (TaskState::Success, 1));
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let logs = pods
        .logs(&task_pod(&run, "a"), &Default::default())
        .await
        .unwrap();
    assert_eq!(logs, "tick ran\n");
}

/// A DAG file written for Airflow, unchanged: `with DAG`, BashOperator with env, PythonOperator
/// asking for the context, `@task(task_id=…)`, `>>`, a helper module imported from the project.
const SALES_DAG: &str = r#"from datetime import datetime

from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator

from helpers.greeting import greet


def summarize(**context):
    print(greet("python"), "in run", context["run_id"], "try", context["ti"].try_number)


with DAG(
    dag_id="sales_daily",
    schedule_interval="@daily",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={"owner": "data", "retries": 1},
    tags=["sales"],
) as dag:
    extract = BashOperator(
        task_id="extract.raw_data",
        bash_command="echo bash says $GREETING in $(pwd)",
        env={"GREETING": "hello"},
    )
    summary = PythonOperator(task_id="summarize", python_callable=summarize)

    @task(task_id="final_check")
    def final_check():
        print("the @task ran")

    extract >> summary >> final_check()
"#;
const GREETING: &str = "def greet(who):\n    return f'hello from {who}'\n";
const BROKEN_DAG: &str = "from airflow import DAG\nimport sales_helpers_that_do_not_exist\n";

#[tokio::test]
async fn a_dag_file_is_read_in_a_pod_and_its_tasks_run_and_an_import_error_breaks_its_workflow() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-wf-dag").await;
    let n = ns.name.as_str();
    let files = BTreeMap::from([
        ("dags/sales_dag.py", SALES_DAG),
        ("dags/broken_dag.py", BROKEN_DAG),
        ("helpers/__init__.py", ""),
        ("helpers/greeting.py", GREETING),
    ]);
    let repo = common::project_with_repo(&client, n, "demo", &files).await;
    let workflows: Api<Workflow> = Api::namespaced(client.clone(), n);
    for (name, file) in [("sales", "dags/sales_dag.py"), ("broken", "dags/broken_dag.py")] {
        let spec: WorkflowSpec = serde_json::from_value(json!({
            "displayName": name, "project": "demo", "dagFile": file, "revision": repo.head,
        }))
        .unwrap();
        workflows
            .create(&PostParams::default(), &Workflow::new(name, spec))
            .await
            .unwrap();
    }

    // Read in a pod: the tasks and dependencies the file declares, at the pinned revision.
    let wf = eventually("the DAG file to be read", || async {
        let w = workflows.get("sales").await.ok()?;
        (w.status.as_ref()?.state == Some(WorkflowState::Ready)).then_some(w)
    })
    .await;
    let dag = wf.status.unwrap().dag.unwrap();
    assert_eq!(dag.dag_id.as_deref(), Some("sales_daily"));
    assert_eq!(dag.schedule.as_deref(), Some("@daily"));
    assert_eq!(dag.revision.as_deref(), Some(repo.head.as_str()));
    let tasks: Vec<_> = dag
        .tasks
        .iter()
        .map(|t| (t.name.as_str(), t.operator.as_str()))
        .collect();
    assert_eq!(
        tasks,
        [
            ("extract.raw_data", "BashOperator"),
            ("summarize", "PythonOperator"),
            ("final_check", "task")
        ]
    );
    let edges: Vec<_> = dag
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    assert_eq!(
        edges,
        [("extract.raw_data", "summarize"), ("summarize", "final_check")]
    );

    // The file that fails to import: broken, with the import error and where it happened.
    let broken = eventually("the broken DAG file's verdict", || async {
        let w = workflows.get("broken").await.ok()?;
        (w.status.as_ref()?.state == Some(WorkflowState::Broken)).then_some(w)
    })
    .await;
    let error = broken.status.unwrap().import_error.unwrap();
    assert!(
        error.starts_with(
            "ModuleNotFoundError: No module named 'sales_helpers_that_do_not_exist' (dags/broken_dag.py, line 2)"
        ),
        "{error}"
    );
    assert!(
        Api::<CronJob>::namespaced(client.clone(), n)
            .get_opt("broken")
            .await
            .unwrap()
            .is_none()
    );
    // The parse pods are gone once read.
    let pods: Api<Pod> = Api::namespaced(client.clone(), n);
    eventually("the parse pods to be deleted", || async {
        let list = pods
            .list(&kube::api::ListParams::default().labels("app.kubernetes.io/component=parse"))
            .await
            .ok()?;
        list.items
            .iter()
            .all(|p| p.metadata.deletion_timestamp.is_some())
            .then_some(())
    })
    .await;

    // A run executes the Bash, Python and @task tasks in order, each with `ludis.run`.
    run_now(&client, n, "sales", "sales-manual-1").await;
    let runs: Api<WorkflowRun> = Api::namespaced(client.clone(), n);
    let run = run_in_phase(&runs, "sales-manual-1", RunPhase::Succeeded, 0).await;
    assert_eq!(
        task_states(&run),
        BTreeMap::from([
            ("extract.raw_data".to_owned(), (TaskState::Success, 1)),
            ("summarize".to_owned(), (TaskState::Success, 1)),
            ("final_check".to_owned(), (TaskState::Success, 1)),
        ])
    );
    let log = |task: &'static str| {
        let pods = pods.clone();
        let pod = task_pod(&run, task);
        async move { pods.logs(&pod, &Default::default()).await.unwrap() }
    };
    let bash = log("extract.raw_data").await;
    assert!(bash.ends_with("bash says hello in /workspace\n"), "{bash}");
    let python = log("summarize").await;
    assert!(
        python.starts_with("hello from python in run sales-manual-1 try 1\n"),
        "{python}"
    );
    assert!(log("final_check").await.starts_with("the @task ran\n"));
    // The task id with `.` and `_` keeps its name in the run; its pod's label is a valid one.
    let pod = pods.get(&task_pod(&run, "extract.raw_data")).await.unwrap();
    assert_eq!(
        pod.labels()["ludis.dev/task"],
        ludis_crds::workflow::task_label("extract.raw_data")
    );
}
