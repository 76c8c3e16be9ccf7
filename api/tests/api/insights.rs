//! Insights: every message of the contract, the list (filters, screens, sort, search, pages,
//! totals), view counting, addresses, update/delete rules, the run switch, pins, report import
//! (object storage when the test command provides it, else the 503 path) and flighting.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{InsightSeed, Part, Person, TestApp, apps, apps_with, s3_settings};
use ludis_api::db;
use ludis_api::domain::AssetKind;

/// An organization with its administrator and three developers.
struct World {
    org: String,
    admin: Person,
    ann: Person,
    bob: Person,
    cid: Person,
}

async fn world(app: &TestApp) -> World {
    let org = app.unique_org("Acme").await;
    World {
        admin: app.person(&org, "administrator", "Admin").await,
        ann: app.person(&org, "developer", "Ann").await,
        bob: app.person(&org, "developer", "Bob").await,
        cid: app.person(&org, "management", "Cid").await,
        org,
    }
}

fn msg(r: &(StatusCode, Value)) -> (u16, &str) {
    (r.0.as_u16(), r.1["message"].as_str().unwrap_or_default())
}

fn create_body(fields: Value) -> Value {
    let mut a = json!({"name": "Sales", "description": "Quarterly", "app_type": "application"});
    for (k, v) in fields.as_object().unwrap() {
        a[k] = v.clone();
    }
    json!({ "application": a })
}

#[tokio::test]
async fn creating_an_insight_checks_every_field() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        // Real projects: a publish names files of the project's repository.
        let project = app.project_with_files(&w.ann, "Proj", &["app.py", "r.Rmd"]).await;
        let bobs_project = app.project_with_files(&w.bob, "Bobs", &["app.py"]).await;
        app.share(&bobs_project, "user", &w.ann.uid, "view", &w.bob.uid)
            .await;
        let hidden_dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.bob.uid), "Hidden")
            .await;
        let cases = [
            (json!({"name": "  "}), 400, "Empty name not allowed"),
            (json!({"app_type": ""}), 400, "Empty form type not allowed"),
            (
                json!({"app_type": "user_report"}),
                400,
                "Import a report file with POST /v1/applications/importreport",
            ),
            (
                json!({"app_type": "notebook"}),
                400,
                "Unknown app type: notebook (application or report)",
            ),
            (
                json!({"app_url": "ftp://x.example"}),
                400,
                "Enter a valid URL (http:// or https://)",
            ),
            (
                json!({"app_type": "report", "app_url": "https://x.example"}),
                400,
                "Only an application can have a URL",
            ),
            (json!({}), 400, "A project must be selected"),
            (json!({"project_id": project}), 400, "A file must be selected"),
            (
                json!({"project_id": project, "publish_filenames": ["../etc/passwd"]}),
                400,
                "Files must be relative to the project root",
            ),
            (
                json!({"project_id": db::new_id(), "publish_filenames": ["app.py"]}),
                404,
                "Project not found",
            ),
            (
                json!({"project_id": project, "publish_filenames": ["missing.py"]}),
                400,
                "'missing.py' is not a file of the project",
            ),
            (
                json!({"project_id": bobs_project, "publish_filenames": ["app.py"]}),
                403,
                "You need edit access to this project",
            ),
            (
                json!({"project_id": project, "publish_filenames": ["app.py"], "dataset_ids": [hidden_dataset]}),
                404,
                "Dataset not found",
            ),
            (
                json!({"app_url": "https://x.example", "language": "cobol"}),
                400,
                "Language must be python or r",
            ),
            (
                json!({"app_url": "https://x.example", "img_path": "reports/x/secret.pdf"}),
                400,
                "Invalid image path",
            ),
        ];
        for (fields, status, message) in cases {
            let r = app
                .post(
                    "/v1/applications",
                    Some(&w.ann.token),
                    create_body(fields.clone()),
                )
                .await;
            assert_eq!(msg(&r), (status, message), "{k} {fields}");
            assert_eq!(r.1["success"], false);
        }
        // Nothing was created.
        let (_, list) = app.get("/v1/applications/insights", &w.ann.token).await;
        assert_eq!(list["total"], 0, "{k}");

        // An external application.
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&w.ann.token),
                create_body(json!({"app_url": "https://dash.example/x", "img_path": "/v1/images/defaults/insight-03.svg"})),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["message"], "App Created Successfully");
        let a = &b["application"];
        assert_eq!(a["status"], "external");
        assert_eq!(a["app_url"], "https://dash.example/x");
        assert_eq!(a["container_name"], Value::Null);
        assert_eq!(a["isLudis"], false);
        assert_eq!(a["img_path"], "/v1/images/defaults/insight-03.svg");
        assert_eq!(a["img_url"], "/v1/images/defaults/insight-03.svg");
        assert_eq!(a["access_level"], "edit");
        assert_eq!(a["is_owner"], true);
        assert_eq!(a["user_uid"], w.ann.uid.as_str());
        assert_eq!(a["user"]["last_name"], "developer");
        assert_eq!(a["userMetrics"], 0);
        assert_eq!(a["pinned"], false);
        assert_eq!(a["managed"], false);
        assert!(a["created_at"].as_i64().unwrap() > 1_700_000_000);

        // An application from a project: it starts, and runs under its resource's name.
        let visible_dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.ann.uid), "Mine")
            .await;
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&w.ann.token),
                create_body(
                    json!({"name": "Sales Dashboard", "project_id": project, "publish_filenames": ["app.py"],
                    "language": "R", "dataset_ids": [visible_dataset]}),
                ),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        let a = &b["application"];
        assert_eq!(a["status"], "starting");
        assert_eq!(a["language"], "r");
        assert_eq!(a["isLudis"], true);
        let container = a["container_name"].as_str().unwrap();
        let id = a["id"].as_str().unwrap();
        assert_eq!(container, format!("sales-dashboard-{}", &id[..8]), "{k}");
        let row = db::details::by_id::<db::insights::InsightRow>(&app.state.db, id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.details.project_id.as_deref(), Some(project.as_str()));
        assert_eq!(row.details.publish_filenames, ["app.py"]);
        assert_eq!(row.details.dataset_ids, std::slice::from_ref(&visible_dataset));
        assert_eq!(row.asset.organization_id, w.org);
        assert_eq!(row.asset.origin, "api");
        // Without a cluster the row has no resource; with one it is in the organization's namespace.
        match app.state.kube {
            None => assert_eq!(row.asset.namespace, None),
            Some(_) => assert!(row.asset.namespace.unwrap().starts_with("ludis-acme-")),
        }

        // A report renders.
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&w.ann.token),
                create_body(
                    json!({"app_type": "report", "project_id": project, "publish_filenames": ["r.Rmd"]}),
                ),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["application"]["status"], "rendering");
        assert_eq!(b["application"]["container_name"], Value::Null);

        // Creating is recorded.
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM activity WHERE entity_type = 'applications' AND action = 'created' AND user_uid = $1",
        )
        .bind(&w.ann.uid)
        .fetch_one(&app.state.db)
        .await
        .unwrap();
        assert_eq!(n, 3, "{k}");
    }
}

