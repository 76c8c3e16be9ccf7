//! Workflows v2 (issue 15, docs/contracts/workflows.md): create, list, read, change, save the
//! designer's graph, schedule, publish refusals, share and delete, with the contract's levels and
//! messages. SQLite and PostgreSQL; the cluster parts (publish, runs, logs, mark, clear) are in
//! `workflows_runs.rs`.

use base64::Engine as _;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, apps};

const NEED_EXECUTE: &str = "You need execute or edit workflow access and edit project access";

fn node(id: &str, label: &str, file: Option<&str>) -> Value {
    let (kind, data) = match file {
        Some(f) => ("script", json!({"fileName": f, "image": "python-3.11"})),
        None => ("", json!({})),
    };
    json!({"id": id, "type": "taskNode", "position": {"x": 10.5, "y": 20.5},
           "data": {"label": label, "taskType": if kind.is_empty() { Value::Null } else { json!(kind) }, "taskData": data}})
}

fn edge(s: &str, t: &str) -> Value {
    json!({"id": format!("{s}-{t}"), "source": s, "target": t})
}

/// The project's variables as its editor sees them: key → value.
async fn env_vars(app: &TestApp, project: &str, token: &str) -> Vec<(String, String)> {
    let (status, body) = app.get(&format!("/v2/projects/envvar?id={project}"), token).await;
    assert_eq!(status, 200, "{body}");
    body["envVariables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["key"].as_str().unwrap().to_owned(),
                v["value"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn workflows_are_created_in_a_project_listed_and_read() {
    for app in apps().await {
        let org = app.unique_org("Wf").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let outsider = app
            .person(&app.unique_org("Other").await, "developer", "Out")
            .await;
        let project = app.project(&owner, "Pipelines").await;
        app.share(&project, "user", &runner.uid, "execute", &owner.uid)
            .await;
        app.share(&project, "user", &viewer.uid, "view", &owner.uid).await;

        // Refusals: no project, no name, a bad cron, too little access on the project.
        let create = |token: String, body: Value| {
            let app = &app;
            async move { app.post("/v2/workflows", Some(&token), body).await }
        };
        let (status, body) = create(owner.token.clone(), json!({"name": "X", "visual_workflow": true})).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Please select a project for the workflow to live in"))
        );
        let (status, body) = create(
            owner.token.clone(),
            json!({"project_id": project, "name": " ", "visual_workflow": true}),
        )
        .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Please add a workflow name"))
        );
        let (status, body) = create(
            owner.token.clone(),
            json!({"project_id": project, "name": "X", "schedule": "0 25 * * *", "visual_workflow": true}),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        let (status, body) = create(
            viewer.token.clone(),
            json!({"project_id": project, "name": "X", "visual_workflow": true}),
        )
        .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need execute or edit access to this project"))
        );
        let (status, _) = create(
            outsider.token.clone(),
            json!({"project_id": project, "name": "X", "visual_workflow": true}),
        )
        .await;
        assert_eq!(status, 404);

        // A visual workflow on a schedule: the schedule is also the project's variable.
        let (status, body) = create(
            owner.token.clone(),
            json!({"project_id": project, "name": "Nightly", "schedule": "0 6 * * 1-5", "visual_workflow": true}),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["message"], "Workflow Created Successfully");
        let w = body["workflow"].clone();
        let visual = w["id"].as_str().unwrap().to_owned();
        assert_eq!(
            (
                w["status"].as_str(),
                w["schedule"].as_str(),
                w["visual"].as_bool(),
                w["published"].as_bool()
            ),
            (Some("unpublished"), Some("0 6 * * 1-5"), Some(true), Some(false))
        );
        assert_eq!(
            (w["project_name"].as_str(), w["access_level"].as_str()),
            (Some("Pipelines"), Some("edit"))
        );
        let key = format!("LUDIS_WORKFLOW_SCHEDULE_{}", &visual[..8]);
        assert!(
            env_vars(&app, &project, &owner.token)
                .await
                .contains(&(key, "0 6 * * 1-5".into()))
        );

        // A manual workflow commits its starter DAG file when its creator edits the project.
        let (status, body) = create(
            owner.token.clone(),
            json!({"project_id": project, "name": "Code", "visual_workflow": false}),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        let manual = body["workflow"]["id"].as_str().unwrap().to_owned();
        let dag_file = format!("{manual}_dag.py");
        assert_eq!(body["workflow"]["dag_file"], dag_file.as_str());
        let (status, file) = app
            .post(
                &format!("/v2/projects/repocontents/{project}"),
                Some(&owner.token),
                json!({"project": project, "path": dag_file}),
            )
            .await;
        assert_eq!(status, 200, "{file}");
        let text = base64::engine::general_purpose::STANDARD
            .decode(file["contents"]["content"].as_str().unwrap().replace('\n', ""))
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("BashOperator(") && text.contains("PythonOperator(") && text.contains(&manual),
            "{text}"
        );
        // An executor of the project may create one too (no file is committed for them).
        let (status, body) = create(
            runner.token.clone(),
            json!({"project_id": project, "name": "Theirs", "visual_workflow": false}),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        let theirs = body["workflow"]["id"].as_str().unwrap().to_owned();

        // The list: all, owned, one project's, manual only; others' are not there.
        let ids = |body: &Value| -> Vec<String> {
            body["workflows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w["id"].as_str().unwrap().to_owned())
                .collect()
        };
        // Newest change first; made in the same second, either order.
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        let (status, body) = app.get("/v2/workflows", &owner.token).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(sorted(ids(&body)), sorted(vec![manual.clone(), visual.clone()]));
        assert_eq!(body["total"], 2);
        let (_, body) = app
            .get(
                &format!("/v2/workflows?projectId={project}&dags=true"),
                &owner.token,
            )
            .await;
        assert_eq!(ids(&body), [manual.as_str()]);
        let (_, body) = app.get("/v2/workflows?filter=owned", &runner.token).await;
        assert_eq!(ids(&body), [theirs.as_str()]);
        let (_, body) = app.get("/v2/workflows", &outsider.token).await;
        assert_eq!(body["total"], 0);
        let (status, body) = app
            .post(
                "/v2/workflows/workflowdata/",
                Some(&runner.token),
                json!({"workflow_ids": [visual, theirs, "nope"]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(ids(&body), [theirs.as_str()], "only the ones the caller sees");

        // One workflow: view access, 404 otherwise; its designer graph.
        app.share(&visual, "user", &viewer.uid, "view", &owner.uid).await;
        let (status, body) = app.get(&format!("/v2/workflows/{visual}"), &viewer.token).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["workflow"]["access_level"], "view");
        assert_eq!(body["workflow"]["project_access_level"], "view");
        let (status, body) = app.get(&format!("/v2/workflows/{visual}"), &outsider.token).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (404, Some("workflow_not_found"))
        );
        let (status, body) = app
            .get(&format!("/v2/workflows/visual/{visual}"), &viewer.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            (body["nodes"].clone(), body["schedule"].as_str()),
            (json!([]), Some("0 6 * * 1-5"))
        );
        let (status, body) = app
            .get(&format!("/v2/workflows/daginfo/{visual}"), &viewer.token)
            .await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (409, Some("not_published"))
        );
    }
}

#[tokio::test]
async fn a_workflow_is_changed_saved_scheduled_and_deleted_with_the_contracts_levels() {
    for app in apps().await {
        let org = app.unique_org("Wf").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let project = app.project(&owner, "Pipelines").await;
        let id = app.workflow(&owner, &project, "Nightly", true).await;
        app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;
        let path = format!("/v2/workflows/{id}");

        // Name and e-mail settings: edit access ('You need edit access').
        let (status, body) = app.put(&path, &runner.token, json!({"name": "Mine"})).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need edit access"))
        );
        let (status, body) = app
            .put(
                &path,
                &owner.token,
                json!({"email_bool": true, "email_list": ["nope"]}),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        // Only the organization's members are notified: the API is no relay to strangers.
        let (status, body) = app
            .put(
                &path,
                &owner.token,
                json!({"email_bool": true, "email_list": [runner.email, "ops@example.com"]}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                400,
                Some(
                    "Notifications go to members of your organization only: ops@example.com is not one of them (an administrator can allow it in the admin portal's Security tab)"
                )
            )
        );
        // An address an administrator allowed may be notified too; only administrators of the
        // organization allow one.
        let allow = |token: String, addresses: Value| {
            let (app, path) = (&app, format!("/v1/organizations/{org}/mailrecipients"));
            async move { app.put(&path, &token, json!({"addresses": addresses})).await }
        };
        let (status, body) = allow(owner.token.clone(), json!(["ops@example.com"])).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("Only administrators can do this"))
        );
        let admin = app.person(&org, "administrator", "Admin").await;
        let (status, body) = allow(admin.token.clone(), json!(["ops@example.com", "nope"])).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Please enter valid email (nope)"))
        );
        let (status, body) = allow(
            admin.token.clone(),
            json!([" Ops@Example.com ", "ops@example.com"]),
        )
        .await;
        assert_eq!(
            (status.as_u16(), body["addresses"].clone()),
            (200, json!(["ops@example.com"])),
            "{body}"
        );
        let elsewhere = app.unique_org("Wf elsewhere").await;
        let stranger_admin = app.person(&elsewhere, "administrator", "Stranger").await;
        let (status, _) = allow(stranger_admin.token.clone(), json!([])).await;
        assert_eq!(status, 404, "another organization's administrator");
        let (status, body) = app
            .put(
                &path,
                &owner.token,
                json!({"email_bool": true, "email_list": ["ops@example.com"]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = allow(admin.token.clone(), json!([])).await;
        assert_eq!((status.as_u16(), body["addresses"].clone()), (200, json!([])));
        let (status, body) = app
            .put(&path, &owner.token, json!({"email_list": ["ops@example.com"]}))
            .await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (400, Some("not_a_member")),
            "no longer allowed: {body}"
        );
        let member = runner.email.to_uppercase();
        let (status, body) = app
            .put(
                &path,
                &owner.token,
                json!({"name": "Renamed", "email_bool": true, "email_list": [member], "email_on": "failure"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Workflow update successful!");
        let w = &body["workflow"];
        assert_eq!(
            (
                w["name"].as_str(),
                w["email_on"].as_str(),
                w["email_list"].clone()
            ),
            (Some("Renamed"), Some("failure"), json!([member]))
        );

        // The Active toggle: execute access.
        let patch = |token: String, paused: bool| {
            let (app, path) = (&app, path.clone());
            async move {
                app.call(
                    Method::PATCH,
                    &path,
                    Some(&token),
                    Some(json!({"paused": paused})),
                )
                .await
            }
        };
        let (status, body) = patch(viewer.token.clone(), true).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some(NEED_EXECUTE))
        );
        let (status, body) = patch(runner.token.clone(), true).await;
        assert_eq!(
            (status.as_u16(), body["workflow"]["is_paused"].as_bool()),
            (200, Some(true)),
            "{body}"
        );

        // Save: edit access; cycles and self-connections refused.
        let save = |body: Value| {
            let (app, id, token) = (&app, id.clone(), owner.token.clone());
            async move {
                app.post(&format!("/v2/workflows/save/{id}"), Some(&token), body)
                    .await
            }
        };
        let nodes = json!([
            node("1", "Extract", Some("etl.py")),
            node("2", "Load", Some("load.py")),
            node("3", "Later", None)
        ]);
        for edges in [json!([edge("1", "2"), edge("2", "1")]), json!([edge("1", "1")])] {
            let (status, body) = save(json!({"nodes": nodes, "edges": edges})).await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (400, Some("Cycles are not allowed"))
            );
        }
        let (status, body) = app
            .post(
                &format!("/v2/workflows/save/{id}"),
                Some(&runner.token),
                json!({"nodes": [], "edges": []}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need edit access"))
        );
        let (status, body) =
            save(json!({"nodes": nodes, "edges": [edge("1", "2")], "email_list": ["stranger@example.net"]}))
                .await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (400, Some("not_a_member")),
            "{body}"
        );
        let (status, body) = save(json!({"nodes": nodes, "edges": [edge("1", "2")], "email_on_success": true, "email_on_failure": true})).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Workflow Saved Successfully");
        assert_eq!(body["workflow"]["email_on"], "both");
        let (_, body) = app
            .get(&format!("/v2/workflows/visual/{id}"), &viewer.token)
            .await;
        assert_eq!(body["nodes"], nodes);
        assert_eq!(body["edges"], json!([edge("1", "2")]));

        // Publish: execute on the workflow and edit on the project; an unconfigured node is named.
        let publish = |token: String| {
            let (app, id) = (&app, id.clone());
            async move {
                app.post(
                    &format!("/v2/workflows/visual/publish/{id}"),
                    Some(&token),
                    json!({}),
                )
                .await
            }
        };
        let (status, body) = publish(viewer.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some(NEED_EXECUTE))
        );
        let (status, body) = publish(runner.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some(NEED_EXECUTE)),
            "no edit on the project"
        );
        let (status, body) = publish(owner.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("The task 'Later' is not configured"))
        );
        let (status, body) = app
            .post(
                &format!("/v2/workflows/publish/{id}"),
                Some(&owner.token),
                json!({"file_name": format!("{id}_dag.py"), "files": []}),
            )
            .await;
        assert_eq!(status, 400, "a visual workflow has no DAG file: {body}");
        let (status, body) = app
            .post(&format!("/v2/workflows/run/{id}"), Some(&owner.token), json!({}))
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (409, Some("Please publish or wait for workflow to be initialized"))
        );

        // The schedule: execute on the workflow and edit on the project; the row and the variable.
        let schedule = |token: String, value: &str| {
            let (app, id, body) = (&app, id.clone(), json!({"value": value, "project_id": project}));
            async move {
                app.post(&format!("/v2/workflows/schedule/{id}"), Some(&token), body)
                    .await
            }
        };
        let (status, body) = schedule(viewer.token.clone(), "0 6 * * *").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some(NEED_EXECUTE))
        );
        let (status, body) = schedule(runner.token.clone(), "0 6 * * *").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some(NEED_EXECUTE)),
            "no edit on the project"
        );
        app.share(&project, "user", &runner.uid, "edit", &owner.uid).await;
        for bad in ["0 6 * *", "@daily", "99 * * * *"] {
            let (status, body) = schedule(runner.token.clone(), bad).await;
            assert_eq!(status, 400, "{bad}: {body}");
        }
        let key = format!("LUDIS_WORKFLOW_SCHEDULE_{}", &id[..8]);
        for (value, stored) in [
            ("30 2 * * 1", "30 2 * * 1"),
            ("None", "None"),
            ("15 4 1 * *", "15 4 1 * *"),
        ] {
            let (status, body) = schedule(runner.token.clone(), value).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                (body["schedule"].as_str(), body["message"].as_str()),
                (Some(stored), Some("Updated Schedule Successfully"))
            );
            let vars = env_vars(&app, &project, &owner.token).await;
            assert_eq!(
                vars.iter().filter(|(k, _)| *k == key).collect::<Vec<_>>(),
                [&(key.clone(), stored.to_owned())]
            );
        }
        let (_, body) = app.get(&path, &viewer.token).await;
        assert_eq!(body["workflow"]["schedule"], "15 4 1 * *");

        // Share (edit) and who it is shared with (view).
        let (status, body) = app
            .post("/v2/workflows/share", Some(&runner.token),
                  json!({"share": {"entity_id": id, "shares": [{"share_type": "share", "email": viewer.email, "access_level": "edit", "to_entity_type": "User"}]}}))
            .await;
        assert_eq!(status, 403, "{body}");
        let (status, body) = app
            .get(&format!("/v2/workflows/share/list?id={id}"), &viewer.token)
            .await;
        assert_eq!(status, 200, "{body}");

        // Delete: edit access; then it is gone.
        let (status, body) = app
            .post(
                &format!("/v2/workflows/delete/{id}"),
                Some(&runner.token),
                json!({}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need edit access"))
        );
        let (status, body) = app
            .post(
                &format!("/v2/workflows/delete/{id}"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (200, Some("Workflow deleted successfully!"))
        );
        let (status, _) = app.get(&path, &owner.token).await;
        assert_eq!(status, 404);
    }
}

