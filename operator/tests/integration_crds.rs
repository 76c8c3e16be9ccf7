//! The CRDs as the API server enforces them: defaults, CEL rules, immutable fields, the `ludis`
//! category. Needs a cluster in `KUBECONFIG` (dev/test.sh).

use kube::{
    Api, Client,
    api::{DynamicObject, Patch, PatchParams, PostParams},
    core::{ApiResource, GroupVersionKind},
};
use serde_json::{Value, json};

use common::{FIELD_MANAGER, TestNamespace, client, install_crds};

mod common;

fn api(client: &Client, ns: &str, kind: &str) -> Api<DynamicObject> {
    let ar = ApiResource::from_gvk(&GroupVersionKind::gvk(
        ludis_crds::GROUP,
        ludis_crds::VERSION,
        kind,
    ));
    Api::namespaced_with(client.clone(), ns, &ar)
}

async fn create(
    client: &Client,
    ns: &str,
    kind: &str,
    name: &str,
    spec: Value,
) -> Result<DynamicObject, String> {
    let obj: DynamicObject = serde_json::from_value(json!({
        "apiVersion": format!("{}/{}", ludis_crds::GROUP, ludis_crds::VERSION),
        "kind": kind,
        "metadata": {"name": name},
        "spec": spec,
    }))
    .unwrap();
    api(client, ns, kind)
        .create(&PostParams::default(), &obj)
        .await
        .map_err(|e| e.to_string())
}

async fn refused(client: &Client, ns: &str, kind: &str, spec: Value, message: &str) {
    let err = create(client, ns, kind, "refused", spec)
        .await
        .expect_err("the API server must refuse it");
    assert!(err.contains(message), "expected {message:?} in {err}");
}

fn workflow() -> Value {
    json!({
        "displayName": "Nightly",
        "project": "demo",
        "schedule": "0 3 * * 1-5",
        "tasks": [
            {"name": "extract", "script": {"file": "etl/extract.py", "image": "python-3.12", "installScript": "setup.sh"}},
            {"name": "load", "upload": {"file": "out/result.csv", "dataset": "sales", "destinationPath": "daily"}}
        ],
        "edges": [{"from": "extract", "to": "load"}]
    })
}

#[tokio::test]
async fn a_valid_workflow_is_accepted_with_its_defaults() {
    let client = client().await;
    install_crds(&client).await;
    let ns = TestNamespace::new(&client, "it-crd-wf").await;
    let wf = create(&client, &ns.name, "Workflow", "nightly", workflow())
        .await
        .unwrap();
    assert_eq!(wf.data["spec"]["paused"], false, "default from the schema");
    assert_eq!(wf.data["spec"]["visual"], false);
}