#[tokio::test]
async fn the_template_wizard_checks_its_steps() {
    for app in apps().await {
        let w = world(&app).await;
        let dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.ann.uid), "Sales data")
            .await;
        let hidden = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.bob.uid), "Hidden")
            .await;
        let body = |name: &str, datasets: Value, template: &str| json!({"application": {"name": name, "description": "d", "template": template, "dataset_ids": datasets}});
        for (req, status, message) in [
            (
                body("", json!([dataset]), "cluster"),
                400,
                "Empty App name not allowed",
            ),
            (
                body("Seg", json!([]), "cluster"),
                400,
                "Dataset must be selected!",
            ),
            (
                body("Seg", json!([""]), "cluster"),
                400,
                "Dataset must be selected!",
            ),
            (
                body("Seg", json!([dataset]), ""),
                400,
                "Template App Type must be selected!",
            ),
            (
                body("Seg", json!([dataset]), "forecast"),
                400,
                "Template App Type must be selected!",
            ),
            (body("Seg", json!([hidden]), "campaign"), 404, "Dataset not found"),
        ] {
            let r = app.post("/v2/applications/create", Some(&w.ann.token), req).await;
            assert_eq!(msg(&r), (status, message), "{}", app.kind);
        }
        let (s, b) = app
            .post(
                "/v2/applications/create",
                Some(&w.ann.token),
                body("Segments", json!([dataset]), "slice-and-dice"),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        assert_eq!(b["message"], "App Created Successfully");
        let a = &b["application"];
        assert_eq!(a["template"], "slice-and-dice");
        assert_eq!(a["is_template"], true);
        assert_eq!(a["app_type"], "application");
        assert_eq!(a["status"], "running");
        assert_eq!(a["container_name"], Value::Null);
        // A template app never has a resource (the console renders it).
        let row = db::details::by_id::<db::insights::InsightRow>(&app.state.db, a["id"].as_str().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.asset.namespace, None);
    }
}

