//! Workflow resources applied with kubectl or a GitOps tool appear in their owner's console
//! (managed, published, with their project, schedule and DAG file), follow the operator's status
//! and go with their resource (a real control plane: KUBECONFIG; skipped without one).

use kube::{Api, api::DeleteParams};
use ludis_api::{db, domain::AssetKind};
use ludis_crds::{ANNOTATION_OWNER, LABEL_ID, Project, Workflow};
use serde_json::json;

use crate::{
    gitops::{eventually, gitops_apply, operator_status, organization, user},
    helpers::{apps, cluster},
};

#[tokio::test]
async fn a_gitops_workflow_appears_with_its_project_and_follows_its_status() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Gitops workflows").await;
        let owner_email = format!("owner@{slug}.example");
        let (owner, owner_token) = user(&app, &owner_email, "developer", &org).await;
        let (_, viewer_token) = user(&app, &format!("viewer@{slug}.example"), "developer", &org).await;
        let (_, stranger_token) = user(&app, &format!("stranger@{slug}.example"), "developer", &org).await;
        let projects: Api<Project> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &projects,
            "gitops-e2e",
            &json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Project",
                    "metadata": {"name": "demo", "annotations": {ANNOTATION_OWNER: owner_email}},
                    "spec": {"displayName": "Demo", "language": "python", "image": "python-3.11"}}),
        )
        .await;
        eventually("the project is mirrored", || async {
            db::assets::by_resource(&app.state.db, AssetKind::ProjectV2, &namespace, "demo")
                .await
                .unwrap()
                .is_some()
        })
        .await;
        let project = db::assets::by_resource(&app.state.db, AssetKind::ProjectV2, &namespace, "demo")
            .await
            .unwrap()
            .unwrap();

        let id = uuid::Uuid::new_v4().to_string();
        let workflows: Api<Workflow> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &workflows,
            "gitops-e2e",
            &json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Workflow",
                    "metadata": {"name": "nightly", "labels": {LABEL_ID: id},
                                 "annotations": {ANNOTATION_OWNER: owner_email}},
                    "spec": {"displayName": "Nightly", "project": "demo", "dagFile": "pipelines/nightly_dag.py",
                             "schedule": "0 6 * * *", "paused": true,
                             "notification": {"emails": ["ops@example.com"], "on": "failure"},
                             "sharing": {"users": [{"email": format!("viewer@{slug}.example"), "level": "view"}]}}}),
        )
        .await;
        eventually("the workflow is mirrored", || async {
            app.get(&format!("/v2/workflows/{id}"), &owner_token).await.0 == 200
        })
        .await;
        let (_, body) = app.get(&format!("/v2/workflows/{id}"), &owner_token).await;
        let w = &body["workflow"];
        assert_eq!(w["user_uid"], owner.as_str());
        assert_eq!(
            (
                w["managed"].as_bool(),
                w["published"].as_bool(),
                w["visual"].as_bool(),
                w["is_paused"].as_bool()
            ),
            (Some(true), Some(true), Some(false), Some(true))
        );
        assert_eq!(
            (w["project_id"].as_str(), w["project_name"].as_str()),
            (Some(project.id.as_str()), Some("Demo"))
        );
        assert_eq!(
            (w["schedule"].as_str(), w["dag_file"].as_str()),
            (Some("0 6 * * *"), Some("pipelines/nightly_dag.py"))
        );
        assert_eq!(
            (w["email_bool"].as_bool(), w["email_on"].as_str()),
            (Some(true), Some("failure"))
        );
        let (status, body) = app.get(&format!("/v2/workflows/{id}"), &viewer_token).await;
        assert_eq!(
            (status.as_u16(), body["workflow"]["access_level"].as_str()),
            (200, Some("view"))
        );
        assert_eq!(
            app.get(&format!("/v2/workflows/{id}"), &stranger_token).await.0,
            404
        );
        // It is changed in its resource, not here.
        let (status, body) = app
            .put(&format!("/v2/workflows/{id}"), &owner_token, json!({"name": "x"}))
            .await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (409, Some("managed_by_resource"))
        );

        // The operator's status reaches the row.
        operator_status(
            &workflows,
            "nightly",
            "Workflow",
            json!({"state": "broken", "importError": "NameError: name 'dag' is not defined",
                   "lastRun": "nightly-1", "lastRunTime": "2026-01-01T00:00:00Z", "lastRunDuration": 41.6}),
        )
        .await;
        eventually("the status is mirrored", || async {
            let (_, body) = app.get(&format!("/v2/workflows/{id}"), &owner_token).await;
            body["workflow"]["status"] == "broken"
        })
        .await;
        let (_, body) = app.get(&format!("/v2/workflows/{id}"), &owner_token).await;
        let w = &body["workflow"];
        assert_eq!(w["import_error"], "NameError: name 'dag' is not defined");
        assert_eq!(
            (w["last_run"].as_i64(), w["last_run_duration"].as_i64()),
            (Some(1767225600), Some(42))
        );

        // Deleting the resource removes the workflow.
        workflows
            .delete("nightly", &DeleteParams::default())
            .await
            .unwrap();
        eventually("the workflow is gone", || async {
            app.get(&format!("/v2/workflows/{id}"), &owner_token).await.0 == 404
        })
        .await;
        crate::gitops::delete_namespace(&client, &namespace).await;
    }
}