#[tokio::test]
async fn workflow_rules_are_enforced_at_admission() {
    let client = client().await;
    install_crds(&client).await;
    let ns = TestNamespace::new(&client, "it-crd-wfbad").await;
    let n = &ns.name;

    let mut bad = workflow();
    bad["schedule"] = json!("every night");
    refused(
        &client,
        n,
        "Workflow",
        bad,
        "schedule must be a cron expression of five fields",
    )
    .await;

    let mut bad = workflow();
    bad["edges"] = json!([{"from": "load", "to": "load"}]);
    refused(&client, n, "Workflow", bad, "a task cannot depend on itself").await;

    let mut bad = workflow();
    bad["edges"] = json!([{"from": "extract", "to": "nowhere"}]);
    refused(
        &client,
        n,
        "Workflow",
        bad,
        "every edge must join two tasks of this workflow",
    )
    .await;

    let mut bad = workflow();
    bad["tasks"][1]["name"] = json!("extract");
    bad["edges"] = json!([]);
    refused(&client, n, "Workflow", bad, "task names must be unique").await;

    let mut bad = workflow();
    bad["tasks"][0]["script"]["file"] = json!("extract.sh");
    refused(&client, n, "Workflow", bad, "File must end in .r, .py, or .rmd").await;

    let mut bad = workflow();
    bad["tasks"][0]["upload"] = json!({"file": "a.csv", "dataset": "d"});
    refused(
        &client,
        n,
        "Workflow",
        bad,
        "a task is either a script or an upload",
    )
    .await;

    let mut bad = workflow();
    bad["tasks"][1]["upload"]["file"] = json!("README");
    refused(
        &client,
        n,
        "Workflow",
        bad,
        "Please enter a valid file name with an extension",
    )
    .await;

    let mut bad = workflow();
    bad["tasks"][1]["upload"]["destinationPath"] = json!("../other");
    refused(
        &client,
        n,
        "Workflow",
        bad,
        "destinationPath must stay inside the dataset",
    )
    .await;

    // A workflow written as code names its DAG file instead of listing tasks; never both, never
    // neither, and the file stays inside the project.
    let mut bad = workflow();
    bad["tasks"] = json!([]);
    bad["edges"] = json!([]);
    refused(
        &client,
        n,
        "Workflow",
        bad.clone(),
        "a workflow needs tasks, or a dagFile",
    )
    .await;
    bad["dagFile"] = json!("../elsewhere_dag.py");
    refused(
        &client,
        n,
        "Workflow",
        bad.clone(),
        "dagFile must be a .py file inside the project",
    )
    .await;
    let mut both = workflow();
    both["dagFile"] = json!("abc_dag.py");
    refused(
        &client,
        n,
        "Workflow",
        both,
        "either tasks or a dagFile, not both",
    )
    .await;
    bad["dagFile"] = json!("abc_dag.py");
    create(&client, n, "Workflow", "as-code", bad).await.unwrap();

    // The project is immutable.
    create(&client, n, "Workflow", "fixed", workflow()).await.unwrap();
    let patch = json!({
        "apiVersion": "ludis.dev/v1alpha1", "kind": "Workflow",
        "metadata": {"name": "fixed"}, "spec": {"project": "another"}
    });
    let err = api(&client, n, "Workflow")
        .patch(
            "fixed",
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await
        .expect_err("changing the project must be refused")
        .to_string();
    assert!(err.contains("project is immutable"), "{err}");
}

#[tokio::test]
async fn insight_rules_are_enforced_at_admission() {
    let client = client().await;
    install_crds(&client).await;
    let ns = TestNamespace::new(&client, "it-crd-ins").await;
    let n = &ns.name;

    refused(
        &client,
        n,
        "Insight",
        json!({"displayName": "A", "type": "application"}),
        "an application needs a source project, or an appUrl for an external app",
    )
    .await;
    refused(
        &client,
        n,
        "Insight",
        json!({"displayName": "R", "type": "report"}),
        "a report needs a source project",
    )
    .await;
    refused(
        &client,
        n,
        "Insight",
        json!({"displayName": "U", "type": "user_report", "appUrl": "https://x.example"}),
        "only an application can have an appUrl",
    )
    .await;
    refused(
        &client,
        n,
        "Insight",
        json!({"displayName": "E", "type": "application", "appUrl": "ftp://x"}),
        "appUrl must be an http(s) URL",
    )
    .await;
    // A user report's file is presigned for every viewer: only its own report folder's.
    for key in [
        "datasets/ludis-other/x/secret.csv",
        "reports/q3.pdf",
        "reports/8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0aa/../x.pdf",
        "reports/8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0aa/a/b.pdf",
    ] {
        refused(
            &client,
            n,
            "Insight",
            json!({"displayName": "U", "type": "user_report", "reportObject": key}),
            "reportObject must be a file of the insight's own report folder",
        )
        .await;
    }
    create(
        &client,
        n,
        "Insight",
        "upload",
        json!({"displayName": "U", "type": "user_report",
               "reportObject": "reports/8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0aa/Q3_report.pdf"}),
    )
    .await
    .unwrap();

    let app = create(
        &client,
        n,
        "Insight",
        "sales",
        json!({
            "displayName": "Sales", "type": "application",
            "source": {"project": "demo", "files": ["app.py"]}
        }),
    )
    .await
    .unwrap();
    assert_eq!(app.data["spec"]["running"], true, "applications run by default");
    assert_eq!(app.data["spec"]["port"], 8080);

    let patch = json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Insight", "metadata": {"name": "sales"},
        "spec": {"displayName": "Sales", "type": "report", "source": {"project": "demo", "files": ["app.py"]}}});
    let err = api(&client, n, "Insight")
        .patch(
            "sales",
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await
        .expect_err("changing the type must be refused")
        .to_string();
    assert!(err.contains("type is immutable"), "{err}");
}