#[tokio::test]
async fn importing_an_app_checks_every_field() {
    for app in apps().await {
        let w = world(&app).await;
        let body = |name: &str, description: &str, app_type: &str, url: &str| json!({"application": {"name": name, "description": description, "app_type": app_type, "app_url": url}});
        for (req, message) in [
            (
                body("", "d", "application", "https://x.example"),
                "Empty name not allowed",
            ),
            (
                body("n", " ", "application", "https://x.example"),
                "Empty description not allowed",
            ),
            (
                body("n", "d", "", "https://x.example"),
                "Empty form type not allowed",
            ),
            (body("n", "d", "application", ""), "Empty URL not allowed"),
            (
                body("n", "d", "application", "x.example"),
                "Enter a valid URL (http:// or https://)",
            ),
            (
                body("n", "d", "report", "https://x.example"),
                "Import a report file with POST /v1/applications/importreport",
            ),
        ] {
            let r = app
                .post("/v1/applications/importapp", Some(&w.ann.token), req)
                .await;
            assert_eq!(msg(&r), (400, message), "{}", app.kind);
        }
        let (s, b) = app
            .post(
                "/v1/applications/importapp",
                Some(&w.ann.token),
                body("Grafana", "Ops", "application", " https://grafana.example/d/1 "),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        assert_eq!(b["message"], "App Created Successfully");
        assert_eq!(b["application"]["status"], "external");
        assert_eq!(b["application"]["app_url"], "https://grafana.example/d/1");
        // Not JSON: the API's error body.
        let r = app
            .call(
                reqwest::Method::POST,
                "/v1/applications/importapp",
                Some(&w.ann.token),
                None,
            )
            .await;
        assert_eq!(r.0, 415);
    }
}

fn names(b: &Value) -> Vec<String> {
    b["applications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_list_filters_sorts_searches_and_pages() {
    for app in apps().await {
        let w = world(&app).await;
        let other_org = app.unique_org("Other").await;
        let zed = app.person(&other_org, "developer", "Zed").await;
        let k = app.kind;
        let t0 = db::now() - 1000;
        let ann = Some(w.ann.uid.as_str());
        let bob = Some(w.bob.uid.as_str());
        // Ann's own: an app, a report, an uploaded report and a template app.
        let a_app = app
            .insight(&w.org, ann, InsightSeed::app("Alpha").at(t0 + 1))
            .await;
        app.insight(&w.org, ann, InsightSeed::report("Bravo").at(t0 + 2))
            .await;
        app.insight(&w.org, ann, InsightSeed::user_report("charlie").at(t0 + 3))
            .await;
        let mut template = InsightSeed::app("Delta");
        template.template = Some("cluster".into());
        template.created_at = t0 + 4;
        app.insight(&w.org, ann, template).await;
        // Bob's: one shared with Ann, one with the organization, one not shared.
        let shared = app
            .insight(&w.org, bob, InsightSeed::external("Echo").at(t0 + 5))
            .await;
        app.share(&shared, "user", &w.ann.uid, "execute", &w.bob.uid)
            .await;
        let org_shared = app
            .insight(&w.org, bob, InsightSeed::report("Foxtrot").at(t0 + 6))
            .await;
        app.share(&org_shared, "organization", &w.org, "view", &w.bob.uid)
            .await;
        app.insight(&w.org, bob, InsightSeed::app("Golf hidden").at(t0 + 7))
            .await;
        // Another organization's, shared with Ann and her administrator personally by stale entries
        // and pinned by Ann: shares stay inside the asset's organization, so it is never shown.
        let foreign = app
            .insight(&other_org, Some(&zed.uid), InsightSeed::app("Hotel").at(t0 + 8))
            .await;
        app.share(&foreign, "user", &w.ann.uid, "view", &zed.uid).await;
        app.share(&foreign, "user", &w.admin.uid, "view", &zed.uid).await;
        sqlx::query("INSERT INTO pins (user_uid, asset_id, created_at) VALUES ($1, $2, $3)")
            .bind(&w.ann.uid)
            .bind(&foreign)
            .bind(t0)
            .execute(&app.state.db)
            .await
            .unwrap();
        // Unshared entries (level none) grant nothing.
        let revoked = app
            .insight(&w.org, bob, InsightSeed::app("India revoked").at(t0 + 9))
            .await;
        app.share(&revoked, "user", &w.ann.uid, "none", &w.bob.uid).await;
        // Ann pins two.
        for id in [&a_app, &shared] {
            let (s, _) = app
                .post(
                    "/v1/applications/pin",
                    Some(&w.ann.token),
                    json!({"app_pin": {"app_id": id, "user_id": w.ann.uid, "pinned": true}}),
                )
                .await;
            assert_eq!(s, 200);
        }

        let list = |q: &str| {
            let app = &app;
            let token = w.ann.token.clone();
            let q = q.to_owned();
            async move {
                let (s, b) = app.get(&format!("/v1/applications/insights{q}"), &token).await;
                assert_eq!(s, 200, "{q}: {b}");
                b
            }
        };
        let b = list("").await;
        assert_eq!(
            names(&b),
            ["Foxtrot", "Echo", "Delta", "charlie", "Bravo", "Alpha"],
            "{k}"
        );
        assert_eq!(
            (
                b["total"].as_i64(),
                b["page"].as_i64(),
                b["pageSize"].as_i64(),
                b["totalPages"].as_i64()
            ),
            (Some(6), Some(1), Some(12), Some(1))
        );
        let by_name: std::collections::HashMap<&str, &Value> = b["applications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["name"].as_str().unwrap(), a))
            .collect();
        assert_eq!(by_name["Echo"]["access_level"], "execute");
        assert_eq!(by_name["Echo"]["pinned"], true);
        assert_eq!(by_name["Echo"]["is_owner"], false);
        assert_eq!(by_name["Foxtrot"]["access_level"], "view");
        assert_eq!(by_name["Alpha"]["access_level"], "edit");
        assert_eq!(by_name["Alpha"]["description"], "Alpha description");

        for (q, want) in [
            ("?filter=owned", vec!["Delta", "charlie", "Bravo", "Alpha"]),
            ("?filter=shared", vec!["Foxtrot", "Echo"]),
            ("?filter=starred", vec!["Echo", "Alpha"]),
            ("?filter=template", vec!["Delta"]),
            ("?screen=Reports", vec!["Foxtrot", "charlie", "Bravo"]),
            ("?screen=Applications", vec!["Echo", "Delta", "Alpha"]),
            (
                "?screen=Dashboard&filter=owned&sortOperator=ASC",
                vec!["Alpha", "Bravo", "charlie", "Delta"],
            ),
            ("?screen=Reports&filter=owned", vec!["charlie", "Bravo"]),
            (
                "?sortBy=name&sortOperator=ASC",
                vec!["Alpha", "Bravo", "charlie", "Delta", "Echo", "Foxtrot"],
            ),
            (
                "?sortBy=name&sortOperator=desc&filter=shared",
                vec!["Foxtrot", "Echo"],
            ),
            ("?search=CHAR", vec!["charlie"]),
            ("?search=o%20desc", vec!["Echo", "Bravo"]),
            ("?search=hidden", vec![]),
            ("?search=%25", vec![]),
        ] {
            assert_eq!(names(&list(q).await), want, "{k} {q}");
        }
        // Pages.
        let b = list("?pageSize=4&page=2&sortBy=name&sortOperator=ASC").await;
        assert_eq!(names(&b), ["Echo", "Foxtrot"]);
        assert_eq!(
            (b["total"].as_i64(), b["totalPages"].as_i64()),
            (Some(6), Some(2))
        );
        let b = list("?pageSize=3&page=9").await;
        assert_eq!((names(&b).len(), b["total"].as_i64()), (0, Some(6)));
        let b = list("?pageSize=1000").await;
        assert_eq!(b["pageSize"], 100);
        // Updated last comes first by updated_at.
        sqlx::query("UPDATE assets SET updated_at = $1 WHERE id = $2")
            .bind(db::now() + 10)
            .bind(&a_app)
            .execute(&app.state.db)
            .await
            .unwrap();
        assert_eq!(names(&list("?sortBy=updated_at&pageSize=1").await), ["Alpha"]);
        // Bad values are refused.
        for (q, message) in [
            (
                "?filter=mine",
                "Unknown filter: mine (all, starred, owned, shared or template)",
            ),
            (
                "?sortBy=views",
                "Unknown sort field: views (created_at, updated_at or name)",
            ),
            ("?sortOperator=UP", "Unknown sort operator: UP (ASC or DESC)"),
            (
                "?screen=Home",
                "Unknown screen: Home (Dashboard, Reports or Applications)",
            ),
        ] {
            let r = app
                .get(&format!("/v1/applications/insights{q}"), &w.ann.token)
                .await;
            assert_eq!(msg(&r), (400, message), "{k}");
        }
        // Other callers: the administrator sees every insight of the organization, the other
        // organization's user only their own, a superadmin everything.
        let (_, b) = app.get("/v1/applications/insights", &w.admin.token).await;
        assert_eq!(b["total"], 8, "{k}");
        let (_, b) = app.get("/v1/applications/insights", &zed.token).await;
        assert_eq!(names(&b), ["Hotel"], "{k}");
        let (_, b) = app.get("/v1/applications/insights", &w.cid.token).await;
        assert_eq!(names(&b), ["Foxtrot"], "{k}");
        let root = app.person(&other_org, "superadmin", "Root").await;
        let (_, b) = app
            .get("/v1/applications/insights?pageSize=100", &root.token)
            .await;
        assert_eq!(b["total"], 9, "{k}");
    }
}

#[tokio::test]
async fn getting_an_insight_counts_a_view_once_per_ten_minutes() {
    for app in apps_with(|s| s.apps_origin = "https://*.apps.ludis.example".parse().unwrap()).await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Counted"))
            .await;
        app.share(&id, "user", &w.bob.uid, "view", &w.ann.uid).await;
        let views = |token: String| {
            let app = &app;
            let id = id.clone();
            async move {
                let (s, b) = app.get(&format!("/v1/applications/{id}"), &token).await;
                assert_eq!(s, 200, "{b}");
                b["application"]["userMetrics"].as_i64().unwrap()
            }
        };
        assert_eq!(views(w.ann.token.clone()).await, 1, "{k}");
        assert_eq!(views(w.ann.token.clone()).await, 1, "{k}");
        assert_eq!(views(w.bob.token.clone()).await, 2, "{k}");
        // Ten minutes later Ann counts again.
        sqlx::query("UPDATE asset_views SET last_at = last_at - 601 WHERE user_uid = $1")
            .bind(&w.ann.uid)
            .execute(&app.state.db)
            .await
            .unwrap();
        assert_eq!(views(w.ann.token.clone()).await, 3, "{k}");
        assert_eq!(views(w.bob.token.clone()).await, 3, "{k}");
        // The list shows the count.
        let (_, b) = app.get("/v1/applications/insights", &w.ann.token).await;
        assert_eq!(b["applications"][0]["userMetrics"], 3);

        // Where it opens: a running app through the proxy on its own origin with a ticket, an
        // external app at its URL, anything else nowhere.
        let (_, b) = app.get(&format!("/v1/applications/{id}"), &w.bob.token).await;
        let open = b["open_url"].as_str().unwrap();
        assert!(
            open.starts_with(&format!("https://{id}.apps.ludis.example/?ticket=")),
            "{open}"
        );
        assert_eq!(b["open_error"], Value::Null);
        assert_eq!(b["report_url"], Value::Null);
        assert_eq!(b["application"]["access_level"], "view");
        let ext = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::external("Ext"))
            .await;
        let (_, b) = app.get(&format!("/v1/applications/{ext}"), &w.ann.token).await;
        assert_eq!(b["open_url"], "https://example.com/app");
        let mut stopped = InsightSeed::app("Stopped");
        stopped.status = "stopped".parse().unwrap();
        let stopped = app.insight(&w.org, Some(&w.ann.uid), stopped).await;
        let (_, b) = app
            .get(&format!("/v1/applications/{stopped}"), &w.ann.token)
            .await;
        assert_eq!(b["open_url"], Value::Null);
        // No access, or no such insight: the same 404.
        for path in [
            format!("/v1/applications/{id}"),
            format!("/v1/applications/{}", db::new_id()),
        ] {
            let r = app.get(&path, &w.cid.token).await;
            assert_eq!(msg(&r), (404, "Application not found"), "{k}");
            assert_eq!(r.1["code"], "application_not_found");
        }
        // Another kind's id is not an insight.
        let project = app
            .asset(AssetKind::ProjectV2, &w.org, Some(&w.ann.uid), "P")
            .await;
        let r = app
            .get(&format!("/v1/applications/{project}"), &w.ann.token)
            .await;
        assert_eq!(r.0, 404);
    }
}

#[tokio::test]
async fn updating_an_insight() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let ext = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::external("Ext"))
            .await;
        let running = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Run"))
            .await;
        app.share(&ext, "user", &w.bob.uid, "execute", &w.ann.uid).await;
        app.share(&ext, "user", &w.cid.uid, "edit", &w.ann.uid).await;
        let put = |id: &str, token: &str, entity: Value| {
            let app = &app;
            let path = format!("/v1/applications/{id}");
            let token = token.to_owned();
            async move { app.put(&path, &token, json!({ "entity": entity })).await }
        };
        for (id, entity, status, message) in [
            (&ext, json!({"name": " "}), 400, "Empty name not allowed"),
            (&ext, json!({"app_url": ""}), 400, "Empty URL not allowed"),
            (
                &ext,
                json!({"app_url": "nope"}),
                400,
                "Enter a valid URL (http:// or https://)",
            ),
            (
                &running,
                json!({"app_url": "https://x.example"}),
                400,
                "Only an external application's URL can be changed",
            ),
            (
                &ext,
                json!({"img_path": "user asset images/someone/x.png"}),
                400,
                "Invalid image path",
            ),
        ] {
            let r = put(id, &w.ann.token, entity).await;
            assert_eq!(msg(&r), (status, message), "{k}");
        }
        let r = put(&ext, &w.bob.token, json!({"name": "x"})).await;
        assert_eq!(msg(&r), (403, "You need edit access to this application"), "{k}");
        let r = put(&running, &w.bob.token, json!({"name": "x"})).await;
        assert_eq!(r.0, 404, "{k}");
        // An editor changes name, description, URL and image (an image they uploaded).
        let image = format!("user asset images/{}/pic.png", w.cid.uid);
        let (s, b) = put(
            &ext,
            &w.cid.token,
            json!({"name": " Renamed ", "description": "New", "app_url": "https://new.example", "img_path": image}),
        )
        .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["message"], "Application updated!");
        let a = &b["application"];
        assert_eq!(
            (&a["name"], &a["description"], &a["app_url"], &a["img_path"]),
            (
                &json!("Renamed"),
                &json!("New"),
                &json!("https://new.example"),
                &json!(image)
            )
        );
        assert_eq!(a["access_level"], "edit");
        assert_eq!(a["is_owner"], false);
        // Without object storage an uploaded image has no address; a default image is its own.
        if app.state.s3.is_none() {
            assert_eq!(a["img_url"], Value::Null);
        }
        // Absent fields stay; an empty image removes it; search follows the new name.
        let (s, b) = put(&ext, &w.ann.token, json!({"img_path": ""})).await;
        assert_eq!(s, 200);
        assert_eq!(b["application"]["name"], "Renamed");
        assert_eq!(b["application"]["img_path"], Value::Null);
        let (_, b) = app
            .get("/v1/applications/insights?search=renamed", &w.ann.token)
            .await;
        assert_eq!(b["total"], 1, "{k}");
        // An insight managed by its resource is changed there.
        let managed = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Git").managed())
            .await;
        let r = put(&managed, &w.ann.token, json!({"name": "x"})).await;
        assert_eq!(
            msg(&r),
            (
                409,
                "This application is managed by its resource (kubectl or GitOps); change or delete it there"
            ),
            "{k}"
        );
        let r = app
            .delete(&format!("/v1/applications/{managed}"), &w.ann.token)
            .await;
        assert_eq!(r.0, 409, "{k}");
        let (_, b) = app
            .get(&format!("/v1/applications/{managed}"), &w.ann.token)
            .await;
        assert_eq!(b["application"]["managed"], true);
    }
}

