//! Proof that the local control plane is a real Kubernetes: server-side apply and watches,
//! scheduling onto a KWOK node, pod logs and exec through the API server, CronJob → Job → Pod
//! completion under the real controller-manager, and garbage collection of owned objects.
//!
//! Needs a cluster in `KUBECONFIG` (the test command starts one: `dev/test.sh`).

use std::collections::BTreeMap;

use futures::{StreamExt as _, TryStreamExt as _};
use k8s_openapi::{
    api::{
        batch::v1::{CronJob, Job},
        core::v1::{ConfigMap, Pod},
    },
    apimachinery::pkg::apis::meta::v1::OwnerReference,
};
use kube::{
    Api, Client, Resource as _, ResourceExt as _,
    api::{AttachParams, DeleteParams, ListParams, LogParams, Patch, PatchParams, PostParams},
    runtime::{WatchStreamExt as _, watcher},
};
use serde_json::json;
use tokio::io::AsyncReadExt as _;

use common::{FIELD_MANAGER, TIMEOUT, TestNamespace, client, eventually};

mod common;

fn pod(name: &str, labels: BTreeMap<String, String>) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "containers": [{"name": "main", "image": "registry.invalid/ludis/test:1", "command": ["sleep", "infinity"]}],
            "automountServiceAccountToken": false
        }
    }))
    .unwrap()
}

async fn running_pod(client: &Client, ns: &str, name: &str) -> Pod {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    pods.create(&PostParams::default(), &pod(name, BTreeMap::new()))
        .await
        .unwrap();
    eventually(&format!("pod {name} to be Running"), || async {
        let p = pods.get(name).await.ok()?;
        (p.status.as_ref()?.phase.as_deref() == Some("Running")).then_some(p)
    })
    .await
}

#[tokio::test]
async fn server_side_apply_is_seen_through_a_watch() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-ssa").await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), &ns.name);

    // Start watching before the write, so the event must come from the watch.
    let stream = watcher(
        cms.clone(),
        watcher::Config::default().fields("metadata.name=settings"),
    )
    .applied_objects()
    .boxed();

    let desired = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "settings"},
        "data": {"greeting": "hello"}
    });
    let pp = PatchParams::apply(FIELD_MANAGER);
    cms.patch("settings", &pp, &Patch::Apply(&desired)).await.unwrap();

    let seen = tokio::time::timeout(
        TIMEOUT,
        stream
            .try_filter(|cm| {
                futures::future::ready(
                    cm.data
                        .as_ref()
                        .and_then(|d| d.get("greeting"))
                        .map(String::as_str)
                        == Some("hello"),
                )
            })
            .next(),
    )
    .await
    .expect("the watch saw no applied ConfigMap in time")
    .expect("the watch ended")
    .expect("the watch failed");
    assert_eq!(seen.name_any(), "settings");
    let managers: Vec<_> = seen
        .managed_fields()
        .iter()
        .filter_map(|m| m.manager.clone())
        .collect();
    assert!(
        managers.contains(&FIELD_MANAGER.to_owned()),
        "field managers were {managers:?}"
    );

    // Applying again with a changed field updates the object (apply is declarative).
    let changed = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "settings"},
        "data": {"greeting": "bonjour"}
    });
    let updated = cms.patch("settings", &pp, &Patch::Apply(&changed)).await.unwrap();
    assert_eq!(updated.data.unwrap()["greeting"], "bonjour");
}

#[tokio::test]
async fn a_pod_runs_on_the_kwok_node_and_serves_logs_and_exec() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-pod").await;
    let pod = running_pod(&client, &ns.name, "worker").await;

    let node = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .expect("the scheduler bound the pod");
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(client.clone());
    let node = nodes.get(&node).await.unwrap();
    assert_eq!(
        node.labels().get("type").map(String::as_str),
        Some("kwok"),
        "pod ran on {}",
        node.name_any()
    );

    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    // Logs come from the kubelet (kwok) through the API server.
    let logs = pods.logs("worker", &LogParams::default()).await.unwrap();
    assert!(logs.contains("ludis: container started"), "logs were {logs:?}");

    // Exec: stdout, stderr and the exit status travel over the streaming protocol.
    let (stdout, stderr, status) = exec(
        &pods,
        "worker",
        ["sh", "-c", "echo out-$LUDIS_KWOK_EXEC; echo err >&2; pwd"],
    )
    .await;
    let stdout: Vec<_> = stdout.lines().collect();
    assert_eq!(stdout[0], "out-1");
    assert!(
        stdout[1].ends_with("/cluster/exec"),
        "exec ran in {:?}",
        stdout[1]
    );
    assert_eq!(stderr.trim(), "err");
    assert_eq!(status.status.as_deref(), Some("Success"), "status was {status:?}");

    // A failing command reports failure. (A real kubelet names the exit code in an `ExitCode`
    // cause; kwok reports it in the message.)
    let (_, _, status) = exec(&pods, "worker", ["sh", "-c", "exit 3"]).await;
    assert_eq!(status.status.as_deref(), Some("Failure"), "status was {status:?}");
    assert!(
        status
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("exit status 3"),
        "status was {status:?}"
    );
}