#[tokio::test]
async fn the_workflows_feature_gates_every_workflow_call() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Wf flags").await;
        let org = t.org.clone();
        let owner = app.person(&org, "developer", "Owner").await;
        let project = app.project(&owner, "Pipelines").await;
        let id = app.workflow(&owner, &project, "Nightly", true).await;
        let (status, body) = app
            .put(
                "/v1/flighting",
                &t.admin_token,
                json!({"flightings": [{"key": "workflows", "name": "Workflows", "active": true, "user_roles": ["administrator"]}]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        for path in [
            "/v2/workflows".to_owned(),
            format!("/v2/workflows/{id}"),
            format!("/v2/workflows/runs/{id}"),
        ] {
            let (status, body) = app.get(&path, &owner.token).await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (403, Some("The Workflows feature is not enabled for your role")),
                "{path}"
            );
        }
        let (status, _) = app
            .post(
                "/v1/applications/share",
                Some(&owner.token),
                json!({"share": {"entity_id": id, "entity_type": "Workflow", "shares": [
                    {"share_type": "share", "email": "x@example.com", "access_level": "view", "to_entity_type": "User"}]}}),
            )
            .await;
        assert_eq!(status, 403, "sharing checks the kind's feature too");
        assert_ne!(
            app.get(&format!("/v2/workflows/{id}"), &t.admin_token).await.0,
            403
        );
    }
}