#[tokio::test]
async fn deleting_an_insight_unpins_it_and_removes_what_belongs_to_it() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Doomed"))
            .await;
        app.share(&id, "user", &w.bob.uid, "view", &w.ann.uid).await;
        app.share(&id, "user", &w.cid.uid, "execute", &w.ann.uid).await;
        for p in [&w.ann, &w.bob] {
            let (s, _) = app
                .post(
                    "/v1/applications/pin",
                    Some(&p.token),
                    json!({"app_pin": {"app_id": id, "pinned": true}}),
                )
                .await;
            assert_eq!(s, 200);
        }
        let (s, _) = app
            .post(
                "/v1/comment/createComment",
                Some(&w.bob.token),
                json!({"comment": {"content": "nice", "reference_id": id}}),
            )
            .await;
        assert_eq!(s, 201);
        // Viewers and executors may not delete.
        for p in [&w.bob, &w.cid] {
            let r = app.delete(&format!("/v1/applications/{id}"), &p.token).await;
            assert_eq!(msg(&r), (403, "You need edit access to this application"), "{k}");
        }
        let r = app.delete(&format!("/v1/applications/{id}"), &w.ann.token).await;
        assert_eq!(msg(&r), (200, "App Deleted!"), "{k}");
        for p in [&w.ann, &w.bob] {
            let (_, b) = app.get("/v1/applications/pin/list", &p.token).await;
            assert_eq!(b["applications"], json!([]), "{k}");
            let r = app.get(&format!("/v1/applications/{id}"), &p.token).await;
            assert_eq!(r.0, 404);
        }
        for table in ["pins", "shares", "comments", "asset_views", "insights"] {
            let col = if table == "insights" { "id" } else { "asset_id" };
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "SELECT COUNT(*) FROM {table} WHERE {col} = $1"
            )))
            .bind(&id)
            .fetch_one(&app.state.db)
            .await
            .unwrap();
            assert_eq!(n, 0, "{k} {table}");
        }
        let r = app.delete(&format!("/v1/applications/{id}"), &w.ann.token).await;
        assert_eq!(r.0, 404);
    }
}

