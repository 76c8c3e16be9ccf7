//! The admin portal's figures: each counted once, over the same period and organizations, so the
//! tiles, the Logins chart and the activity log never contradict each other.

use serde_json::{Value, json};

use crate::{
    admin::{org_body, superadmin},
    helpers::{TestApp, apps},
};

/// The overview's figures by name, as `figures` sends them (each with a label and definition).
fn figures(b: &Value) -> Vec<(String, i64)> {
    b["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            assert!(
                !f["label"].as_str().unwrap().is_empty() && !f["definition"].as_str().unwrap().is_empty()
            );
            (
                f["figure"].as_str().unwrap().to_owned(),
                f["value"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn figure(b: &Value, name: &str) -> i64 {
    let value = b["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["figure"] == name)
        .unwrap_or_else(|| panic!("no figure {name}: {b}"))["value"]
        .as_i64()
        .unwrap();
    assert_eq!(b["metrics"][name], value, "{name}: the figure is the metric");
    value
}

/// A member of a new organization who signs in `times` times; returns (organization, uid).
async fn signed_in(app: &TestApp, org_name: &str, times: usize) -> (String, String) {
    let org = app.org(org_name, 10).await;
    let email = format!("member@{}.example", org_name.to_lowercase().replace(' ', ""));
    let uid = app.user(&email, "member-pass", "developer", &org).await;
    for _ in 0..times {
        app.login(&email, "member-pass").await;
    }
    (org, uid)
}

/// The chart's series as (name, kind, sign-ins), and checks that its points add up to its total.
fn chart(b: &Value) -> Vec<(String, String, i64)> {
    let total = b["total"].as_i64().unwrap();
    let points: i64 = b["logins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["logins"].as_i64().unwrap())
        .sum();
    let series: Vec<(String, String, i64)> = b["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["kind"].as_str().unwrap().to_owned(),
                s["logins"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(points, total, "the points add up to the total: {b}");
    assert_eq!(
        series.iter().map(|s| s.2).sum::<i64>(),
        total,
        "so do the series: {b}"
    );
    assert!(
        b["logins"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["orgName"] != "(deleted)"),
        "no raw '(deleted)' series: {b}"
    );
    series
}

#[tokio::test]
async fn the_tiles_and_the_logins_chart_count_the_same_sign_ins_of_the_same_organizations() {
    for app in apps().await {
        let k = app.kind;
        // Acme: admin, dev and the superadmin sign in.
        let t = app.org_with_admin_and_dev("Acme").await;
        let root = superadmin(&app, &t.org).await;
        let (_, before) = app.get("/v1/metrics?period=day", &root).await;

        // An organization made now through the API, whose member signs in at once: counted at once.
        let (s, b) = app
            .post("/v1/organizations", Some(&root), org_body("Newco"))
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        let newco = b["organization"]["id"].as_str().unwrap().to_owned();
        app.user("ann@newco.example", "ann-pass", "developer", &newco)
            .await;
        app.login("ann@newco.example", "ann-pass").await;
        // Five organizations busier than Newco, so it is not among the busiest five.
        for n in 0..5 {
            signed_in(&app, &format!("Busy {n}"), 2).await;
        }
        // An organization whose member signed in, then was deleted with the organization.
        let (gone, gil) = signed_in(&app, "Gone", 1).await;
        assert_eq!(app.delete(&format!("/v1/users/{gil}"), &root).await.0, 200);
        assert_eq!(
            app.delete(&format!("/v1/organizations/{gone}"), &root).await.0,
            200,
            "{k}"
        );
        // A member of Acme who signed in and has been deleted since.
        assert_eq!(
            app.delete(&format!("/v1/users/{}", t.dev), &t.admin_token)
                .await
                .0,
            200
        );

        // Acme's administrator: the people who signed in and still exist are among its users.
        let (s, b) = app.get("/v1/metrics?period=day", &t.admin_token).await;
        assert_eq!(s, 200, "{k}: {b}");
        let m = &b["metrics"];
        assert!(m["activeUsers"].as_i64() <= m["totalUsers"].as_i64(), "{k}: {m}");
        assert_eq!(
            figures(&b),
            [
                ("logins".to_owned(), 3),
                ("failedLogins".to_owned(), 0),
                ("activeUsers".to_owned(), 2),
                ("totalUsers".to_owned(), 2),
                ("activities".to_owned(), 1),
            ],
            "{k}: one organization has no Organizations figure: {b}"
        );
        let (_, c) = app.get("/v1/metrics/numLogins?period=day", &t.admin_token).await;
        assert_eq!(
            chart(&c),
            [("Acme".to_owned(), "organization".to_owned(), 3)],
            "{k}"
        );
        assert_eq!(c["total"], figure(&b, "logins"));
        assert_eq!(
            c["definition"], b["figures"][0]["definition"],
            "the chart says what the tile says"
        );

        // The superadmin, across every organization.
        let (_, b) = app.get("/v1/metrics?period=day", &root).await;
        assert_eq!(
            figure(&b, "organizations"),
            figure(&before, "organizations") + 6,
            "{k}: Newco and the five busy ones, not Gone"
        );
        assert!(figure(&b, "activeUsers") <= figure(&b, "totalUsers"), "{k}: {b}");
        assert_eq!(
            figure(&b, "activeUsers"),
            2 + 1 + 5,
            "{k}: Acme's two, Ann, the busy members"
        );
        assert_eq!(
            figure(&b, "logins"),
            3 + 1 + 10 + 1,
            "{k}: every sign-in, Gone's included"
        );
        let (_, c) = app.get("/v1/metrics/numLogins?period=day&limit=5", &root).await;
        let series = chart(&c);
        assert_eq!(
            c["total"],
            figure(&b, "logins"),
            "{k}: the tile is the chart's total"
        );
        let names: Vec<(&str, &str, i64)> = series
            .iter()
            .map(|(n, kind, l)| (n.as_str(), kind.as_str(), *l))
            .collect();
        assert_eq!(
            names,
            [
                ("Acme", "organization", 3),
                ("Busy 0", "organization", 2),
                ("Busy 1", "organization", 2),
                ("Busy 2", "organization", 2),
                ("Busy 3", "organization", 2),
                ("Other organizations", "other", 3),
                ("Deleted organizations", "deleted", 1),
            ],
            "{k}: {c}"
        );
        assert_eq!(
            c["series"][5]["organizations"],
            json!(["Busy 4", "Newco"]),
            "{k}: Newco is in the chart, among the others"
        );
        // With room for every organization, Newco is a series of its own.
        let (_, c) = app.get("/v1/metrics/numLogins?period=day&limit=100", &root).await;
        assert!(
            chart(&c).contains(&("Newco".to_owned(), "organization".to_owned(), 1)),
            "{k}: {c}"
        );

        // The organization cards' 'Active users' says what it counts.
        let (_, b) = app.get("/v1/organizations/activeUserCounts", &root).await;
        assert!(b["definition"].as_str().unwrap().contains("seats"), "{k}: {b}");
    }
}

/// A row of the activity log as (kind, name, action).
fn rows(b: &Value) -> Vec<(String, String, String)> {
    b["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("rows: {b}"))
        .iter()
        .map(|r| {
            assert!(!r["entity_id"].as_str().unwrap().is_empty(), "{r}");
            let s = |f: &str| r[f].as_str().unwrap().to_owned();
            (s("entity_type"), s("entity_name"), s("action"))
        })
        .collect()
}

fn row(kind: &str, name: &str, action: &str) -> (String, String, String) {
    (kind.into(), name.into(), action.into())
}

#[tokio::test]
async fn activities_say_what_was_acted_on_by_kind_and_the_name_it_had() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let beta = app.org_with_admin_and_dev("Beta").await;
        let root = superadmin(&app, &t.org).await;
        // An insight created, renamed and deleted: each entry keeps the name it had.
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&t.admin_token),
                json!({"application": {"name": "Q3 sales", "description": "Quarterly", "app_type": "application",
                    "app_url": "https://dash.example/q3"}}),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        let id = b["application"]["id"].as_str().unwrap().to_owned();
        let path = format!("/v1/applications/{id}");
        let (s, b) = app
            .put(
                &path,
                &t.admin_token,
                json!({"entity": {"name": "Q3 sales (final)"}}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(app.delete(&path, &t.admin_token).await.0, 200, "{k}");
        // Flighting changed: named by its organization.
        let (s, b) = app
            .put(
                &format!("/v1/flighting?organization={}", t.org),
                &root,
                json!({"flightings": [{"key": "workflows", "name": "Workflows", "active": true, "user_roles": ["developer"]}]}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        // Something in Beta, which Acme's administrator never sees.
        let (s, _) = app
            .post(
                "/v1/users",
                Some(&beta.admin_token),
                json!({"user": {"email": "bo@beta.example", "password": "secret1",
                "first_name": "Bo", "last_name": "B", "role": "developer", "timezone": "UTC"}}),
            )
            .await;
        assert_eq!(s, 201);

        let (s, b) = app.get("/v1/metrics/activities?period=day", &t.admin_token).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            rows(&b),
            [
                row("flighting", "Acme", "updated"),
                row("applications", "Q3 sales (final)", "deleted"),
                row("applications", "Q3 sales (final)", "updated"),
                row("applications", "Q3 sales", "created"),
            ],
            "{k}: every kind, newest first"
        );
        assert_eq!((b["total"].as_i64(), &b["entity"]), (Some(4), &Value::Null));
        assert_eq!(b["rows"][1]["entity_id"], id.as_str());
        assert_eq!(
            (b["rows"][0]["email"].as_str(), b["rows"][1]["email"].as_str()),
            (Some("root@ludis.example"), Some("admin@acme.example"))
        );
        // One kind, searched.
        let (_, b) = app
            .get(
                "/v1/metrics/applications?period=day&searchTerm=q3",
                &t.admin_token,
            )
            .await;
        assert_eq!(
            (b["total"].as_i64(), b["entity"].as_str()),
            (Some(3), Some("applications")),
            "{k}: {b}"
        );
        // The superadmin sees every organization's; a filter keeps one.
        let (_, b) = app.get("/v1/metrics/activities?period=day", &root).await;
        assert_eq!(b["total"], 5, "{k}: {b}");
        assert_eq!(rows(&b)[0], row("users", "bo@beta.example", "created"));
        let (_, b) = app
            .get(
                &format!("/v1/metrics/activities?organizationId={}", beta.org),
                &root,
            )
            .await;
        assert_eq!(rows(&b), [row("users", "bo@beta.example", "created")], "{k}");
        // Developers see no metrics; an administrator no other organization's.
        let (s, b) = app.get("/v1/metrics/activities", &t.dev_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only administrators can see metrics"))
        );
        let (s, _) = app
            .get(
                &format!("/v1/metrics/activities?organizationId={}", beta.org),
                &t.admin_token,
            )
            .await;
        assert_eq!(s, 404, "{k}");
    }
}

#[tokio::test]
async fn metrics_count_real_events() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let b2 = app.org_with_admin_and_dev("Beta").await;
        let root = superadmin(&app, &t.org).await;
        let k = app.kind;
        // One failed sign-in, and some activity.
        let (s, _) = app
            .post(
                "/v1/auth/login",
                None,
                json!({"user": {"email": "dev@acme.example", "password": "x"}}),
            )
            .await;
        assert_eq!(s, 401);
        for n in 0..3 {
            let (s, _) = app
                .post("/v1/users", Some(&t.admin_token), json!({"user": {"email": format!("u{n}@acme.example"), "password": "secret1",
                    "first_name": "U", "last_name": format!("N{n}"), "role": "developer", "timezone": "UTC"}}))
                .await;
            assert_eq!(s, 201);
        }

        let (s, b) = app.get("/v1/metrics?period=day", &t.admin_token).await;
        assert_eq!(s, 200, "{k}: {b}");
        let m = &b["metrics"];
        // admin + dev + root signed in to Acme; one failure.
        assert_eq!(
            (
                m["logins"].as_i64(),
                m["failedLogins"].as_i64(),
                m["activeUsers"].as_i64()
            ),
            (Some(3), Some(1), Some(3)),
            "{k}: {m}"
        );
        assert_eq!(
            (m["totalUsers"].as_i64(), m["organizations"].as_i64()),
            (Some(6), Some(1))
        );
        assert_eq!(m["byEntity"], json!([{"entity": "users", "count": 3}]));
        let (_, b) = app.get("/v1/metrics", &root).await;
        assert_eq!(b["metrics"]["logins"], 5, "{k}: all organizations");
        let (s, b) = app.get("/v1/metrics?period=decade", &root).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (400, Some("Period must be one of day, week, month, year"))
        );
        let (s, b) = app.get("/v1/metrics", &t.dev_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only administrators can see metrics"))
        );

        let (_, b) = app.get("/v1/metrics/numLogins?period=week&limit=5", &root).await;
        let series = b["logins"].as_array().unwrap();
        assert_eq!(series.len(), 2, "{k}: {b}");
        let acme = series.iter().find(|p| p["orgName"] == "Acme").unwrap();
        assert_eq!(acme["logins"], 3);
        assert_eq!(acme["date"], ludis_api::db::day(ludis_api::db::now()));
        let (_, b) = app.get("/v1/metrics/numLogins?limit=1", &root).await;
        assert_eq!(b["logins"][0]["orgName"], "Acme", "the busiest organization");

        let (s, b) = app
            .get(
                "/v1/metrics/users?period=week&page=1&limit=2&searchTerm=U1@",
                &t.admin_token,
            )
            .await;
        assert_eq!(s, 200);
        assert_eq!(b["total"], 1, "{k}: {b}");
        assert_eq!(b["rows"][0]["entity_name"], "u1@acme.example");
        assert_eq!(b["rows"][0]["email"], "admin@acme.example");
        assert_eq!(b["rows"][0]["action"], "created");
        let (_, b) = app.get("/v1/metrics/users?limit=2&page=2", &t.admin_token).await;
        assert_eq!(
            (b["rows"].as_array().unwrap().len(), b["total"].as_i64()),
            (1, Some(3))
        );
        let (s, b) = app.get("/v1/metrics/spaceships", &t.admin_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (404, Some("Unknown metrics entity: spaceships"))
        );
        let (_, b) = app
            .get(
                &format!("/v1/metrics/{}/users?period=month&limit=10", t.org),
                &t.admin_token,
            )
            .await;
        assert_eq!(b["usage"].as_array().unwrap().len(), 3, "{k}: {b}");
        let (s, _) = app
            .get(&format!("/v1/metrics/{}/users", b2.org), &t.admin_token)
            .await;
        assert_eq!(s, 404);
    }
}
