//! The Insight controller against the local control plane: applications, reports, external apps.

use k8s_openapi::api::{apps::v1::Deployment, batch::v1::Job, core::v1::Service};
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams, PostParams},
};
use ludis_crds::{Insight, InsightSpec, Project, ProjectSpec, insight::InsightPhase};
use serde_json::json;

use common::{TestNamespace, client, condition, eventually, start_operator};

mod common;

async fn wait_phase(api: &Api<Insight>, name: &str, phase: InsightPhase) -> Insight {
    eventually(&format!("insight {name} in phase {phase:?}"), || async {
        let i = api.get(name).await.ok()?;
        let s = i.status.as_ref()?;
        (s.phase == Some(phase) && s.observed_generation == i.metadata.generation).then_some(i)
    })
    .await
}

async fn setup(prefix: &str) -> (TestNamespace, Api<Insight>, kube::Client) {
    start_operator().await;
    let client = client().await;
    let ns = TestNamespace::new(&client, prefix).await;
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    let spec: ProjectSpec =
        serde_json::from_value(json!({"displayName": "Demo", "image": "python-3.12"})).unwrap();
    projects
        .create(&PostParams::default(), &Project::new("demo", spec))
        .await
        .unwrap();
    let insights = Api::namespaced(client.clone(), &ns.name);
    (ns, insights, client)
}

fn insight(name: &str, spec: serde_json::Value) -> Insight {
    Insight::new(name, serde_json::from_value::<InsightSpec>(spec).unwrap())
}

#[tokio::test]
async fn an_application_runs_stops_and_redeploys() {
    let (ns, insights, client) = setup("it-ins-app").await;
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
        "a pod runs on the KWOK node"
    );
    assert!(services.get_opt("sales").await.unwrap().is_some());

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
    assert_eq!(
        deployments.get("sales").await.unwrap().spec.unwrap().replicas,
        Some(0)
    );

    // A redeploy token rolls the pods.
    let patch = json!({"spec": {"running": true, "redeployToken": "r1"}});
    insights
        .patch("sales", &PatchParams::default(), &Patch::Merge(patch))
        .await
        .unwrap();
    wait_phase(&insights, "sales", InsightPhase::Running).await;
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

#[tokio::test]
async fn a_report_renders_in_a_job_and_an_external_app_runs_nothing() {
    let (ns, insights, client) = setup("it-ins-rep").await;
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
    let q3 = wait_phase(&insights, "q3", InsightPhase::Rendered).await;
    // Its output is published to the organization's bucket (the default one here).
    let output = q3.status.unwrap().output.unwrap();
    assert!(output.starts_with("s3://ludis/reports/"), "{output}");
    let list = jobs.list(&ListParams::default()).await.unwrap().items;
    assert_eq!(list.len(), 1);
    assert!(list[0].name_any().starts_with("q3-render-"));

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
    let (ns, insights, client) = setup("it-ins-bad").await;
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
        serde_json::from_value(json!({"displayName": "Nowhere", "image": "python-3.12"})).unwrap();
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