async fn exec<const N: usize>(
    pods: &Api<Pod>,
    pod: &str,
    command: [&str; N],
) -> (
    String,
    String,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::Status,
) {
    let mut attached = pods
        .exec(pod, command, &AttachParams::default().stdout(true).stderr(true))
        .await
        .unwrap();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let (mut out, mut err) = (attached.stdout().unwrap(), attached.stderr().unwrap());
    let (a, b) = tokio::join!(out.read_to_string(&mut stdout), err.read_to_string(&mut stderr));
    a.unwrap();
    b.unwrap();
    let status = attached.take_status().unwrap().await.expect("an exit status");
    (stdout, stderr, status)
}

#[tokio::test]
async fn a_job_created_from_a_cronjob_runs_to_completion() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-cron").await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), &ns.name);
    let cj: CronJob = serde_json::from_value(json!({
        "metadata": {"name": "nightly"},
        "spec": {
            "schedule": "0 3 * * *",
            "timeZone": "Etc/UTC",
            "jobTemplate": {"spec": {"backoffLimit": 0, "template": {"spec": {
                "restartPolicy": "Never",
                "automountServiceAccountToken": false,
                "containers": [{"name": "task", "image": "registry.invalid/ludis/test:1", "command": ["true"]}]
            }}}}
        }
    }))
    .unwrap();
    let cj = cronjobs.create(&PostParams::default(), &cj).await.unwrap();

    // What `kubectl create job --from=cronjob/nightly` does: the template, owned by the CronJob.
    let template = cj.spec.as_ref().unwrap().job_template.clone();
    let mut annotations = template
        .metadata
        .as_ref()
        .and_then(|m| m.annotations.clone())
        .unwrap_or_default();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), "manual".into());
    let owner = OwnerReference {
        controller: Some(true),
        ..cj.controller_owner_ref(&()).unwrap()
    };
    let job = Job {
        metadata: kube::api::ObjectMeta {
            name: Some("nightly-manual".into()),
            annotations: Some(annotations),
            owner_references: Some(vec![owner]),
            ..Default::default()
        },
        spec: template.spec,
        status: None,
    };
    let jobs: Api<Job> = Api::namespaced(client.clone(), &ns.name);
    jobs.create(&PostParams::default(), &job).await.unwrap();

    let done = eventually("the job to complete", || async {
        let j = jobs.get("nightly-manual").await.ok()?;
        let conds = j.status.as_ref()?.conditions.clone()?;
        conds
            .iter()
            .any(|c| c.type_ == "Complete" && c.status == "True")
            .then_some(j)
    })
    .await;
    assert_eq!(done.status.unwrap().succeeded, Some(1));

    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let list = pods
        .list(&ListParams::default().labels("job-name=nightly-manual"))
        .await
        .unwrap();
    assert_eq!(list.items.len(), 1);
    assert_eq!(
        list.items[0].status.as_ref().unwrap().phase.as_deref(),
        Some("Succeeded")
    );
}

#[tokio::test]
async fn deleting_the_owner_garbage_collects_its_child() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-gc").await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), &ns.name);
    let owner: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "owner"}})).unwrap();
    let owner = cms.create(&PostParams::default(), &owner).await.unwrap();
    let mut child: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "child"}})).unwrap();
    child.metadata.owner_references = Some(vec![owner.controller_owner_ref(&()).unwrap()]);
    cms.create(&PostParams::default(), &child).await.unwrap();
    // An unowned bystander must survive.
    let bystander: ConfigMap = serde_json::from_value(json!({"metadata": {"name": "bystander"}})).unwrap();
    cms.create(&PostParams::default(), &bystander).await.unwrap();

    cms.delete("owner", &DeleteParams::background()).await.unwrap();
    eventually("the garbage collector to delete the child", || async {
        matches!(cms.get_opt("child").await, Ok(None)).then_some(())
    })
    .await;
    assert!(cms.get_opt("bystander").await.unwrap().is_some());
}
