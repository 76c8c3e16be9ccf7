//! Projects v2 (issue 14, docs/contracts/projects-v2.md): create (hosted), list with filters and
//! pages, details and preview, update, share, delete — on SQLite and PostgreSQL; with a cluster
//! (KUBECONFIG), the Project resource the API applies. Files, env vars and import are in
//! `projects_files.rs`.

use kube::Api;
use ludis_api::db;
use serde_json::json;

use crate::helpers::{Person, TestApp, apps};

/// A project made by `owner` with a name; returns the answer's project.
async fn create(
    app: &TestApp,
    owner: &Person,
    body: serde_json::Value,
) -> (reqwest::StatusCode, serde_json::Value) {
    app.post("/v2/projects", Some(&owner.token), json!({ "project": body }))
        .await
}

#[tokio::test]
async fn a_hosted_project_is_created_listed_changed_and_deleted() {
    for app in apps().await {
        let org = app.unique_org("Projects").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let (status, body) = create(
            &app,
            &owner,
            json!({"name": "Sales model", "description": "Forecasts", "language": "r"}),
        )
        .await;
        assert_eq!(status, 201, "{}: {body}", app.kind);
        let p = &body["project"];
        let id = p["id"].as_str().unwrap().to_owned();
        assert_eq!(p["name"], "Sales model");
        assert_eq!(p["language"], "r");
        assert_eq!(p["image_id"], "r-4.2", "the language's image by default");
        assert_eq!(p["hosted"], true);
        assert_eq!(p["repo_url"], serde_json::Value::Null);
        assert_eq!(p["branch"], "main");
        assert_eq!(p["status"], "stopped");
        assert_eq!(p["access_level"], "edit");
        assert_eq!(p["is_owner"], true);
        assert_eq!(p["managed"], false);
        assert_eq!(p["author"], "Test developer");

        // The hosted repository exists with its first commit (a bare repository on disk).
        let namespace = ludis_api::projects::git::namespace_of(&app.state, &org)
            .await
            .unwrap();
        let repo_dir = app
            .state
            .settings
            .data_dir
            .join(format!("git/hosted/{namespace}/{id}.git"));
        assert!(repo_dir.join("HEAD").is_file(), "{}", repo_dir.display());

        // Details and the preview.
        let (status, body) = app.get(&format!("/v2/projects/{id}"), &owner.token).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["project"]["id"], id);
        assert_eq!(
            body["preview"],
            json!({"running": false, "status": "stopped", "message": null, "file": null, "container_id": null, "web_url": null, "port": null, "idle": null})
        );
        let (status, body) = app.get(&format!("/v2/projects/check/{id}"), &owner.token).await;
        assert_eq!(
            (status.as_u16(), &body["preview"]["status"]),
            (200, &json!("stopped"))
        );

        // Update: name, description, image; a bad name and an unknown image are refused.
        let (status, body) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner.token,
                json!({"entity": {"name": "Sales v2", "image_id": "python-3.11"}}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Project updated!");
        assert_eq!(body["project"]["name"], "Sales v2");
        assert_eq!(body["project"]["description"], "Forecasts");
        assert_eq!(body["project"]["image_id"], "python-3.11");
        let (status, body) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner.token,
                json!({"entity": {"name": "a/b"}}),
            )
            .await;
        assert_eq!(status, 400);
        assert_eq!(
            body["message"],
            "Project name can only contain letters, numbers, underscores, hyphens, and periods"
        );
        let (status, body) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner.token,
                json!({"entity": {"image_id": "busybox"}}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Unknown image: busybox"))
        );
        let (status, body) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner.token,
                json!({"entity": {"dataset_ids": ["00000000-0000-4000-8000-000000000000"]}}),
            )
            .await;
        assert_eq!(status, 400, "a dataset the caller cannot see: {body}");

        // With a cluster, the Project resource carries what the API decided.
        if let (Some(client), Some((ns, name))) = (&app.state.kube, row_resource(&app, &id).await) {
            let cr = Api::<ludis_crds::Project>::namespaced(client.clone(), &ns)
                .get(&name)
                .await
                .unwrap();
            assert_eq!(cr.spec.display_name, "Sales v2");
            assert_eq!(cr.spec.image, "python-3.11");
            assert!(cr.spec.git.is_none());
            assert!(!cr.spec.preview.running);
        }

        // Delete: gone for everyone, and its repository with it.
        let (status, body) = app.delete(&format!("/v2/projects/{id}"), &owner.token).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (200, Some("Project Deleted!"))
        );
        let (status, body) = app.get(&format!("/v2/projects/{id}"), &owner.token).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (404, Some("project_not_found"))
        );
        assert!(!repo_dir.exists());
    }
}

async fn row_resource(app: &TestApp, id: &str) -> Option<(String, String)> {
    let a = db::assets::by_id(&app.state.db, id).await.unwrap()?;
    Some((a.namespace?, a.resource_name?))
}

