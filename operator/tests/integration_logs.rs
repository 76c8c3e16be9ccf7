//! The log archiver on the real node: a workload container's output outlives its pod. A preview
//! deleted while it runs has its whole log in the organization's bucket, the lines it printed on
//! SIGTERM included (kubelet removes a deleted pod's containers, and their logs, at once); a task
//! that ran to its end is archived under its run, task and try.
//!
//! Needs the cluster dev/test.sh starts.

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api,
    api::{DeleteParams, LogParams},
};
use ludis_crds::{LABEL_PROJECT, LABEL_TASK, LABEL_TRY, LABEL_WORKFLOW_RUN};
use ludis_storage::logs::LogOwner;

use common::{
    TestNamespace, client, eventually,
    node::{self, pod, ready_pod},
    start_operator,
};

mod common;

/// The bucket of a namespace without a bucket annotation (`Config::for_tests`).
const BUCKET: &str = "ludis";

/// Prints 200 numbered lines, then waits; says so on SIGTERM and exits.
const PROGRAM: &str = "import signal, sys, time\n\
def stop(*_):\n    print('stopped on SIGTERM', flush=True)\n    sys.exit(0)\n\
signal.signal(signal.SIGTERM, stop)\n\
for i in range(200):\n    print(f'line {i}')\n\
print('all printed', flush=True)\n\
while True:\n    time.sleep(1)";

/// A pod of the python image labelled as the operator labels its workloads, with `labels`.
fn workload(name: &str, args: &[&str], labels: &[(&str, &str)]) -> Pod {
    let mut p = pod(name, "python", args);
    let l = p.metadata.labels.get_or_insert_default();
    l.insert("app.kubernetes.io/managed-by".into(), "ludis-operator".into());
    for (k, v) in labels {
        l.insert((*k).to_owned(), (*v).to_owned());
    }
    p
}

/// The newest archive of `container` under `prefix`, once it contains `needle`.
async fn archived(prefix: &str, container: &str, needle: &str) -> String {
    let s3 = node::s3();
    eventually(&format!("an archive under {prefix} with {needle:?}"), || async {
        let log = ludis_storage::logs::latest(&s3, BUCKET, prefix, container)
            .await
            .ok()??;
        let text = String::from_utf8(log).unwrap();
        text.contains(needle).then_some(text)
    })
    .await
}

#[tokio::test]
async fn a_deleted_previews_log_is_archived_with_its_last_lines() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-logs").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let mut p = workload(
        "demo-preview",
        &["python", "-u", "-c", PROGRAM],
        &[(LABEL_PROJECT, "demo")],
    );
    p.spec.as_mut().unwrap().termination_grace_period_seconds = Some(20);
    ready_pod(&client, &ns.name, p).await;
    eventually("the program printed its lines", || async {
        let log = pods.logs("demo-preview", &LogParams::default()).await.ok()?;
        log.contains("all printed").then_some(())
    })
    .await;

    pods.delete("demo-preview", &DeleteParams::default())
        .await
        .unwrap();
    eventually("the pod is gone", || async {
        pods.get_opt("demo-preview").await.ok()?.is_none().then_some(())
    })
    .await;
    let err = pods
        .logs("demo-preview", &LogParams::default())
        .await
        .expect_err("no log without the pod");
    assert!(err.to_string().contains("not found"), "{err}");

    let prefix = LogOwner::Project("demo".into()).prefix(&ns.name);
    let text = archived(&prefix, "main", "stopped on SIGTERM").await;
    let expected: String = (0..200)
        .map(|i| format!("line {i}\n"))
        .chain(["all printed\n".into(), "stopped on SIGTERM\n".into()])
        .collect();
    assert_eq!(text, expected, "the whole log, in order, once");
}

#[tokio::test]
async fn a_finished_tasks_log_is_archived_under_its_run_task_and_try() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-logs").await;
    let mut p = workload(
        "r1-clean-2",
        &["python", "-c", "print('cleaned 42 rows')"],
        &[
            (LABEL_WORKFLOW_RUN, "r1"),
            (LABEL_TASK, "clean"),
            (LABEL_TRY, "2"),
        ],
    );
    p.spec.as_mut().unwrap().restart_policy = Some("Never".into());
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    pods.create(&Default::default(), &p).await.unwrap();
    let owner = LogOwner::Task {
        run: "r1".into(),
        task: "clean".into(),
        attempt: "2".into(),
    };
    let text = archived(&owner.prefix(&ns.name), "main", "cleaned").await;
    assert_eq!(text, "cleaned 42 rows\n");
}