#[tokio::test]
async fn the_run_switch_needs_execute_and_a_cluster_application() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let owner = Some(w.ann.uid.as_str());
        let run = app.insight(&w.org, owner, InsightSeed::app("Run")).await;
        let ext = app.insight(&w.org, owner, InsightSeed::external("Ext")).await;
        let report = app.insight(&w.org, owner, InsightSeed::report("Rep")).await;
        let upload = app.insight(&w.org, owner, InsightSeed::user_report("Up")).await;
        for id in [&run, &ext, &report, &upload] {
            app.share(id, "user", &w.bob.uid, "view", &w.ann.uid).await;
            app.share(id, "user", &w.cid.uid, "execute", &w.ann.uid).await;
        }
        let switch = |path: &'static str, id: &str, token: &str| {
            let app = &app;
            let body = json!({"application_id": id, "publish_filenames": []});
            let token = token.to_owned();
            async move { app.post(path, Some(&token), body).await }
        };
        for path in ["/v1/applications/stop", "/v1/applications/restart"] {
            let r = switch(path, &ext, &w.cid.token).await;
            assert_eq!(
                msg(&r),
                (400, "An external application cannot be stopped or restarted"),
                "{k}"
            );
            for id in [&report, &upload] {
                let r = switch(path, id, &w.cid.token).await;
                assert_eq!(
                    msg(&r),
                    (400, "Only applications can be stopped or restarted"),
                    "{k}"
                );
            }
            let r = switch(path, &run, &w.bob.token).await;
            assert_eq!(
                msg(&r),
                (403, "You need execute or edit access to this application"),
                "{k}"
            );
            let r = switch(path, &run, &w.admin.token).await;
            assert_eq!(r.0, 200, "the organization's administrator: {k}");
            let r = switch(path, "", &w.cid.token).await;
            assert_eq!(msg(&r), (400, "application_id is required"));
        }
        let r = switch("/v1/applications/stop", &run, &w.cid.token).await;
        assert_eq!(msg(&r), (200, "Application stopped"), "{k}");
        assert_eq!(r.1["application"]["status"], "stopped");
        assert_eq!(r.1["application"]["access_level"], "execute");
        let (_, b) = app.get(&format!("/v1/applications/{run}"), &w.cid.token).await;
        assert_eq!(b["application"]["status"], "stopped");
        assert_eq!(b["open_url"], Value::Null);
        let r = switch("/v1/applications/restart", &run, &w.cid.token).await;
        assert_eq!(msg(&r), (200, "Application restarted"), "{k}");
        assert_eq!(r.1["application"]["status"], "starting");

        // Redeploy: cluster applications and reports.
        let redeploy = |id: &str, token: &str| {
            let app = &app;
            let path = format!("/v2/applications/redeploy/{id}");
            let token = token.to_owned();
            async move { app.call(reqwest::Method::POST, &path, Some(&token), None).await }
        };
        for id in [&ext, &upload] {
            let r = redeploy(id, &w.cid.token).await;
            assert_eq!(
                msg(&r),
                (
                    400,
                    "Only applications and reports that run in the cluster can be redeployed"
                ),
                "{k}"
            );
        }
        let r = redeploy(&run, &w.bob.token).await;
        assert_eq!(r.0, 403);
        let r = redeploy(&run, &w.cid.token).await;
        assert_eq!(msg(&r), (200, "Application redeployed"), "{k}");
        assert_eq!(r.1["application"]["status"], "starting");
        let r = redeploy(&report, &w.cid.token).await;
        assert_eq!(msg(&r), (200, "Application redeployed"), "{k}");
        assert_eq!(r.1["application"]["status"], "rendering");
        let r = redeploy(&db::new_id(), &w.cid.token).await;
        assert_eq!(r.0, 404);
    }
}

