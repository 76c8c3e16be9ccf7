//! A project's environment variables (values only for editors, encrypted at rest, in the
//! project's Secret with a cluster), the image list and the image choice, and the clusters
//! (issue 14). SQLite and PostgreSQL.

use k8s_openapi::api::core::v1::Secret;
use kube::Api;
use ludis_api::db;
use serde_json::{Value, json};

use crate::helpers::apps;

#[tokio::test]
async fn env_vars_are_for_editors_and_reach_the_projects_secret() {
    for app in apps().await {
        let org = app.unique_org("Env vars").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let id = app.project(&owner, "Env").await;
        app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;

        let (status, body) = app
            .post(
                "/v2/projects/envvar",
                Some(&owner.token),
                json!({"project_uid": id, "key": "DATABASE_URL", "value": "postgres://secret"}),
            )
            .await;
        assert_eq!(status, 201, "{}: {body}", app.kind);
        let var = body["envVariable"]["id"].as_str().unwrap().to_owned();
        assert_eq!(body["envVariable"]["value"], "postgres://secret");
        assert_eq!(body["envVariable"]["project_uid"], id);
        for bad in [
            json!({"project_uid": id, "key": "1BAD", "value": "x"}),
            json!({"project_uid": id, "key": "A-B", "value": "x"}),
            json!({"project_uid": id, "key": "BIG", "value": "x".repeat(32 * 1024 + 1)}),
        ] {
            let (status, body) = app.post("/v2/projects/envvar", Some(&owner.token), bad).await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (400, Some("Please add valid inputs"))
            );
        }
        let (status, _) = app
            .post(
                "/v2/projects/envvar",
                Some(&owner.token),
                json!({"project_uid": id, "key": "DATABASE_URL", "value": "again"}),
            )
            .await;
        assert_eq!(status, 409);

        // Encrypted at rest.
        let stored = db::projects::env_vars(&app.state.db, &id).await.unwrap();
        assert_eq!(stored.len(), 1);
        assert!(!stored[0].value_enc.contains("postgres://secret"));

        // An executor sees the key, never the value, and cannot change it.
        let (status, body) = app
            .get(&format!("/v2/projects/envvar?id={id}"), &runner.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["envVariables"][0]["key"], "DATABASE_URL");
        assert_eq!(body["envVariables"][0]["value"], Value::Null);
        let (status, _) = app
            .put(
                &format!("/v2/projects/envvar/{var}"),
                &runner.token,
                json!({"value": "mine"}),
            )
            .await;
        assert_eq!(status, 403);
        let (_, body) = app
            .get(&format!("/v2/projects/envvar?id={id}"), &owner.token)
            .await;
        assert_eq!(body["envVariables"][0]["value"], "postgres://secret");

        let (status, body) = app
            .put(
                &format!("/v2/projects/envvar/{var}"),
                &owner.token,
                json!({"value": "postgres://new"}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), &body["envVariable"]["value"]),
            (200, &json!("postgres://new"))
        );

        // With a cluster, the project's Secret has every variable.
        let a = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        if let (Some(client), Some(ns), Some(name)) = (&app.state.kube, &a.namespace, &a.resource_name) {
            let secret = Api::<Secret>::namespaced(client.clone(), ns)
                .get(&format!("{name}-env"))
                .await
                .unwrap();
            let data = secret.data.unwrap();
            assert_eq!(data["DATABASE_URL"].0, b"postgres://new");
            let owners = secret.metadata.owner_references.unwrap();
            assert_eq!(
                (owners[0].kind.as_str(), owners[0].name.as_str()),
                ("Project", name.as_str())
            );
        }

        let (status, _) = app
            .delete(&format!("/v2/projects/envvar/{var}"), &owner.token)
            .await;
        assert_eq!(status, 200);
        let (_, body) = app
            .get(&format!("/v2/projects/envvar?id={id}"), &owner.token)
            .await;
        assert_eq!(body["envVariables"], json!([]));
        let (status, _) = app
            .delete(&format!("/v2/projects/envvar/{var}"), &owner.token)
            .await;
        assert_eq!(status, 404);
    }
}

#[tokio::test]
async fn a_notebook_project_keeps_no_variables() {
    // Its notebook server runs the cells of everyone who opens it, executors included, whom the
    // API never shows a value.
    for app in apps().await {
        let org = app.unique_org("Notebook vars").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let id = app.project(&owner, "Notebooks").await;
        sqlx::query("UPDATE projects SET flavour = 'notebook' WHERE id = $1")
            .bind(&id)
            .execute(&app.state.db)
            .await
            .unwrap();
        let (status, body) = app
            .post(
                "/v2/projects/envvar",
                Some(&owner.token),
                json!({"project_uid": id, "key": "API_KEY", "value": "secret"}),
            )
            .await;
        assert_eq!(status, 409, "{}: {body}", app.kind);
        assert_eq!(
            body["message"],
            "Notebook projects keep no environment variables: everyone who opens a notebook runs code beside them"
        );
        let (_, body) = app
            .get(&format!("/v2/projects/envvar?id={id}"), &owner.token)
            .await;
        assert_eq!(body["envVariables"], json!([]), "nothing was kept");
    }
}

#[tokio::test]
async fn images_are_listed_and_chosen_and_the_cluster_is_one() {
    for app in apps().await {
        let org = app.unique_org("Images").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let (status, body) = app.get("/v2/cluster/dockerimages/list", &owner.token).await;
        assert_eq!(status, 200, "{body}");
        let images = body["dockerImages"].as_array().unwrap();
        let r = images
            .iter()
            .find(|i| i["id"] == "r-4.2")
            .expect("the seeded R image");
        assert_eq!(
            (r["language"].as_str(), r["name"].as_str()),
            (Some("r"), Some("r-4.2"))
        );
        assert!(!images.iter().any(|i| i["id"] == "default-python"), "{body}");
        // No image references reach clients.
        assert!(!body.to_string().contains("rocker/"), "{body}");

        let id = app.project(&owner, "Imaged").await;
        let (status, body) = app
            .put(
                &format!("/v2/projects/{id}"),
                &owner.token,
                json!({"entity": {"image_id": "r-4.2"}}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), &body["project"]["image_id"]),
            (200, &json!("r-4.2"))
        );

        let (status, body) = app.get("/v2/cluster", &owner.token).await;
        assert_eq!((status.as_u16(), &body["total"]), (200, &json!(1)));
        let cluster = body["clusters"][0]["id"].as_str().unwrap().to_owned();
        let (status, body) = app.get(&format!("/v2/cluster/{cluster}"), &owner.token).await;
        assert_eq!((status.as_u16(), &body["cluster"]["id"]), (200, &json!(cluster)));
        let (status, _) = app.get("/v2/cluster/other", &owner.token).await;
        assert_eq!(status, 404);
    }
}
