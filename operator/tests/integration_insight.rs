//! The Insight controller against the local control plane, its workloads on the real node: an
//! application serving its own page, reports rendered (a Python script, R Markdown) and
//! published to object storage, external apps.

use std::collections::BTreeMap;

use k8s_openapi::api::{apps::v1::Deployment, batch::v1::Job, core::v1::Pod, core::v1::Service};
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams, PostParams},
};
use ludis_crds::{Insight, InsightSpec, Project, ProjectSpec, insight::InsightPhase};
use serde_json::json;

use common::{TestNamespace, client, condition, eventually, node, start_operator, storage_gateway};

mod common;

async fn wait_phase(api: &Api<Insight>, name: &str, phase: InsightPhase) -> Insight {
    eventually(&format!("insight {name} in phase {phase:?}"), || async {
        let i = api.get(name).await.ok()?;
        let s = i.status.as_ref()?;
        (s.phase == Some(phase) && s.observed_generation == i.metadata.generation).then_some(i)
    })
    .await
}

/// The files of the insights' source project: an app, a Python report and an R Markdown report.
const APP: &str = r#"import http.server, os
class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(f"sales app on port {os.environ['PORT']}".encode())
http.server.HTTPServer(("", int(os.environ["PORT"])), Page).serve_forever()
"#;
const Q3: &str = r#"import os, statistics
with open(os.path.join(os.environ["LUDIS_OUTPUT_DIR"], "index.html"), "w") as f:
    f.write(f"<p>Q3 mean: {statistics.mean([3, 4, 8])}</p>")
"#;
const RMD: &str = "---\ntitle: Quarterly\noutput: html_document\n---\n\nThe answer is `r 6 * 7`.\n";

async fn setup(prefix: &str) -> (TestNamespace, Api<Insight>, kube::Client, node::GitRepo) {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, prefix).await;
    storage_gateway::client_config(&client, &ns.name).await;
    let files = BTreeMap::from([("app.py", APP), ("q3.py", Q3), ("report.Rmd", RMD)]);
    // No preview: an insight checks its revision out itself (and the node keeps its cores).
    let repo = common::project_with_repo(&client, &ns.name, "demo", &files).await;
    let insights = Api::namespaced(client.clone(), &ns.name);
    (ns, insights, client, repo)
}

/// App `name`'s Deployment asks for no pod, and its pods are gone.
async fn scaled_to_zero(deployments: &Api<Deployment>, pods: &Api<Pod>, name: &str) {
    assert_eq!(
        deployments.get(name).await.unwrap().spec.unwrap().replicas,
        Some(0)
    );
    eventually(&format!("app {name}'s pods to go"), || async {
        let left = pods
            .list(&ListParams::default().labels("ludis.dev/insight"))
            .await
            .ok()?;
        left.items.is_empty().then_some(())
    })
    .await;
}

fn insight(name: &str, spec: serde_json::Value) -> Insight {
    Insight::new(name, serde_json::from_value::<InsightSpec>(spec).unwrap())
}

#[tokio::test]
async fn an_application_runs_stops_and_redeploys() {
    let (ns, insights, client, _repo) = setup("it-ins-app").await;
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns.name);
    let services: Api<Service> = Api::namespaced(client.clone(), &ns.name);
    insights
        .create(
            &PostParams::default(),
            &insight(
                "sales",
                json!({"displayName": "Sales", "type": "application",
            "source": {"project": "demo", "files": ["app.py"]}, "port": 8050}),
            ),
        )
        .await
        .unwrap();
    let i = wait_phase(&insights, "sales", InsightPhase::Running).await;
    assert_eq!(
        i.status.as_ref().unwrap().url.as_deref(),
        Some(format!("http://sales.{}.svc:8050", ns.name).as_str())
    );
    assert_eq!(
        condition(&serde_json::to_value(&i.status).unwrap(), "Ready")
            .unwrap()
            .0,
        "True"
    );
    let dep = deployments.get("sales").await.unwrap();
    assert_eq!(dep.owner_references()[0].name, "sales");
    assert_eq!(
        dep.status.unwrap().available_replicas,
        Some(1),
        "a pod runs on the real node"
    );
    // The app's own page, through its Service.
    let ip = node::cluster_ip(&client, &ns.name, "sales").await;
    assert_eq!(
        node::http_body(&format!("http://{ip}:8050/")).await,
        "sales app on port 8050"
    );

    // running: false scales to zero.
    insights
        .patch(
            "sales",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"running": false}})),
        )
        .await
        .unwrap();
    wait_phase(&insights, "sales", InsightPhase::Stopped).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    scaled_to_zero(&deployments, &pods, "sales").await;

    // A redeploy token rolls the pods.
    let patch = json!({"spec": {"running": true, "redeployToken": "r1"}});
    insights
        .patch("sales", &PatchParams::default(), &Patch::Merge(patch))
        .await
        .unwrap();
    wait_phase(&insights, "sales", InsightPhase::Running).await;
    assert_eq!(
        node::http_body(&format!("http://{ip}:8050/")).await,
        "sales app on port 8050"
    );
    let template = deployments
        .get("sales")
        .await
        .unwrap()
        .spec
        .unwrap()
        .template
        .metadata
        .unwrap();
    assert_eq!(template.annotations.unwrap()["ludis.dev/redeploy-token"], "r1");

    // Nobody used it for its organization's idle time: the API marks it, and it scales to zero
    // while the owner's `running` stays; unmarked (its next request came), it serves again.
    let mark = |since: Option<&str>| json!({"metadata": {"annotations": {ludis_crds::ANNOTATION_IDLE_SINCE: since}}});
    insights
        .patch(
            "sales",
            &PatchParams::default(),
            &Patch::Merge(mark(Some("2026-11-29T15:00:00Z"))),
        )
        .await
        .unwrap();
    let idle = wait_phase(&insights, "sales", InsightPhase::Idle).await;
    assert!(idle.spec.running);
    assert_eq!(
        condition(&serde_json::to_value(&idle.status).unwrap(), "Ready")
            .unwrap()
            .1,
        "ScaledToZero"
    );
    scaled_to_zero(&deployments, &pods, "sales").await;
    insights
        .patch("sales", &PatchParams::default(), &Patch::Merge(mark(None)))
        .await
        .unwrap();
    wait_phase(&insights, "sales", InsightPhase::Running).await;
    assert_eq!(
        node::http_body(&format!("http://{ip}:8050/")).await,
        "sales app on port 8050"
    );

    // Deleting the insight removes its children.
    insights
        .delete("sales", &DeleteParams::background())
        .await
        .unwrap();
    eventually("the deployment and service to go", || async {
        let d = deployments.get_opt("sales").await.ok()?;
        let s = services.get_opt("sales").await.ok()?;
        (d.is_none() && s.is_none()).then_some(())
    })
    .await;
}

