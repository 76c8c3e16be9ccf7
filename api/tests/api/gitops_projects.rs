//! Project resources applied with kubectl or a GitOps tool appear in their owner's console with
//! `spec.sharing`, follow the operator's status and go with their resource (a real control plane:
//! KUBECONFIG; skipped without one).

use kube::{Api, api::DeleteParams};
use ludis_api::{db, domain::AssetKind};
use ludis_crds::{ANNOTATION_OWNER, LABEL_ID, Project};
use serde_json::json;

use crate::{
    gitops::{eventually, gitops_apply, operator_status, organization, user},
    helpers::{apps, cluster},
};

#[tokio::test]
async fn a_gitops_project_appears_with_its_owner_sharing_and_status() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Gitops projects").await;
        let (owner, owner_token) = user(&app, &format!("owner@{slug}.example"), "developer", &org).await;
        let (_, viewer_token) = user(&app, &format!("viewer@{slug}.example"), "developer", &org).await;
        let (_, stranger_token) = user(&app, &format!("stranger@{slug}.example"), "developer", &org).await;
        let id = uuid::Uuid::new_v4().to_string();
        let projects: Api<Project> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &projects,
            "gitops-e2e",
            &json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Project",
                "metadata": {"name": "demo", "labels": {LABEL_ID: id},
                             "annotations": {ANNOTATION_OWNER: format!("owner@{slug}.example")}},
                "spec": {"displayName": "Demo", "description": "From Git", "language": "python",
                         "image": "python-3.11",
                         "git": {"url": "https://git.example/ada/demo.git", "branch": "dev"},
                         "sharing": {"users": [{"email": format!("viewer@{slug}.example"), "level": "view"}]}}
            }),
        )
        .await;
        eventually("the project is mirrored", || async {
            db::assets::by_resource(&app.state.db, AssetKind::ProjectV2, &namespace, "demo")
                .await
                .unwrap()
                .is_some()
        })
        .await;
        let row = db::assets::by_resource(&app.state.db, AssetKind::ProjectV2, &namespace, "demo")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.id, id, "{}", app.kind);
        assert_eq!(row.owner_uid.as_deref(), Some(owner.as_str()));

        // The owner sees it, managed; the viewer through spec.sharing; nobody else.
        let (status, body) = app.get(&format!("/v2/projects/{id}"), &owner_token).await;
        assert_eq!(status, 200, "{body}");
        let p = &body["project"];
        assert_eq!(
            (p["managed"].as_bool(), p["hosted"].as_bool()),
            (Some(true), Some(false))
        );
        assert_eq!(p["repo_url"], "https://git.example/ada/demo.git");
        assert_eq!(
            (p["repo_author"].as_str(), p["branch"].as_str()),
            (Some("ada"), Some("dev"))
        );
        let (status, body) = app.get(&format!("/v2/projects/{id}"), &viewer_token).await;
        assert_eq!(
            (status.as_u16(), body["project"]["access_level"].as_str()),
            (200, Some("view"))
        );
        let (status, _) = app.get(&format!("/v2/projects/{id}"), &stranger_token).await;
        assert_eq!(status, 404);
        // It is changed in its resource, not here.
        let (status, _) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner_token,
                json!({"entity": {"description": "x"}}),
            )
            .await;
        assert_eq!(status, 409);

        // The operator's status reaches the row.
        operator_status(
            &projects,
            "demo",
            "Project",
            json!({"phase": "Running", "url": "http://demo.ns.svc:8080"}),
        )
        .await;
        eventually("the status is mirrored", || async {
            let (_, body) = app.get(&format!("/v2/projects/check/{id}"), &owner_token).await;
            body["preview"]["status"] == "running"
        })
        .await;

        // Deleting the resource removes the project.
        projects.delete("demo", &DeleteParams::default()).await.unwrap();
        eventually("the project is gone", || async {
            app.get(&format!("/v2/projects/{id}"), &owner_token).await.0 == 404
        })
        .await;
        crate::gitops::delete_namespace(&client, &namespace).await;
    }
}