#[tokio::test]
async fn bad_projects_are_refused_with_the_specs_messages() {
    for app in apps().await {
        let org = app.unique_org("Bad projects").await;
        let owner = app.person(&org, "developer", "Owner").await;
        for (body, message) in [
            (
                json!({"name": "my project!"}),
                "Project name can only contain letters, numbers, underscores, hyphens, and periods",
            ),
            (json!({"name": "  "}), "Empty project name not allowed."),
            (
                json!({"name": "x", "language": "cobol"}),
                "Unknown language: cobol (python or r)",
            ),
            (
                json!({"name": "x", "image_id": "default-python"}),
                "Unknown image: default-python",
            ),
            // An external remote needs the caller's saved git token.
            (
                json!({"name": "x", "repo_url": "https://git.example/ada/demo.git"}),
                "Please save your Git username and personal access token first",
            ),
        ] {
            let (status, answer) = create(&app, &owner, body.clone()).await;
            assert_eq!(status, 400, "{body}: {answer}");
            assert_eq!(answer["message"], message, "{body}");
        }
        // Nothing was made.
        let (_, list) = app.get("/v2/projects", &owner.token).await;
        assert_eq!(list["total"], 0, "{list}");
    }
}

#[tokio::test]
async fn an_import_never_reaches_an_address_off_the_internet() {
    // The production rule (tests otherwise allow their git servers on loopback).
    for app in crate::helpers::apps_with(|s| s.git_allow_http_loopback = false).await {
        let org = app.unique_org("Import targets").await;
        let owner = app.person(&org, "developer", "Owner").await;
        for url in [
            "https://127.0.0.1/ada/demo.git",
            "https://169.254.169.254/latest/meta-data.git",
            "https://10.0.0.1:8080/ada/demo.git",
            "https://[::1]/ada/demo.git",
            "https://localhost/ada/demo.git",
            "https://ludis-api.localhost/ada/demo.git",
        ] {
            let (status, answer) = create(&app, &owner, json!({"name": "", "repo_url": url})).await;
            assert_eq!(
                (status.as_u16(), answer["message"].as_str()),
                (
                    400,
                    Some(
                        "The repository's host must be on the internet: private, loopback and link-local addresses are refused"
                    )
                ),
                "{}: {url}",
                app.kind
            );
        }
        let (_, list) = app.get("/v2/projects", &owner.token).await;
        assert_eq!(list["total"], 0, "{list}");
    }
}

#[tokio::test]
async fn the_list_has_all_mine_and_shared_with_pages_and_search() {
    for app in apps().await {
        let org = app.unique_org("Project lists").await;
        let me = app.person(&org, "developer", "Me").await;
        let colleague = app.person(&org, "developer", "Colleague").await;
        let stranger = app.person(&org, "developer", "Stranger").await;
        let mine = [app.project(&me, "Alpha").await, app.project(&me, "Beta").await];
        let theirs = app.project(&colleague, "Gamma").await;
        let hidden = app.project(&colleague, "Delta").await;
        // Shared through the share call (as the console does).
        let (status, body) = app
            .post(
                "/v2/projects/share",
                Some(&colleague.token),
                json!({"share": {"entity_id": theirs, "shares": [
                    {"share_type": "share", "email": me.email, "access_level": "execute", "to_entity_type": "User"}]}}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (200, Some("Project shared!")),
            "{body}"
        );

        let ids = |body: &serde_json::Value| -> Vec<String> {
            body["projects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let (_, all) = app.get("/v2/projects?filter=all", &me.token).await;
        assert_eq!(all["total"], 3, "{all}");
        assert!(!ids(&all).contains(&hidden));
        let (_, owned) = app.get("/v2/projects?filter=owned", &me.token).await;
        let mut got = ids(&owned);
        got.sort();
        let mut want = mine.to_vec();
        want.sort();
        assert_eq!(got, want);
        let (_, shared) = app.get("/v2/projects?filter=shared", &me.token).await;
        assert_eq!(ids(&shared), std::slice::from_ref(&theirs));
        assert_eq!(shared["projects"][0]["access_level"], "execute");
        assert_eq!(shared["projects"][0]["is_owner"], false);
        // Pages of one, newest change first.
        let (_, page) = app.get("/v2/projects?pageSize=1&page=2", &me.token).await;
        assert_eq!(
            (page["total"].as_i64(), page["total_pages"].as_i64()),
            (Some(3), Some(3))
        );
        assert_eq!(page["projects"].as_array().unwrap().len(), 1);
        let (_, found) = app.get("/v2/projects?search=bet", &me.token).await;
        assert_eq!(ids(&found), [mine[1].clone()]);
        let (status, _) = app.get("/v2/projects?filter=nope", &me.token).await;
        assert_eq!(status, 400);
        // The stranger sees none of them, and the shared one does not exist for them.
        let (_, none) = app.get("/v2/projects", &stranger.token).await;
        assert_eq!(none["total"], 0);
        let (status, _) = app.get(&format!("/v2/projects/{theirs}"), &stranger.token).await;
        assert_eq!(status, 404);
    }
}