#[tokio::test]
async fn pins_are_personal_and_show_only_what_the_caller_still_sees() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let t0 = db::now() - 100;
        let mine = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Mine").at(t0))
            .await;
        let bobs = app
            .insight(&w.org, Some(&w.bob.uid), InsightSeed::app("Bobs").at(t0))
            .await;
        let hidden = app
            .insight(&w.org, Some(&w.bob.uid), InsightSeed::app("Hidden").at(t0))
            .await;
        app.share(&bobs, "user", &w.ann.uid, "view", &w.bob.uid).await;
        let pin = |id: &str, user: Value, pinned: bool| {
            let app = &app;
            let body = json!({"app_pin": {"app_id": id, "user_id": user, "pinned": pinned}});
            let token = w.ann.token.clone();
            async move { app.post("/v1/applications/pin", Some(&token), body).await }
        };
        let r = pin(&mine, json!(w.bob.uid), true).await;
        assert_eq!(
            msg(&r),
            (403, "Pins are personal: you can only pin for yourself"),
            "{k}"
        );
        let r = pin(&hidden, json!(w.ann.uid), true).await;
        assert_eq!(r.0, 404);
        let r = pin("", Value::Null, true).await;
        assert_eq!(msg(&r), (400, "app_id is required"));
        let (s, b) = pin(&mine, json!(w.ann.uid), true).await;
        assert_eq!(s, 200);
        assert_eq!(
            b["applicationPinInfo"],
            json!({"app_id": mine, "user_id": w.ann.uid, "pinned": true})
        );
        // Pinning twice is fine; the newest pin comes first.
        pin(&mine, Value::Null, true).await;
        sqlx::query("UPDATE pins SET created_at = created_at - 10")
            .execute(&app.state.db)
            .await
            .unwrap();
        let (s, _) = pin(&bobs, Value::Null, true).await;
        assert_eq!(s, 200);
        let (_, b) = app.get("/v1/applications/pin/list", &w.ann.token).await;
        assert_eq!(names(&b), ["Bobs", "Mine"], "{k}");
        assert!(
            b["applications"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["pinned"] == true)
        );
        // Bob's pins are his own.
        let (_, b) = app.get("/v1/applications/pin/list", &w.bob.token).await;
        assert_eq!(names(&b), Vec::<String>::new());
        // Once Bob revokes the share, the pin no longer shows.
        app.share(&bobs, "user", &w.ann.uid, "none", &w.bob.uid).await;
        let (_, b) = app.get("/v1/applications/pin/list", &w.ann.token).await;
        assert_eq!(names(&b), ["Mine"], "{k}");
        let (_, b) = app
            .get("/v1/applications/insights?filter=starred", &w.ann.token)
            .await;
        assert_eq!(names(&b), ["Mine"], "{k}");
        // Unpin.
        let (s, b) = pin(&mine, Value::Null, false).await;
        assert_eq!(
            (s.as_u16(), &b["applicationPinInfo"]["pinned"]),
            (200, &json!(false))
        );
        let (_, b) = app.get("/v1/applications/pin/list", &w.ann.token).await;
        assert_eq!(b["applications"], json!([]));
    }
}

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

