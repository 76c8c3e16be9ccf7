//! Hardware sizes on the real node: a project naming a size outside the administrator's list is
//! refused and gets nothing; once the administrator adds the size, its preview runs with that
//! size's requests and limits, and the node enforces them (the container's own cgroup).

use k8s_openapi::api::core::v1::{ConfigMap, PersistentVolumeClaim, Pod};
use kube::{
    Api,
    api::{ListParams, Patch, PatchParams, PostParams},
};
use ludis_crds::{
    Project, ProjectSpec,
    sizes::{SizeList, bytes, millicores},
};
use serde_json::json;

use common::{SYSTEM_NAMESPACE, TestNamespace, client, condition, eventually, node, start_operator};

mod common;

/// The seeded list with `extra` sizes added, as the administrator would apply it.
async fn apply_sizes(client: &kube::Client, extra: &[serde_json::Value]) {
    let mut list = serde_json::to_value(SizeList::seeded()).unwrap();
    list["sizes"]
        .as_array_mut()
        .unwrap()
        .extend(extra.iter().cloned());
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "ludis-sizes", "namespace": SYSTEM_NAMESPACE},
        "data": {"sizes.json": list.to_string()}});
    Api::<ConfigMap>::namespaced(client.clone(), SYSTEM_NAMESPACE)
        .patch(
            "ludis-sizes",
            &PatchParams::apply("it-sizes").force(),
            &Patch::Apply(&cm),
        )
        .await
        .unwrap();
}

fn degraded(p: &Project) -> Option<(String, String)> {
    let status = serde_json::to_value(&p.status).ok()?;
    let message = status["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Stalled" && c["status"] == "True")?["message"]
        .as_str()?
        .to_owned();
    Some((condition(&status, "Stalled")?.1, message))
}

#[tokio::test]
async fn a_preview_runs_with_its_sizes_limits_once_the_administrator_lists_the_size() {
    start_operator().await;
    let client = client().await;
    // The seeded list (a run that failed half-way may have left its size).
    apply_sizes(&client, &[]).await;
    let ns = TestNamespace::new(&client, "it-sizes").await;
    // Unique to this namespace: no other run of this test lists it.
    let size_id = format!("tight-{}", ns.name.trim_start_matches("it-sizes-"));
    let tight = json!({"id": size_id, "purpose": "a test's", "cpu": "50m", "cpuLimit": "300m",
        "memory": "160Mi", "ephemeralStorage": "16Mi", "ephemeralStorageLimit": "256Mi"});
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let spec: ProjectSpec = serde_json::from_value(json!({
        "displayName": "Tight", "image": "default-python", "size": size_id,
        "preview": {"running": true, "command": ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
    }))
    .unwrap();
    projects
        .create(&PostParams::default(), &Project::new("tight", spec))
        .await
        .unwrap();

    // Not in the list: refused, saying which sizes there are, and nothing is made.
    let (reason, message) = eventually("the project to be refused its size", || async {
        degraded(&projects.get("tight").await.ok()?)
    })
    .await;
    assert_eq!(reason, "SizeNotAllowed");
    assert_eq!(
        message,
        format!("size {size_id:?} is not in the administrator's size list (small, medium, large)")
    );
    let none = ListParams::default();
    assert!(pods.list(&none).await.unwrap().items.is_empty());
    let pvcs: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), &ns.name);
    assert!(pvcs.list(&none).await.unwrap().items.is_empty());

    // The administrator lists it: the preview starts with the size's requests and limits.
    apply_sizes(&client, &[tight]).await;
    let pod = eventually("the preview pod to run", || async {
        let pod = pods.list(&none).await.ok()?.items.into_iter().next()?;
        (pod.status.as_ref()?.phase.as_deref() == Some("Running")).then_some(pod)
    })
    .await;
    let r = pod.spec.as_ref().unwrap().containers[0]
        .resources
        .clone()
        .unwrap();
    let (requests, limits) = (r.requests.unwrap(), r.limits.unwrap());
    let amounts = |m: &std::collections::BTreeMap<
        _,
        k8s_openapi::apimachinery::pkg::api::resource::Quantity,
    >| { ["cpu", "memory", "ephemeral-storage"].map(|k| m[k].0.clone()) };
    assert_eq!(amounts(&requests), ["50m", "160Mi", "16Mi"]);
    assert_eq!(amounts(&limits), ["300m", "160Mi", "256Mi"]);

    // The node enforces them: the container's cgroup has the CPU quota and the memory limit.
    let name = pod.metadata.name.clone().unwrap();
    let cgroup = node::exec_in(
        &pods,
        &name,
        Some("preview"),
        &[
            "sh",
            "-c",
            "cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us \
             /sys/fs/cgroup/memory/memory.limit_in_bytes",
        ],
    )
    .await;
    let numbers: Vec<u64> = cgroup
        .stdout
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 3, "{}{}", cgroup.stdout, cgroup.stderr);
    assert_eq!(
        numbers[0] * 1000 / numbers[1],
        millicores("300m").unwrap(),
        "CPU quota per period"
    );
    assert_eq!(numbers[2], bytes("160Mi").unwrap(), "memory limit");

    // Back to the seeded list (a superset of what other tests use, all along).
    apply_sizes(&client, &[]).await;
}
