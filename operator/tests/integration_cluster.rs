//! Proof that the local control plane is a real Kubernetes: server-side apply and watches,
//! scheduling onto a KWOK node for the pods that ask for one (scale tests; their logs and exec are
//! KWOK's fakes), CronJob → Job → Pod completion under the real controller-manager with the pod
//! running on the real node, and garbage collection of owned objects. The real node itself:
//! `integration_node.rs`.
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
    api::{DeleteParams, ListParams, LogParams, Patch, PatchParams, PostParams},
    runtime::{WatchStreamExt as _, watcher},
};
use serde_json::json;

use common::{FIELD_MANAGER, TIMEOUT, TestNamespace, client, eventually, node::exec};

mod common;

/// A pod for a KWOK node: it tolerates their taint and asks for one.
fn kwok_pod(name: &str, labels: BTreeMap<String, String>) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "nodeSelector": {"type": "kwok"},
            "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
            "containers": [{"name": "main", "image": "registry.invalid/ludis/test:1", "command": ["sleep", "infinity"]}],
            "automountServiceAccountToken": false
        }
    }))
    .unwrap()
}

async fn running_pod(client: &Client, ns: &str, name: &str) -> Pod {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    pods.create(&PostParams::default(), &kwok_pod(name, BTreeMap::new()))
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
async fn a_pod_that_asks_for_a_kwok_node_runs_there_with_kwok_logs_and_exec() {
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

    // Exec: stdout, stderr and the exit status travel over the streaming protocol. KWOK runs the
    // command on this machine, in the cluster's exec folder.
    let e = exec(
        &pods,
        "worker",
        &["sh", "-c", "echo out-$LUDIS_KWOK_EXEC; echo err >&2; pwd"],
    )
    .await;
    let stdout: Vec<_> = e.stdout.lines().collect();
    assert_eq!(stdout[0], "out-1");
    assert!(
        stdout[1].ends_with("/cluster/exec"),
        "exec ran in {:?}",
        stdout[1]
    );
    assert_eq!(e.stderr.trim(), "err");
    assert_eq!(e.exit_code(), Some(0), "status was {:?}", e.status);

    // A failing command reports failure (kwok names the exit code in the message only).
    let e = exec(&pods, "worker", &["sh", "-c", "exit 3"]).await;
    assert_eq!(
        e.status.status.as_deref(),
        Some("Failure"),
        "status was {:?}",
        e.status
    );
    assert!(
        e.status
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("exit status 3"),
        "status was {:?}",
        e.status
    );
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
                "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
                "containers": [{"name": "task", "image": common::node::image("git"), "args": ["true"]}]
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
    let pod = &list.items[0];
    assert_eq!(
        pod.spec.as_ref().unwrap().node_name.as_deref(),
        Some(common::node::NODE_NAME)
    );
    let terminated = pod.status.as_ref().unwrap().container_statuses.as_ref().unwrap()[0]
        .state
        .as_ref()
        .unwrap()
        .terminated
        .clone()
        .expect("the container ran and ended");
    assert_eq!(
        (
            terminated.exit_code,
            pod.status.as_ref().unwrap().phase.as_deref()
        ),
        (0, Some("Succeeded"))
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