async fn import_report_messages(app: &TestApp, token: &str) {
    let k = app.kind;
    let cases: [(&[Part<'_>], &str); 5] = [
        (
            &[
                ("name", None, b""),
                ("description", None, b"d"),
                ("file", Some("r.pdf"), PDF),
            ],
            "Empty name not allowed",
        ),
        (
            &[
                ("name", None, b"n"),
                ("description", None, b" "),
                ("file", Some("r.pdf"), PDF),
            ],
            "Empty description not allowed",
        ),
        (
            &[("name", None, b"n"), ("description", None, b"d")],
            "Attach a file",
        ),
        (
            &[
                ("name", None, b"n"),
                ("description", None, b"d"),
                ("file", Some("r.pdf"), b""),
            ],
            "Attach a file",
        ),
        (
            &[
                ("name", None, b"n"),
                ("description", None, b"d"),
                ("file", Some("r.pdf"), b"<html>not a pdf"),
            ],
            "Only PDF files can be imported",
        ),
    ];
    for (parts, message) in cases {
        let r = app.post_form("/v1/applications/importreport", token, parts).await;
        assert_eq!(msg(&r), (400, message), "{k}");
    }
    // Not a form.
    let r = app
        .post("/v1/applications/importreport", Some(token), json!({"name": "n"}))
        .await;
    assert_eq!(r.0, 400, "{k}");
    assert!(
        r.1["message"]
            .as_str()
            .unwrap()
            .starts_with("Expected a multipart/form-data body")
    );
}

#[tokio::test]
async fn importing_a_report_without_object_storage_is_refused_clearly() {
    for app in apps().await {
        let w = world(&app).await;
        import_report_messages(&app, &w.ann.token).await;
        let parts: &[Part<'_>] = &[
            ("name", None, b"Q3"),
            ("description", None, b"Quarter"),
            ("file", Some("q3.pdf"), PDF),
        ];
        let r = app
            .post_form("/v1/applications/importreport", &w.ann.token, parts)
            .await;
        assert_eq!(msg(&r), (503, "Object storage is not configured"), "{}", app.kind);
        let (_, b) = app.get("/v1/applications/insights", &w.ann.token).await;
        assert_eq!(b["total"], 0);
    }
}

#[tokio::test]
async fn an_imported_report_is_stored_and_read_through_a_presigned_url() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        let w = world(&app).await;
        let k = app.kind;
        import_report_messages(&app, &w.ann.token).await;
        let parts: &[Part<'_>] = &[
            ("name", None, b"Q3 report"),
            ("description", None, b"Quarter"),
            ("img_path", None, b"/v1/images/defaults/insight-02.svg"),
            ("file", Some("Q3 report.pdf"), PDF),
        ];
        let (s, b) = app
            .post_form("/v1/applications/importreport", &w.ann.token, parts)
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["message"], "Report has successfully imported.");
        let a = &b["application"];
        assert_eq!(
            (&a["app_type"], &a["status"], &a["container_name"]),
            (&json!("user_report"), &json!("uploaded"), &Value::Null)
        );
        let id = a["id"].as_str().unwrap().to_owned();
        let row = db::details::by_id::<db::insights::InsightRow>(&app.state.db, &id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            row.details.report_object.as_deref(),
            Some(format!("reports/{id}/Q3_report.pdf").as_str())
        );
        // Viewers read it through a presigned GET bound to that key.
        app.share(&id, "user", &w.bob.uid, "view", &w.ann.uid).await;
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &w.bob.token).await;
        assert_eq!(s, 200);
        let url = b["report_url"].as_str().expect("a report URL");
        let got = app.http.get(url).send().await.unwrap();
        assert!(got.status().is_success(), "{k}: GET report {}", got.status());
        assert_eq!(got.bytes().await.unwrap().as_ref(), PDF);
        assert!(
            !app.http
                .put(url)
                .body("x")
                .send()
                .await
                .unwrap()
                .status()
                .is_success()
        );
        assert_eq!(b["open_url"], Value::Null);
        // More than 50 MiB is refused before anything is stored.
        let mut big = PDF.to_vec();
        big.resize(50 * 1024 * 1024 + 1, b' ');
        let parts: &[Part<'_>] = &[
            ("name", None, b"Big"),
            ("description", None, b"d"),
            ("file", Some("big.pdf"), &big),
        ];
        let r = app
            .post_form("/v1/applications/importreport", &w.ann.token, parts)
            .await;
        assert_eq!(msg(&r), (413, "The file is too large (limit 50 MiB)"), "{k}");
        // Deleting the report removes its file.
        let r = app.delete(&format!("/v1/applications/{id}"), &w.ann.token).await;
        assert_eq!(r.0, 200);
        let gone = app
            .state
            .s3
            .as_ref()
            .unwrap()
            .get_object()
            .bucket(&app.state.settings.s3_bucket)
            .key(format!("reports/{id}/Q3_report.pdf"))
            .send()
            .await;
        assert!(gone.is_err(), "{k}: the file is removed");
    }
}

