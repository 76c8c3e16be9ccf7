//! The Project controller against the local control plane: workspace volume, preview pod and
//! service follow the spec, and the preview runs on the real node serving the project's files
//! (cloned from git by its init container); invalid specs are explained and create nothing.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, Service};
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams, PostParams},
};
use ludis_crds::{Project, ProjectSpec};
use serde_json::json;

use common::{
    FIELD_MANAGER, TestNamespace, client, condition, eventually,
    node::{self, cluster_ip, http_body, serve_repo},
    start_operator,
};

mod common;

fn project(name: &str, spec: serde_json::Value) -> Project {
    Project::new(name, serde_json::from_value::<ProjectSpec>(spec).unwrap())
}

fn status_json(p: &Project) -> serde_json::Value {
    serde_json::to_value(&p.status).unwrap()
}

async fn wait_ready(api: &Api<Project>, name: &str, reason: &str) -> Project {
    eventually(&format!("project {name} Ready with reason {reason}"), || async {
        let p = api.get(name).await.ok()?;
        let ok = condition(&status_json(&p), "Ready") == Some(("True".into(), reason.into()))
            && p.status.as_ref()?.observed_generation == p.metadata.generation;
        ok.then_some(p)
    })
    .await
}

#[tokio::test]
async fn a_project_gets_its_workspace_then_a_preview_that_serves_its_files() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-proj").await;
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    let pvcs: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), &ns.name);
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let services: Api<Service> = Api::namespaced(client.clone(), &ns.name);
    let repo = serve_repo(&BTreeMap::from([
        ("index.html", "<h1>Demo project, from git</h1>"),
        ("site/index.html", "<h1>The site folder</h1>"),
    ]))
    .await;

    // Created stopped: only the workspace volume, owned by the project.
    projects
        .create(
            &PostParams::default(),
            &project(
                "demo",
                json!({"displayName": "Demo", "image": "default-python", "git": {"url": repo.url}}),
            ),
        )
        .await
        .unwrap();
    let p = wait_ready(&projects, "demo", "Stopped").await;
    assert_eq!(
        p.status.as_ref().unwrap().phase,
        Some(ludis_crds::project::ProjectPhase::Stopped)
    );
    let pvc = pvcs.get("demo-workspace").await.unwrap();
    let owner = &pvc.owner_references()[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str(), owner.controller),
        ("Project", "demo", Some(true))
    );
    assert!(pods.list(&ListParams::default()).await.unwrap().items.is_empty());

    // Start the preview: the init container clones the repository into the workspace, the
    // preview serves it on the real node, and the service leads there.
    let patch = json!({"spec": {"preview": {"running": true, "port": 8000,
        "command": ["python", "-m", "http.server", "8000"]}}});
    projects
        .patch("demo", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let p = wait_ready(&projects, "demo", "PreviewRunning").await;
    let status = p.status.unwrap();
    let pod_name = status.preview_pod.clone().unwrap();
    assert_eq!(status.port, Some(8000));
    assert_eq!(
        status.url.as_deref(),
        Some(format!("http://demo-preview.{}.svc:8000", ns.name).as_str())
    );
    let pod = pods.get(&pod_name).await.unwrap();
    let spec = pod.spec.unwrap();
    assert_eq!(
        spec.containers[0].image.as_deref(),
        Some(node::image("python").as_str()),
        "the id resolves through the list"
    );
    assert_eq!(spec.node_name.as_deref(), Some(node::NODE_NAME));
    assert_eq!(spec.security_context.unwrap().run_as_non_root, Some(true));
    let ip = cluster_ip(&client, &ns.name, "demo-preview").await;
    assert_eq!(
        http_body(&format!("http://{ip}:8000/index.html")).await,
        "<h1>Demo project, from git</h1>"
    );

    // A changed command replaces the pod; the old one is deleted.
    let patch = json!({"spec": {"preview": {"command":
        ["python", "-m", "http.server", "8000", "--directory", "site"]}}});
    projects
        .patch("demo", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let p = eventually("a new preview pod", || async {
        let p = wait_ready(&projects, "demo", "PreviewRunning").await;
        (p.status.as_ref()?.preview_pod.as_deref() != Some(pod_name.as_str())).then_some(p)
    })
    .await;
    let new_pod = p.status.unwrap().preview_pod.unwrap();
    eventually("the new preview to serve the site folder", || async {
        let body = node::get(&format!("http://{ip}:8000/index.html")).await?;
        (body == "<h1>The site folder</h1>").then_some(())
    })
    .await;
    eventually("the old preview pod to go", || async {
        let names: Vec<_> = pods
            .list(&ListParams::default())
            .await
            .ok()?
            .items
            .iter()
            .map(|p| p.name_any())
            .collect();
        (names == vec![new_pod.clone()]).then_some(())
    })
    .await;

    // Stop: the pod and service go, the workspace stays.
    let patch = json!({"spec": {"preview": {"running": false}}});
    projects
        .patch("demo", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    wait_ready(&projects, "demo", "Stopped").await;
    eventually("the preview pod and service to go", || async {
        let pods_left = !pods.list(&ListParams::default()).await.ok()?.items.is_empty();
        let svc_left = services.get_opt("demo-preview").await.ok()?.is_some();
        (!pods_left && !svc_left).then_some(())
    })
    .await;
    assert!(pvcs.get_opt("demo-workspace").await.unwrap().is_some());

    // Delete: the garbage collector removes the children.
    projects
        .delete("demo", &DeleteParams::background())
        .await
        .unwrap();
    eventually("the workspace volume to go", || async {
        let pvc = pvcs.get_opt("demo-workspace").await.ok()?;
        (pvc.is_none() || pvc.unwrap().metadata.deletion_timestamp.is_some()).then_some(())
    })
    .await;
}

#[tokio::test]
async fn an_image_outside_the_list_is_degraded_and_creates_nothing() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-proj-bad").await;
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    projects
        .create(
            &PostParams::default(),
            &project(
                "miner",
                json!({"displayName": "Miner", "image": "evil/miner:latest",
            "preview": {"running": true}}),
            ),
        )
        .await
        .unwrap();
    let p = eventually("the project to be Degraded", || async {
        let p = projects.get("miner").await.ok()?;
        (condition(&status_json(&p), "Degraded")?.0 == "True").then_some(p)
    })
    .await;
    let status = status_json(&p);
    assert_eq!(condition(&status, "Degraded").unwrap().1, "ImageNotAllowed");
    assert_eq!(condition(&status, "Ready").unwrap().0, "False");
    let message = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Degraded")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("evil/miner:latest"), "{message}");
    let pvcs: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), &ns.name);
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    assert!(pvcs.list(&ListParams::default()).await.unwrap().items.is_empty());
    assert!(pods.list(&ListParams::default()).await.unwrap().items.is_empty());

    // Fixing the spec recovers.
    let fix = json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Project", "metadata": {"name": "miner"},
        "spec": {"displayName": "Miner", "image": "default-python", "preview": {"running": false}}});
    projects
        .patch(
            "miner",
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&fix),
        )
        .await
        .unwrap();
    wait_ready(&projects, "miner", "Stopped").await;
}

