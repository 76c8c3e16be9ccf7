//! Legacy projects and their notebooks (issue 18, docs/contracts/notebooks.md) on SQLite and
//! PostgreSQL: create with the spec's rules, the two lists, notebooks as files in the project's
//! repository (create, import, rename, preview, delete), templates, sharing, and what needs a
//! running notebook server. JupyterLab itself, on the real node, is in the end-to-end tests.

use serde_json::{Value, json};

use crate::helpers::{Person, TestApp, apps};

async fn create(app: &TestApp, owner: &Person, body: Value) -> (reqwest::StatusCode, Value) {
    app.post("/v1/projects", Some(&owner.token), json!({ "project": body }))
        .await
}

/// The names of the files at the root of project `id`'s repository.
async fn files(app: &TestApp, who: &Person, id: &str) -> Vec<String> {
    let (status, body) = app
        .post(
            &format!("/v2/projects/repocontents/{id}"),
            Some(&who.token),
            json!({"path": ""}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_legacy_project_follows_the_form_rules_and_has_its_own_list() {
    for app in apps().await {
        let org = app.unique_org("Legacy").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let data = app.dataset(&org, Some(&owner.uid), "Sales data").await;
        let base = json!({"name": "Sales / Q1 - east", "description": "Quarterly notes", "language": "python", "dataset_ids": [data]});
        for (change, message) in [
            (
                json!({"name": "bad_name"}),
                "Please enter valid project name. No special character allowed.",
            ),
            (json!({"name": "  "}), "Empty project name not allowed."),
            (json!({"dataset_ids": []}), "Dataset is required"),
            (json!({"description": ""}), "Description is required"),
        ] {
            let mut body = base.clone();
            for (k, v) in change.as_object().unwrap() {
                body[k] = v.clone();
            }
            let (status, answer) = create(&app, &owner, body).await;
            assert_eq!(
                (status.as_u16(), answer["message"].as_str()),
                (400, Some(message)),
                "{}",
                app.kind
            );
        }
        // A dataset the caller cannot see is refused, and nothing is made.
        let stranger = app
            .person(&app.unique_org("Other").await, "developer", "Stranger")
            .await;
        let mut body = base.clone();
        body["dataset_ids"] = json!([app.dataset(&stranger.org, Some(&stranger.uid), "Theirs").await]);
        assert_eq!(create(&app, &owner, body).await.0, 400);

        let (status, answer) = create(&app, &owner, base.clone()).await;
        assert_eq!(status, 201, "{answer}");
        let p = &answer["project"];
        let id = p["id"].as_str().unwrap().to_owned();
        assert_eq!(p["name"], "Sales / Q1 - east");
        assert_eq!(
            (p["type"].as_str(), p["size"].as_str()),
            (Some("report"), Some("5"))
        );
        assert_eq!(p["author"], "Test developer", "the creator's name by default");
        assert_eq!(p["dataset_ids"], json!([data]));
        assert_eq!(p["notebooks"], json!([]));
        assert_eq!(p["users"]["first_name"], "Test");
        assert_eq!(
            (p["user_uid"].clone(), p["owner_id"].clone()),
            (json!(owner.uid), json!(owner.uid))
        );
        assert_eq!(p["status"], "stopped");

        // It is in the legacy list, not in the projects v2 list; a v2 project is not in the
        // legacy list.
        let v2 = app.project(&owner, "Code project").await;
        let (_, mine) = app.get("/v1/projects", &owner.token).await;
        let ids: Vec<&str> = mine["projects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [id.as_str()]);
        assert_eq!(
            (mine["total"].as_i64(), mine["pageSize"].as_i64()),
            (Some(1), Some(10))
        );
        let (_, v2_list) = app.get("/v2/projects", &owner.token).await;
        let v2_ids: Vec<&str> = v2_list["projects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        assert_eq!(v2_ids, [v2.as_str()]);
        assert_eq!(app.get(&format!("/v1/projects/{v2}"), &owner.token).await.0, 404);
        // Only types including 'report' are listed.
        let mut other = base.clone();
        other["name"] = json!("Dashboards only");
        other["type"] = json!("dashboard");
        assert_eq!(create(&app, &owner, other).await.0, 201);
        let (_, mine) = app
            .get("/v1/projects?orderBy=name&sortOperator=asc", &owner.token)
            .await;
        assert_eq!(mine["total"], 1);
        assert_eq!(app.get("/v1/projects?orderBy=size", &owner.token).await.0, 400);

        // Update: the name is fixed; a size can grow, not shrink.
        let put = |body: Value| {
            let (app, id, token) = (&app, id.clone(), owner.token.clone());
            async move {
                app.put(&format!("/v1/projects/{id}"), &token, json!({"project": body}))
                    .await
            }
        };
        let (status, answer) = put(json!({"name": "Renamed"})).await;
        assert_eq!(
            (status.as_u16(), answer["message"].as_str()),
            (400, Some("Project name cannot be changed"))
        );
        assert_eq!(put(json!({"size": "3"})).await.0, 400);
        let (status, answer) =
            put(json!({"size": "8", "author": "Ana", "tags": ["sales", "q1"], "name": "Sales / Q1 - east"}))
                .await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            (
                answer["project"]["size"].as_str(),
                answer["project"]["author"].as_str()
            ),
            (Some("8"), Some("Ana"))
        );
        assert_eq!(answer["project"]["tags"], json!(["sales", "q1"]));

        // Shared with a viewer: in their 'Shared With Me' list, not in their own; they cannot
        // change it; a stranger does not see it.
        let viewer = app.person(&org, "developer", "Viewer").await;
        let (status, answer) = app
            .post(
                "/v1/projects/share",
                Some(&owner.token),
                json!({"share": {"entity_id": id, "shares": [
                    {"share_type": "share", "email": viewer.email, "access_level": "view", "to_entity_type": "User"}]}}),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
        let (_, shared) = app.get("/v1/projects/share/list", &viewer.token).await;
        assert_eq!(shared["projects"][0]["id"], json!(id));
        assert_eq!(shared["projects"][0]["access_level"], "view");
        assert_eq!(app.get("/v1/projects", &viewer.token).await.1["total"], 0);
        assert_eq!(
            app.put(
                &format!("/v1/projects/{id}"),
                &viewer.token,
                json!({"project": {"author": "x"}})
            )
            .await
            .0,
            403
        );
        assert_eq!(
            app.get(&format!("/v1/projects/{id}"), &stranger.token).await.0,
            404
        );

        let (status, answer) = app.delete(&format!("/v1/projects/{id}"), &owner.token).await;
        assert_eq!(
            (status.as_u16(), answer["message"].as_str()),
            (200, Some("Project Deleted!"))
        );
        assert_eq!(app.get(&format!("/v1/projects/{id}"), &owner.token).await.0, 404);
    }
}

#[tokio::test]
async fn notebooks_are_files_in_the_projects_repository() {
    for app in apps().await {
        let org = app.unique_org("Notebooks").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let project = crate::matrix_notebooks::legacy_project(&app, &owner, "Notes").await;
        assert!(
            files(&app, &owner, &project)
                .await
                .contains(&"First.ipynb".to_owned())
        );

        let new = |name: &str, description: &str| json!({"notebook": {"name": name, "description": description, "project_id": project}});
        let (status, body) = app.post("/v1/notebook", Some(&owner.token), new(" ", "d")).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Empty notebook name not allowed."))
        );
        let (status, body) = app
            .post(
                "/v1/notebook",
                Some(&owner.token),
                new("Sales review", "Looks at sales"),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (201, Some("Notebook created successfully!")),
            "{body}"
        );
        let review = body["notebook"]["id"].as_str().unwrap().to_owned();
        assert_eq!(body["notebook"]["path"], "Sales-review.ipynb");
        assert_eq!(body["notebook"]["status"], "active");
        // The same name again gets a file of its own.
        let (_, again) = app
            .post("/v1/notebook", Some(&owner.token), new("Sales review", "Again"))
            .await;
        assert_eq!(again["notebook"]["path"], "Sales-review-2.ipynb");

        // The list, one notebook, and the project's view count them.
        let (_, list) = app.get(&format!("/v1/notebook/{project}"), &owner.token).await;
        assert_eq!(list["notebooks"].as_array().unwrap().len(), 3);
        let (status, detail) = app
            .get(&format!("/v1/notebook/detail/{review}"), &owner.token)
            .await;
        assert_eq!(status, 200, "{detail}");
        assert_eq!(detail["project"]["id"], json!(project));
        assert_eq!(detail["jupyter"]["running"], false);
        assert_eq!(detail["iframe"], Value::Null);
        let (_, p) = app.get(&format!("/v1/projects/{project}"), &owner.token).await;
        assert_eq!(p["project"]["notebooks"].as_array().unwrap().len(), 3);

        // Import: a file (checked to be a notebook) or another notebook the caller can see.
        let import = |body: Value| app.post("/v1/notebook/import", Some(&owner.token), body);
        let (status, body) = import(
            json!({"notebook": {"project_id": project}, "file": {"name": "x.ipynb", "content": "{}"}}),
        )
        .await;
        assert_eq!(status, 400);
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("This is not a Jupyter notebook"),
            "{body}"
        );
        let uploaded = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Uploaded <b>here</b>"]}]});
        let (status, body) = import(json!({"notebook": {"project_id": project},
            "file": {"name": "From disk.ipynb", "content": uploaded.to_string()}}))
        .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(
            (
                body["notebook"]["name"].as_str(),
                body["notebook"]["path"].as_str()
            ),
            (Some("From disk"), Some("From-disk.ipynb"))
        );
        let from_disk = body["notebook"]["id"].as_str().unwrap().to_owned();
        let (status, body) =
            import(json!({"notebook": {"project_id": project, "name": "Copy"}, "importNotebook": from_disk}))
                .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["notebook"]["path"], "Copy.ipynb");
        assert_eq!(import(json!({"notebook": {"project_id": project}})).await.0, 400);

        // The preview renders the committed file, read-only.
        let (status, body) = app
            .post(
                &format!("/v1/notebook/{from_disk}/preview"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let html = body["html"].as_str().unwrap();
        assert!(html.contains("<h1>Uploaded <b>here</b></h1>"), "{html}");
        assert!(html.contains("default-src 'none'"));

        // Rename keeps the file; delete removes it from git.
        let (status, body) = app
            .put(
                &format!("/v1/notebook/{review}"),
                &owner.token,
                json!({"notebook": {"name": "Sales review 2026"}}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["notebook"]["path"].as_str()),
            (200, Some("Sales-review.ipynb"))
        );
        let (status, body) = app.delete(&format!("/v1/notebook/{review}"), &owner.token).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (200, Some("Notebook Deleted!"))
        );
        let names = files(&app, &owner, &project).await;
        assert!(
            !names.contains(&"Sales-review.ipynb".to_owned()) && names.contains(&"Copy.ipynb".to_owned()),
            "{names:?}"
        );
        assert_eq!(
            app.get(&format!("/v1/notebook/detail/{review}"), &owner.token)
                .await
                .0,
            404
        );

        // Commit needs JupyterLab running; the notebook server's address is the caller's own.
        let (status, body) = app
            .post(
                &format!("/v1/notebook/{from_disk}/commit"),
                Some(&owner.token),
                json!({"message": "Save"}),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("Open the notebook first")
        );
        let other = app.person(&org, "developer", "Other").await;
        let dev_url = |uid: String| {
            let (app, token, project) = (&app, owner.token.clone(), project.clone());
            async move {
                app.put(
                    &format!("/v1/users/{uid}/getJupyterDevUrl"),
                    &token,
                    json!({"project_id": project}),
                )
                .await
            }
        };
        assert_eq!(dev_url(other.uid.clone()).await.0, 404);
        let (status, body) = dev_url(owner.uid.clone()).await;
        assert_eq!((status.as_u16(), &body["dev_url"]), (200, &Value::Null), "{body}");

        // An R project's notebooks are kept and previewed, but not opened yet (the r image has no
        // JupyterLab): a clear 409, not a failing container.
        let data = app.dataset(&org, Some(&owner.uid), "R data").await;
        let (status, body) = app
            .post(
                "/v1/projects",
                Some(&owner.token),
                json!({"project": {"name": "R notes", "description": "d", "language": "r", "dataset_ids": [data]}}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let r_project = body["project"]["id"].as_str().unwrap().to_owned();
        let (_, body) = app
            .post(
                "/v1/notebook",
                Some(&owner.token),
                json!({"notebook": {"name": "Model", "description": "d", "project_id": r_project}}),
            )
            .await;
        let r_notebook = body["notebook"]["id"].as_str().unwrap().to_owned();
        let (status, body) = app
            .post(
                &format!("/v1/notebook/{r_notebook}/open"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        // The r image has JupyterLab with the R kernel: an R notebook opens like a Python one.
        assert_eq!(status, 200, "{body}");
        assert!(body["jupyter"]["running"].as_bool().unwrap(), "{body}");
        let (status, body) = app
            .post(
                &format!("/v1/notebook/{r_notebook}/stop"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["jupyter"]["running"], false, "{body}");
        let (status, body) = app
            .post(
                &format!("/v1/notebook/{r_notebook}/preview"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");

        // A stranger sees none of it.
        let stranger = app
            .person(&app.unique_org("Else").await, "developer", "Stranger")
            .await;
        assert_eq!(
            app.get(&format!("/v1/notebook/detail/{from_disk}"), &stranger.token)
                .await
                .0,
            404
        );
        assert_eq!(
            app.get(&format!("/v1/notebook/{project}"), &stranger.token)
                .await
                .0,
            404
        );
    }
}

#[tokio::test]
async fn a_template_project_comes_with_its_notebooks() {
    for app in apps().await {
        let org = app.unique_org("Templates").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let (status, body) = app.get("/v1/projects/ludisproject", &owner.token).await;
        assert_eq!(status, 200);
        let templates = body["templates"].as_array().unwrap();
        assert_eq!(templates.len(), 2);
        let retail = templates.iter().find(|t| t["id"] == "retail-sales").unwrap();
        assert_eq!(retail["notebooks"], json!(["Explore sales", "Weekly revenue"]));
        assert_eq!(retail["datasets"], json!(["Retail sales (sample)"]));

        let (status, body) = app
            .post(
                "/v1/projects/ludisproject",
                Some(&owner.token),
                json!({"template": "retail-sales"}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let p = &body["project"];
        assert_eq!(p["name"], "Retail sales analysis");
        let paths: Vec<&str> = p["notebooks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["path"].as_str().unwrap())
            .collect();
        assert_eq!(paths, ["01-explore-sales.ipynb", "02-weekly-revenue.ipynb"]);
        let id = p["id"].as_str().unwrap();
        let names = files(&app, &owner, id).await;
        assert!(names.contains(&"02-weekly-revenue.ipynb".to_owned()), "{names:?}");
        let (status, _) = app
            .post(
                "/v1/projects/ludisproject",
                Some(&owner.token),
                json!({"template": "nope"}),
            )
            .await;
        assert_eq!(status, 400);
    }
}

/// Two API replicas opening the same notebook server, or sweeping the same pod, at once: one makes
/// its token (a second would reach the database but not the pod, which then refuses the proxy).
#[tokio::test]
async fn two_replicas_make_one_notebook_token_per_start_and_per_restart() {
    use ludis_api::db::projects::{ProjectRow, claim_start, jupyter_token};
    use ludis_api::projects::jupyter::renew_for_restart;
    for app in apps().await {
        let org = app.unique_org("Token race").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let id = app.project(&owner, "Race notebooks").await;
        sqlx::query(
            "UPDATE projects SET flavour = 'notebook', running = 0, status = 'stopped' WHERE id = $1",
        )
        .bind(&id)
        .execute(&app.state.db)
        .await
        .unwrap();
        let db = &app.state.db;
        let one = |a: bool, b: bool| usize::from(a) + usize::from(b);
        // A start: one of two replicas claims it; a running server is not started again; a
        // failed one is, once.
        let (a, b) = tokio::join!(claim_start(db, &id), claim_start(db, &id));
        assert_eq!(one(a.unwrap(), b.unwrap()), 1, "{}: one start", app.kind);
        assert!(
            !claim_start(db, &id).await.unwrap(),
            "{}: running already",
            app.kind
        );
        sqlx::query("UPDATE projects SET status = 'failed' WHERE id = $1")
            .bind(&id)
            .execute(db)
            .await
            .unwrap();
        let (a, b) = tokio::join!(claim_start(db, &id), claim_start(db, &id));
        assert_eq!(
            one(a.unwrap(), b.unwrap()),
            1,
            "{}: one restart of a failed server",
            app.kind
        );

        // Two sweeps restarting pod 1: one new token.
        let project = ludis_api::db::details::by_id::<ProjectRow>(db, &id)
            .await
            .unwrap()
            .unwrap();
        let before = jupyter_token(db, &id).await.unwrap();
        let (a, b) = tokio::join!(
            renew_for_restart(&app.state, &project, "pod-1"),
            renew_for_restart(&app.state, &project, "pod-1")
        );
        assert_eq!(
            one(a.unwrap(), b.unwrap()),
            1,
            "{}: one token for pod 1",
            app.kind
        );
        let after = jupyter_token(db, &id).await.unwrap();
        assert!(after.is_some() && after != before, "{}: a new token", app.kind);
        // A late sweep of pod 1 changes nothing; the restart of the next pod makes a new one.
        assert!(!renew_for_restart(&app.state, &project, "pod-1").await.unwrap());
        assert_eq!(jupyter_token(db, &id).await.unwrap(), after, "{}", app.kind);
        assert!(renew_for_restart(&app.state, &project, "pod-2").await.unwrap());
        assert_ne!(jupyter_token(db, &id).await.unwrap(), after, "{}", app.kind);
    }
}