#[tokio::test]
async fn flighting_gates_the_insights_routes_but_not_sharing_of_other_kinds_or_comments() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Gated"))
            .await;
        let project = app.asset(AssetKind::Project, &w.org, Some(&w.ann.uid), "P").await;
        let mut flags = ludis_api::policy::flags::defaults();
        for f in &mut flags {
            if f.key == "insights" {
                f.user_roles = vec!["administrator".parse().unwrap()];
            }
        }
        db::flighting::upsert_all(&app.state.db, &w.org, &flags)
            .await
            .unwrap();
        let off = (403, "The Insights feature is not enabled for your role");
        let r = app.get("/v1/applications/insights", &w.ann.token).await;
        assert_eq!(msg(&r), off, "{k}");
        let r = app.get(&format!("/v1/applications/{id}"), &w.ann.token).await;
        assert_eq!(msg(&r), off, "{k}");
        let share = |entity_type: &str, entity_id: &str| {
            json!({"share": {"entity_id": entity_id, "entity_type": entity_type,
                "shares": [{"share_type": "share", "email": w.bob.email, "access_level": "view", "to_entity_type": "User"}]}})
        };
        let r = app
            .post(
                "/v1/applications/share",
                Some(&w.ann.token),
                share("Application", &id),
            )
            .await;
        assert_eq!(msg(&r), off, "{k}");
        let r = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &w.ann.token,
            )
            .await;
        assert_eq!(msg(&r), off, "{k}");
        // Projects are still on: sharing one works through the same route.
        let r = app
            .post(
                "/v1/applications/share",
                Some(&w.ann.token),
                share("Project", &project),
            )
            .await;
        assert_eq!(msg(&r), (200, "Project shared!"), "{k}");
        // Comments are not gated; the administrator still has insights.
        let (s, _) = app
            .post(
                "/v1/comment/list",
                Some(&w.ann.token),
                json!({"comments": {"reference_id": id}}),
            )
            .await;
        assert_eq!(s, 200);
        let (s, _) = app.get("/v1/applications/insights", &w.admin.token).await;
        assert_eq!(s, 200);
    }
}
