//! A workflow task its organization's quota has no room for waits, saying so in the run's
//! status, and runs on the real node once something else of the organization stops.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, ResourceQuota};
use kube::{
    Api,
    api::{DeleteParams, ListParams, PostParams},
};
use ludis_crds::{
    Workflow, WorkflowRun, WorkflowRunSpec, WorkflowSpec,
    workflow::{RunPhase, TaskState, WorkflowState},
};
use serde_json::json;

use common::{TestNamespace, client, eventually, start_operator};

mod common;

/// A pod setting aside `cpu` that no node takes (it counts against the quota all the same).
fn filler(cpu: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": "filler"},
        "spec": {"nodeSelector": {"ludis.dev/no-such-node": "x"},
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{"name": "c", "image": "localhost/ludis/pause:none",
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
                "resources": {"requests": {"cpu": cpu}}}]}
    }))
    .unwrap()
}

/// The message of the condition `type_` with `reason`, if there is one.
fn message_of(
    conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
    type_: &str,
    reason: &str,
) -> Option<String> {
    conditions
        .into_iter()
        .find(|c| c.type_ == type_ && c.reason == reason)
        .map(|c| c.message)
}

#[tokio::test]
async fn a_task_the_quota_has_no_room_for_waits_then_runs_when_room_frees() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-quota").await;
    let n = ns.name.as_str();
    let files = BTreeMap::from([("a.py", "print('it fit')\n")]);
    let _repo = common::project_with_repo(&client, n, "demo", &files).await;

    // The organization may set aside 700m of CPU; something else holds 300m. The task's size
    // (medium) sets aside 500m: it does not fit.
    let quota: ResourceQuota = serde_json::from_value(json!({
        "metadata": {"name": "ludis-quota"}, "spec": {"hard": {"requests.cpu": "700m"}}
    }))
    .unwrap();
    let quotas: Api<ResourceQuota> = Api::namespaced(client.clone(), n);
    quotas.create(&PostParams::default(), &quota).await.unwrap();
    // The quota controller's first count of a new quota comes from its own cache of pods: a
    // filler made before it could be counted out again. Wait for that count, then for the
    // filler's, so that what the task meets is the 300m held.
    let counted = |cpu: &'static str| {
        let quotas = quotas.clone();
        async move {
            let q = quotas.get("ludis-quota").await.ok()?;
            let used = q.status?.used?;
            (used.get("requests.cpu").map(|q| q.0.as_str()) == Some(cpu)).then_some(())
        }
    };
    eventually("the quota's first count", || counted("0")).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), n);
    pods.create(&PostParams::default(), &filler("300m"))
        .await
        .unwrap();
    eventually("the quota to count the filler", || counted("300m")).await;

    let spec: WorkflowSpec = serde_json::from_value(json!({"displayName": "Fits", "project": "demo",
        "tasks": [{"name": "a", "script": {"file": "a.py", "image": "default-python"}}]}))
    .unwrap();
    let workflows: Api<Workflow> = Api::namespaced(client.clone(), n);
    workflows
        .create(&PostParams::default(), &Workflow::new("fits", spec))
        .await
        .unwrap();
    eventually("the workflow to be ready", || async {
        let w = workflows.get("fits").await.ok()?;
        (w.status.as_ref()?.state == Some(WorkflowState::Ready)).then_some(())
    })
    .await;
    let run: WorkflowRunSpec =
        serde_json::from_value(json!({"workflow": "fits", "trigger": "manual"})).unwrap();
    let runs: Api<WorkflowRun> = Api::namespaced(client.clone(), n);
    runs.create(&PostParams::default(), &WorkflowRun::new("fits-1", run))
        .await
        .unwrap();

    // It waits, saying for what; no task pod is made.
    let message = eventually("the run to wait for the quota", || async {
        let r = runs.get("fits-1").await.ok()?;
        message_of(r.status?.conditions, "Reconciling", "WaitingForQuota")
    })
    .await;
    assert!(
        message.starts_with("waiting for the organization's quota: ") && message.contains("exceeded quota"),
        "{message}"
    );
    let task_pods = ListParams::default().labels("ludis.dev/workflowrun=fits-1");
    assert!(pods.list(&task_pods).await.unwrap().items.is_empty());

    // Something stops: the task runs, and the run succeeds.
    pods.delete("filler", &DeleteParams::default()).await.unwrap();
    let done = eventually("the run to succeed once there is room", || async {
        let r = runs.get("fits-1").await.ok()?;
        (r.status.as_ref()?.phase == Some(RunPhase::Succeeded)).then_some(r)
    })
    .await;
    let task = &done.status.unwrap().tasks[0];
    assert_eq!(task.state, TaskState::Success);
    let logs = pods
        .logs(task.pod.as_deref().unwrap(), &Default::default())
        .await
        .unwrap();
    assert_eq!(logs, "it fit\n");
}

#[tokio::test]
async fn a_preview_beyond_the_organizations_limits_is_stalled_saying_why() {
    use k8s_openapi::api::core::v1::LimitRange;
    use ludis_crds::{Project, ProjectSpec};
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-limits").await;
    let n = ns.name.as_str();
    let limits: LimitRange = serde_json::from_value(json!({
        "metadata": {"name": "ludis-quota"},
        "spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}}]}
    }))
    .unwrap();
    Api::<LimitRange>::namespaced(client.clone(), n)
        .create(&PostParams::default(), &limits)
        .await
        .unwrap();
    let spec: ProjectSpec = serde_json::from_value(json!({"displayName": "Huge", "image": "default-python",
        "resources": {"cpu": "64"}, "preview": {"running": true}}))
    .unwrap();
    let projects: Api<Project> = Api::namespaced(client.clone(), n);
    projects
        .create(&PostParams::default(), &Project::new("huge", spec))
        .await
        .unwrap();
    let message = eventually("the project to be refused by the limits", || async {
        let p = projects.get("huge").await.ok()?;
        message_of(p.status?.conditions, "Stalled", "LimitsExceeded")
    })
    .await;
    assert!(
        message.starts_with("the organization's limits refuse the pod: ")
            && message.contains("maximum cpu usage per Container is 2"),
        "{message}"
    );
    // Within the limits, it runs (the control).
    projects
        .patch(
            "huge",
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(json!({"spec": {"resources": {"cpu": "100m"}}})),
        )
        .await
        .unwrap();
    eventually("the preview pod to be made within the limits", || async {
        let list = Api::<Pod>::namespaced(client.clone(), n)
            .list(&ListParams::default())
            .await
            .ok()?;
        (!list.items.is_empty()).then_some(())
    })
    .await;
}