#[tokio::test]
async fn project_and_dataset_defaults_and_rules() {
    let client = client().await;
    install_crds(&client).await;
    let ns = TestNamespace::new(&client, "it-crd-pd").await;
    let n = &ns.name;

    let p = create(
        &client,
        n,
        "Project",
        "demo",
        json!({"displayName": "Demo project", "image": "python-3.12"}),
    )
    .await
    .unwrap();
    assert_eq!(p.data["spec"]["language"], "python");
    assert_eq!(p.data["spec"]["preview"], json!({"running": false, "port": 8080}));
    assert_eq!(p.data["spec"]["workspaceSize"], "1Gi");
    refused(
        &client,
        n,
        "Project",
        json!({"displayName": "Bad!name", "image": "python-3.12"}),
        "spec.displayName",
    )
    .await;
    refused(
        &client,
        n,
        "Project",
        json!({"displayName": "G", "image": "i", "git": {"url": "git@github.com:a/b.git"}}),
        "git url must be an http(s) URL",
    )
    .await;

    let d = create(&client, n, "Dataset", "sales", json!({"displayName": "Sales"}))
        .await
        .unwrap();
    assert_eq!(d.data["spec"]["deletionPolicy"], "Retain");
    refused(
        &client,
        n,
        "Dataset",
        json!({"displayName": "X", "deletionPolicy": "Shred"}),
        "spec.deletionPolicy",
    )
    .await;

    let run = create(
        &client,
        n,
        "WorkflowRun",
        "nightly-1",
        json!({"workflow": "nightly", "trigger": "manual"}),
    )
    .await
    .unwrap();
    assert_eq!(run.data["spec"]["requests"], json!([]));
    refused(
        &client,
        n,
        "WorkflowRun",
        json!({"workflow": "w", "trigger": "manual", "requests": [
        {"id": "1", "action": "clear", "task": "a"}, {"id": "1", "action": "markFailed", "task": "b"}]}),
        "request ids must be unique",
    )
    .await;
}

#[tokio::test]
async fn every_kind_is_in_the_ludis_category_with_a_short_name() {
    let client = client().await;
    install_crds(&client).await;
    let crds: Api<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    > = Api::all(client.clone());
    for (plural, short) in [
        ("projects", "proj"),
        ("insights", "ins"),
        ("workflows", "wf"),
        ("workflowruns", "wfr"),
        ("datasets", "ds"),
    ] {
        let crd = crds.get(&format!("{plural}.ludis.dev")).await.unwrap();
        let names = crd.spec.names;
        assert_eq!(names.categories, Some(vec!["ludis".to_owned()]), "{plural}");
        assert_eq!(names.short_names, Some(vec![short.to_owned()]), "{plural}");
        assert_eq!(crd.spec.scope, "Namespaced");
        let version = &crd.spec.versions[0];
        assert!(
            version
                .subresources
                .as_ref()
                .and_then(|s| s.status.as_ref())
                .is_some(),
            "{plural} has /status"
        );
        let columns: Vec<_> = version
            .additional_printer_columns
            .iter()
            .flatten()
            .map(|c| c.name.as_str())
            .collect();
        for column in ["Ready", "Reason", "Age"] {
            assert!(
                columns.contains(&column),
                "{plural} lacks the {column} column: {columns:?}"
            );
        }
    }
}