/// An app that says which version it is.
fn versioned_app(version: &str) -> String {
    APP.replace("sales app on port", &format!("sales app {version} on port"))
}

#[tokio::test]
async fn an_application_runs_its_published_revision_and_a_crashing_one_is_failed_with_why() {
    let (ns, insights, client, mut repo) = setup("it-ins-rev").await;
    let published = repo.head.clone();
    // The branch moves on after the publication: the app keeps running what was published.
    let v2 = versioned_app("v2");
    let second = repo.commit(&BTreeMap::from([("app.py", v2.as_str())]));
    let spec = |revision: &str| {
        json!({"displayName": "Pinned", "type": "application", "port": 8050,
            "source": {"project": "demo", "files": ["app.py"], "revision": revision}})
    };
    insights
        .create(&PostParams::default(), &insight("pinned", spec(&published)))
        .await
        .unwrap();
    wait_phase(&insights, "pinned", InsightPhase::Running).await;
    let ip = node::cluster_ip(&client, &ns.name, "pinned").await;
    assert_eq!(
        node::http_body(&format!("http://{ip}:8050/")).await,
        "sales app on port 8050",
        "the published revision, not the branch's head"
    );

    // Moving the pin (a new publication, a redeploy) rolls the app onto it.
    insights
        .patch(
            "pinned",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": spec(&second)})),
        )
        .await
        .unwrap();
    eventually("the app to serve the new revision", || async {
        let body = node::get(&format!("http://{ip}:8050/")).await?;
        (body == "sales app v2 on port 8050").then_some(())
    })
    .await;

    // A revision whose program ends with an error: Failed, with why.
    let broken = repo.commit(&BTreeMap::from([(
        "app.py",
        "import sys\nprint('cannot reach the warehouse', flush=True)\nsys.exit(3)\n",
    )]));
    insights
        .patch(
            "pinned",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": spec(&broken)})),
        )
        .await
        .unwrap();
    let failed = wait_phase(&insights, "pinned", InsightPhase::Failed).await;
    let status = serde_json::to_value(&failed.status).unwrap();
    let stalled = condition(&status, "Stalled").expect("a Stalled condition");
    assert_eq!(stalled, ("True".to_owned(), "AppFailed".to_owned()), "{status}");
    let message = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Stalled")
        .and_then(|c| c["message"].as_str())
        .unwrap_or_default();
    assert!(message.contains("exit code 3"), "{message}");
}

/// The text of the one object a rendered report published, under its output URL.
async fn published(output: &str, file: &str) -> String {
    let (bucket, prefix) = output
        .strip_prefix("s3://")
        .and_then(|rest| rest.split_once('/'))
        .unwrap();
    let s3 = node::s3();
    let keys = node::keys(&s3, bucket, prefix).await;
    assert_eq!(keys, [format!("{prefix}{file}")], "what the report published");
    node::object_text(&s3, bucket, &keys[0]).await
}