#[tokio::test]
async fn an_image_added_to_the_list_later_recovers_the_project() {
    use k8s_openapi::api::core::v1::ConfigMap;
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-proj-late").await;
    let image_id = format!("late-{}", ns.name);
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    projects
        .create(
            &PostParams::default(),
            &project("late", json!({"displayName": "Late", "image": image_id})),
        )
        .await
        .unwrap();
    eventually("the project to be refused its image", || async {
        let p = projects.get("late").await.ok()?;
        (condition(&status_json(&p), "Degraded")? == ("True".into(), "ImageNotAllowed".into())).then_some(())
    })
    .await;

    // The administrator adds the image (a field manager of its own, so other tests' images stay).
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), common::SYSTEM_NAMESPACE);
    let manager = format!("it-{}", ns.name);
    let add = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "ludis-images", "namespace": common::SYSTEM_NAMESPACE},
        "data": {image_id.clone(): node::image("python")}});
    cms.patch("ludis-images", &PatchParams::apply(&manager), &Patch::Apply(&add))
        .await
        .unwrap();
    wait_ready(&projects, "late", "Stopped").await;

    // Removing it again: the manager applies no data, so its key goes.
    let remove = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "ludis-images", "namespace": common::SYSTEM_NAMESPACE}});
    cms.patch(
        "ludis-images",
        &PatchParams::apply(&manager),
        &Patch::Apply(&remove),
    )
    .await
    .unwrap();
    let cm = cms.get("ludis-images").await.unwrap();
    assert!(!cm.data.unwrap_or_default().contains_key(&image_id));
}