#[tokio::test]
async fn reports_render_in_python_and_r_markdown_and_an_external_app_runs_nothing() {
    let (ns, insights, client, _repo) = setup("it-ins-rep").await;
    let jobs: Api<Job> = Api::namespaced(client.clone(), &ns.name);
    insights
        .create(
            &PostParams::default(),
            &insight(
                "q3",
                json!({"displayName": "Q3", "type": "report",
            "source": {"project": "demo", "files": ["q3.py"]}}),
            ),
        )
        .await
        .unwrap();
    insights
        .create(
            &PostParams::default(),
            &insight(
                "quarterly",
                json!({"displayName": "Quarterly", "type": "report", "language": "r",
            "source": {"project": "demo", "files": ["report.Rmd"]}}),
            ),
        )
        .await
        .unwrap();
    // Rendered by the script itself, then published to the organization's bucket (the default
    // one here) by the AWS CLI, with credentials its pod's own token (the report-output
    // audience, never mounted where the script runs) was exchanged for at the storage gateway.
    let q3 = wait_phase(&insights, "q3", InsightPhase::Rendered).await;
    let output = q3.status.unwrap().output.unwrap();
    assert!(output.starts_with("s3://ludis/reports/"), "{output}");
    assert_eq!(published(&output, "index.html").await, "<p>Q3 mean: 5</p>");
    let exchanged: Vec<_> = storage_gateway::exchanges(&ns.name)
        .into_iter()
        .map(|e| {
            (
                e.audience,
                e.annotations.get(ludis_crds::ANNOTATION_OUTPUT).cloned(),
            )
        })
        .collect();
    assert!(
        exchanged.contains(&(ludis_crds::OUTPUT_AUDIENCE.into(), Some(output.clone()))),
        "{exchanged:?}"
    );
    assert!(
        exchanged
            .iter()
            .all(|(audience, _)| audience == ludis_crds::OUTPUT_AUDIENCE),
        "the reports reference no dataset: {exchanged:?}"
    );
    let job = jobs
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .find(|j| j.name_any().starts_with("q3-render-"))
        .unwrap();
    let pod = job.spec.unwrap().template.spec.unwrap();
    let render = pod
        .init_containers
        .unwrap()
        .into_iter()
        .find(|c| c.name == "render")
        .unwrap();
    assert!(
        render
            .volume_mounts
            .iter()
            .flatten()
            .all(|m| m.name != "storage-output"),
        "the program that renders never holds the output's token"
    );
    assert!(pod.containers[0].env_from.is_none());
    // R Markdown through knitr and pandoc, in the r image.
    let quarterly = wait_phase(&insights, "quarterly", InsightPhase::Rendered).await;
    let html = published(&quarterly.status.unwrap().output.unwrap(), "report.html").await;
    assert!(html.contains("The answer is 42."), "{html}");
    assert!(html.contains("<title>Quarterly</title>"), "{html}");
    let mut names: Vec<_> = jobs
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .iter()
        .map(|j| j.name_any())
        .collect();
    names.sort();
    assert!(
        names[0].starts_with("q3-render-") && names[1].starts_with("quarterly-render-"),
        "{names:?}"
    );

    insights
        .create(
            &PostParams::default(),
            &insight(
                "bi",
                json!({"displayName": "BI", "type": "application",
            "appUrl": "https://bi.example.com/dash"}),
            ),
        )
        .await
        .unwrap();
    let i = wait_phase(&insights, "bi", InsightPhase::External).await;
    assert_eq!(
        i.status.unwrap().url.as_deref(),
        Some("https://bi.example.com/dash")
    );
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns.name);
    assert!(
        deployments
            .list(&ListParams::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );
}

#[tokio::test]
async fn an_application_of_a_missing_project_is_degraded() {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-ins-bad").await;
    let insights: Api<Insight> = Api::namespaced(client.clone(), &ns.name);
    insights
        .create(
            &PostParams::default(),
            &insight(
                "lost",
                json!({"displayName": "Lost", "type": "application",
            "source": {"project": "nowhere", "files": ["app.py"]}}),
            ),
        )
        .await
        .unwrap();
    let i = wait_phase(&insights, "lost", InsightPhase::Failed).await;
    let status = serde_json::to_value(&i.status).unwrap();
    assert_eq!(
        condition(&status, "Degraded").unwrap(),
        ("True".into(), "ProjectNotFound".into())
    );
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns.name);
    assert!(
        deployments
            .list(&ListParams::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );

    // When the project appears, the insight is looked at again without any change of its own.
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    let spec: ProjectSpec =
        serde_json::from_value(json!({"displayName": "Nowhere", "image": "default-python"})).unwrap();
    projects
        .create(&PostParams::default(), &Project::new("nowhere", spec))
        .await
        .unwrap();
    eventually("the insight's deployment once its project exists", || async {
        deployments.get_opt("lost").await.ok()?
    })
    .await;
    // The status is written after the children, so it is waited for too.
    eventually("the insight to be no longer degraded", || async {
        let i = insights.get("lost").await.ok()?;
        let status = serde_json::to_value(&i.status).ok()?;
        (condition(&status, "Degraded")?.0 == "False").then_some(())
    })
    .await;
}
