//! The template apps' data calls (issue 17) against the test S3 server: a dataset with a CSV, a
//! template app over it, and known answers — the columns, a page, k-means on three separable
//! groups, sums by a column, and the forecast of a straight line; the same data as an XLSX
//! workbook gives the same answers; who may read it; bad requests.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{InsightSeed, Person, TestApp, apps_with, s3_settings};
use ludis_api::Settings;

/// 3 groups of 20 points around (0,0,0), (10,10,0) and (0,10,10); a region per group; sales
/// 10 + 2·row over months m000…m059.
fn csv() -> String {
    let centres = [
        (0.0, 0.0, 0.0, "north"),
        (10.0, 10.0, 0.0, "south"),
        (0.0, 10.0, 10.0, "east"),
    ];
    let mut s = String::from("x,y,z,region,month,sales\n");
    let mut row = 0;
    for (cx, cy, cz, region) in centres {
        for i in 0..20 {
            let d = (f64::from(i) / 20.0 - 0.5) * 0.4;
            s.push_str(&format!(
                "{},{},{},{region},m{row:03},{}\n",
                cx + d,
                cy - d,
                cz + d / 2.0,
                10 + 2 * row
            ));
            row += 1;
        }
    }
    s
}

struct World {
    ann: Person,
    /// Sees the app, not its dataset.
    bob: Person,
    /// Sees both.
    cy: Person,
    outsider: Person,
    dataset: String,
    app_id: String,
}

/// Writes `body` as the file `name` at the top of dataset `dataset`.
async fn put(app: &TestApp, dataset: &str, name: &str, body: Vec<u8>) {
    let row = ludis_api::db::details::by_id::<ludis_api::db::datasets::DatasetRow>(&app.state.db, dataset)
        .await
        .unwrap()
        .unwrap();
    let (bucket, prefix) = (&row.details.bucket, &row.details.prefix);
    ludis_storage::objects::put(
        app.state.s3.as_ref().unwrap(),
        bucket,
        &format!("{prefix}{name}"),
        body,
        "application/octet-stream",
    )
    .await
    .unwrap();
}

/// The wizard's create call: a cluster app of `owner`'s over `dataset`, reading `file` when given.
async fn create(app: &TestApp, owner: &Person, dataset: &str, file: Option<&str>) -> (StatusCode, Value) {
    let mut application =
        json!({"name": "Segments", "description": "d", "template": "cluster", "dataset_ids": [dataset]});
    if let Some(f) = file {
        application["file"] = json!(f);
    }
    app.post(
        "/v2/applications/create",
        Some(&owner.token),
        json!({ "application": application }),
    )
    .await
}

async fn world(app: &TestApp) -> World {
    let org = app.unique_org("Templates").await;
    let other = app.unique_org("Elsewhere").await;
    let ann = app.person(&org, "developer", "Ann").await;
    let bob = app.person(&org, "developer", "Bob").await;
    let cy = app.person(&org, "developer", "Cy").await;
    let outsider = app.person(&other, "developer", "Out").await;
    let dataset = app.dataset(&org, Some(&ann.uid), "Points").await;
    // Not a CSV, first in key order: the CSV is still the one read.
    put(app, &dataset, "a-notes.txt", b"notes".to_vec()).await;
    put(app, &dataset, "points.csv", csv().into_bytes()).await;
    let (s, b) = create(app, &ann, &dataset, None).await;
    assert_eq!(s, 201, "{}: {b}", app.kind);
    let app_id = b["application"]["id"].as_str().unwrap().to_owned();
    app.share(&app_id, "user", &bob.uid, "view", &ann.uid).await;
    app.share(&app_id, "user", &cy.uid, "view", &ann.uid).await;
    app.share(&dataset, "user", &cy.uid, "view", &ann.uid).await;
    World {
        ann,
        bob,
        cy,
        outsider,
        dataset,
        app_id,
    }
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 0.5
}

#[tokio::test]
async fn a_template_app_reads_its_dataset_and_computes_known_answers() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        let k = app.kind;
        let w = world(&app).await;
        let id = &w.app_id;
        let token = &w.cy.token;

        let (s, b) = app.get(&format!("/v1/templates/col.names/{id}"), token).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["file"], "points.csv");
        assert_eq!(b["columns"], json!(["x", "y", "z", "region", "month", "sales"]));

        let (s, b) = app
            .post(
                &format!("/v1/templates/data.paginate/{id}"),
                Some(token),
                json!({"start": 20, "count": 2}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["count"], 60);
        assert_eq!(b["rows"].as_array().unwrap().len(), 2);
        assert_eq!(b["rows"][0]["region"], "south");
        assert_eq!(b["rows"][0]["sales"], 50.0);

        let (s, b) = app
            .post(
                &format!("/v1/templates/graph.data/{id}"),
                Some(token),
                json!({"kind": "kmeans", "columns": ["x", "y", "z"], "clusters": 3}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        let mut centres: Vec<(i64, i64, i64, u64)> = b["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let p = &c["centroid"];
                let r = |i: usize| p[i].as_f64().unwrap().round() as i64;
                (r(0), r(1), r(2), c["size"].as_u64().unwrap())
            })
            .collect();
        centres.sort();
        assert_eq!(centres, [(0, 0, 0, 20), (0, 10, 10, 20), (10, 10, 0, 20)]);
        assert_eq!((b["total"].as_u64(), b["skipped"].as_u64()), (Some(60), Some(0)));
        // Each point is its values and its cluster; a group's points share one.
        let points = b["points"].as_array().unwrap();
        assert_eq!(points.len(), 60);
        assert!(points[..20].iter().all(|p| p[3] == points[0][3]));
        assert_ne!(points[0][3], points[20][3]);

        let (s, b) = app
            .post(
                &format!("/v1/templates/graph.data/{id}"),
                Some(token),
                json!({"kind": "series", "x": "region", "y": "sales", "aggregation": "sum"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["labels"], json!(["north", "south", "east"]));
        // north: rows 0–19 → Σ(10 + 2r) = 200 + 380; south: 200 + 2·590; east: 200 + 2·990.
        assert_eq!(b["values"], json!([580.0, 1380.0, 2180.0]));
        let (_, b) = app
            .post(
                &format!("/v1/templates/graph.data/{id}"),
                Some(token),
                json!({"kind": "series", "x": "month", "y": "sales", "aggregation": "No aggregation"}),
            )
            .await;
        assert_eq!(
            (
                b["labels"][1].as_str(),
                b["values"][1].as_f64(),
                b["total"].as_u64()
            ),
            (Some("m001"), Some(12.0), Some(60))
        );

        let (s, b) = app
            .post(
                &format!("/v1/templates/forecast/{id}"),
                Some(token),
                json!({"x": "month", "y": "sales", "horizon": 3, "window": 4}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["y"].as_array().unwrap().len(), 60);
        assert_eq!(b["fitted"].as_array().unwrap().len(), 60);
        assert_eq!(b["moving_average"][2], Value::Null);
        assert_eq!(b["moving_average"][3], json!(13.0));
        let f = b["forecast"].as_array().unwrap();
        assert!(close(&f[0], 130.0) && close(&f[2], 134.0), "{k}: {f:?}");
        assert!(
            b["model"].as_str().unwrap().starts_with("ETS"),
            "{k}: {}",
            b["model"]
        );
    }
}

#[tokio::test]
async fn the_app_and_its_dataset_must_both_be_visible_and_bad_requests_say_why() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        let k = app.kind;
        let w = world(&app).await;
        let id = &w.app_id;
        let columns = format!("/v1/templates/col.names/{id}");
        let graph = format!("/v1/templates/graph.data/{id}");
        // No access to the app, or to its dataset: the same 404 as a missing one.
        for (who, message) in [
            (&w.outsider, "Application not found"),
            (&w.bob, "Dataset not found"),
        ] {
            let (s, b) = app.get(&columns, &who.token).await;
            assert_eq!(
                (s, b["message"].as_str()),
                (StatusCode::NOT_FOUND, Some(message)),
                "{k}: {b}"
            );
        }
        let plain = app
            .insight(&w.ann.org, Some(&w.ann.uid), InsightSeed::app("Plain"))
            .await;
        let (s, b) = app
            .get(&format!("/v1/templates/col.names/{plain}"), &w.ann.token)
            .await;
        assert_eq!(
            (s, b["message"].as_str()),
            (
                StatusCode::BAD_REQUEST,
                Some("This insight is not a template app")
            )
        );
        for (body, message) in [
            (
                json!({"kind": "kmeans", "columns": ["x", "y"], "clusters": 10}),
                "The number of clusters is from 1 to 9",
            ),
            (
                json!({"kind": "kmeans", "columns": ["x"]}),
                "K-means takes two or three columns",
            ),
            (
                json!({"kind": "kmeans", "columns": ["x", "nope"]}),
                "The data file has no column named 'nope'",
            ),
            (
                json!({"kind": "kmeans", "columns": ["x", "region"]}),
                "The column 'region' has no numbers",
            ),
            (
                json!({"kind": "series", "x": "region", "y": "sales", "aggregation": "mode"}),
                "Unknown aggregation 'mode': use sum, mean, median, variance or count",
            ),
            (
                json!({"kind": "series", "x": "region", "y": "sales", "file": "../other/points.csv"}),
                "",
            ),
            (
                json!({"kind": "series", "x": "region", "y": "sales", "file": "a-notes.txt"}),
                "Template apps read .csv, .xlsx and .xls files",
            ),
        ] {
            let (s, b) = app.post(&graph, Some(&w.ann.token), body.clone()).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{k} {body}: {b}");
            if !message.is_empty() {
                assert_eq!(b["message"], message, "{k} {body}");
            }
        }
        let (s, _) = app
            .post(
                &format!("/v1/templates/data.paginate/{id}"),
                Some(&w.ann.token),
                json!({"count": 0}),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        let (s, b) = app
            .post(
                &format!("/v1/templates/forecast/{id}"),
                Some(&w.ann.token),
                json!({"x": "month", "y": "sales", "horizon": 0}),
            )
            .await;
        assert_eq!(
            (s, b["message"].as_str()),
            (
                StatusCode::BAD_REQUEST,
                Some("Forecast from 1 to 1000 steps ahead")
            )
        );
        let (s, _) = app
            .post(
                &format!("/v1/templates/graph.data/{id}"),
                Some(&w.ann.token),
                json!({"kind": "series", "x": "region", "y": "sales", "file": "gone.csv"}),
            )
            .await;
        assert_eq!(s, StatusCode::NOT_FOUND);
    }
}

/// The CSV's rows as an XLSX workbook: numbers as numbers, texts as texts, the table from B3.
fn workbook() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (r, line) in csv().lines().enumerate() {
        for (c, cell) in line.split(',').enumerate() {
            let (r, c) = (r as u32 + 2, c as u16 + 1);
            match cell.parse::<f64>() {
                Ok(n) if r > 2 => sheet.write_number(r, c, n).unwrap(),
                _ => sheet.write_string(r, c, cell).unwrap(),
            };
        }
    }
    book.save_to_buffer().unwrap()
}

#[tokio::test]
async fn a_workbook_gives_the_same_answers_as_its_csv() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        let k = app.kind;
        let w = world(&app).await;
        let id = &w.app_id;
        let token = &w.cy.token;
        // "broken.xlsx" is first in key order: the CSV is still the default file.
        for (name, body) in [
            ("points.xlsx", workbook()),
            ("broken.xlsx", b"PK not really".to_vec()),
        ] {
            put(&app, &w.dataset, name, body).await;
        }

        let (s, b) = app
            .get(&format!("/v1/templates/col.names/{id}?file=points.xlsx"), token)
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["columns"], json!(["x", "y", "z", "region", "month", "sales"]));
        let (s, b) = app
            .post(
                &format!("/v1/templates/data.paginate/{id}"),
                Some(token),
                json!({"start": 20, "count": 2, "file": "points.xlsx"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            (b["count"].as_u64(), b["rows"][0]["region"].as_str()),
            (Some(60), Some("south"))
        );
        assert_eq!(b["rows"][0]["sales"], 50.0);
        for body in [
            json!({"kind": "series", "x": "region", "y": "sales", "aggregation": "sum"}),
            json!({"kind": "kmeans", "columns": ["x", "y", "z"], "clusters": 3}),
        ] {
            let graph = format!("/v1/templates/graph.data/{id}");
            let (s, from_csv) = app.post(&graph, Some(token), body.clone()).await;
            assert_eq!(s, 200, "{k}: {from_csv}");
            let mut named = body.clone();
            named["file"] = json!("points.xlsx");
            let (s, from_xlsx) = app.post(&graph, Some(token), named).await;
            assert_eq!(s, 200, "{k}: {from_xlsx}");
            let strip = |mut v: Value| {
                v.as_object_mut().unwrap().remove("file");
                v
            };
            assert_eq!(strip(from_xlsx), strip(from_csv), "{k} {body}");
        }

        let (s, b) = app
            .post(
                &format!("/v1/templates/graph.data/{id}"),
                Some(token),
                json!({"kind": "series", "x": "region", "y": "sales", "file": "broken.xlsx"}),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{k}: {b}");
        assert_eq!(b["message"], "The file is not a valid XLSX workbook");
    }
}

// ---------------------------------------------------------------------------------------------
// The wizard's file and the bounds of the work (issue 11): the chosen file is kept and read; a
// file over the row bound is refused with its name, size and the bound; one computation at a time
// per user; a worker limit that answers a waiting caller (503 with Retry-After) or serves it once a
// worker is free. Calls that must wait hold what they wait for throughout (a turn or a worker taken
// from the pool by the test), so no outcome depends on the machine's speed.

/// A CSV of `n` rows: month and sales.
fn rows_csv(n: usize) -> String {
    let mut s = String::from("month,sales\n");
    for i in 0..n {
        s.push_str(&format!("m{i:04},{}\n", 10 + i));
    }
    s
}

/// The test S3 server, with `tweak` on the settings.
fn s3_and(tweak: impl Fn(&mut Settings) + Clone) -> Option<impl Fn(&mut Settings) + Clone> {
    let s3 = s3_settings()?;
    Some(move |s: &mut Settings| {
        s3(s);
        tweak(s);
    })
}

/// A call's status, `Retry-After` header and JSON body.
async fn raw(app: &TestApp, path: &str, token: &str) -> (StatusCode, Option<String>, Value) {
    let res = app
        .http
        .get(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (res.status(), retry, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_file_chosen_in_the_wizard_is_kept_and_read_by_every_call() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        let k = app.kind;
        let w = world(&app).await;
        // Now first in key order: the default of an app that was given no file.
        let first = rows_csv(5);
        put(&app, &w.dataset, "a-first.csv", first.clone().into_bytes()).await;

        // The wizard lists the data files with their sizes, the default first .csv, and the bound.
        let (s, b) = app
            .get(
                &format!("/v1/templates/datasets/{}/files", w.dataset),
                &w.cy.token,
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            b["files"],
            json!([
                {"file": "a-first.csv", "size": first.len(), "size_text": format!("{} bytes", first.len())},
                {"file": "points.csv", "size": csv().len(), "size_text": format!("{:.2} KB", csv().len() as f64 / 1000.0)},
            ]),
            "{k}"
        );
        assert_eq!(
            (b["default_file"].as_str(), b["max_rows"].as_u64()),
            (Some("a-first.csv"), Some(200_000))
        );

        // An app made with a file keeps it, and every call reads it.
        let (s, b) = create(&app, &w.ann, &w.dataset, Some("points.csv")).await;
        assert_eq!(s, 201, "{k}: {b}");
        let chosen = b["application"]["id"].as_str().unwrap().to_owned();
        let row =
            ludis_api::db::details::by_id::<ludis_api::db::insights::InsightRow>(&app.state.db, &chosen)
                .await
                .unwrap()
                .unwrap();
        assert_eq!(row.details.template_file.as_deref(), Some("points.csv"));
        let token = &w.ann.token;
        let (s, b) = app.get(&format!("/v1/templates/col.names/{chosen}"), token).await;
        assert_eq!(
            (s, b["file"].as_str()),
            (StatusCode::OK, Some("points.csv")),
            "{k}: {b}"
        );
        let (s, b) = app
            .post(
                &format!("/v1/templates/data.paginate/{chosen}"),
                Some(token),
                json!({"start": 0, "count": 1}),
            )
            .await;
        assert_eq!(
            (s, b["file"].as_str(), b["count"].as_u64()),
            (StatusCode::OK, Some("points.csv"), Some(60))
        );
        let (s, b) = app
            .post(
                &format!("/v1/templates/graph.data/{chosen}"),
                Some(token),
                json!({"kind": "series", "x": "region", "y": "sales", "aggregation": "sum"}),
            )
            .await;
        assert_eq!(
            (s, b["file"].as_str()),
            (StatusCode::OK, Some("points.csv")),
            "{k}: {b}"
        );
        assert_eq!(b["labels"], json!(["north", "south", "east"]));
        let (s, b) = app
            .post(
                &format!("/v1/templates/forecast/{chosen}"),
                Some(token),
                json!({"x": "month", "y": "sales", "horizon": 2}),
            )
            .await;
        assert_eq!(
            (s, b["file"].as_str()),
            (StatusCode::OK, Some("points.csv")),
            "{k}: {b}"
        );
        // A call's own file still wins.
        let (s, b) = app
            .get(
                &format!("/v1/templates/col.names/{chosen}?file=a-first.csv"),
                token,
            )
            .await;
        assert_eq!(
            (s, b["columns"].clone()),
            (StatusCode::OK, json!(["month", "sales"])),
            "{k}: {b}"
        );
        // An app made without one reads the default, as before.
        let (s, b) = app
            .get(&format!("/v1/templates/col.names/{}", w.app_id), token)
            .await;
        assert_eq!(
            (s, b["file"].as_str()),
            (StatusCode::OK, Some("a-first.csv")),
            "{k}: {b}"
        );

        // The file must be a data file of the dataset, and there.
        for (file, status, message) in [
            ("missing.csv", StatusCode::NOT_FOUND, "File not found"),
            (
                "a-notes.txt",
                StatusCode::BAD_REQUEST,
                "Template apps read .csv, .xlsx and .xls files",
            ),
        ] {
            let (s, b) = create(&app, &w.ann, &w.dataset, Some(file)).await;
            assert_eq!(
                (s, b["message"].as_str()),
                (status, Some(message)),
                "{k} {file}: {b}"
            );
        }
    }
}

#[tokio::test]
async fn a_file_over_the_row_bound_is_refused_naming_the_file_its_size_and_the_bound() {
    let Some(settings) = s3_and(|s| s.template_max_rows = 50) else {
        return;
    };
    for app in apps_with(settings).await {
        let k = app.kind;
        let w = world(&app).await;
        let id = &w.app_id;
        let token = &w.cy.token;
        // points.csv has 60 rows, a bound of 50; its size as the console writes it (KB).
        let size = format!("{:.2} KB", csv().len() as f64 / 1000.0);
        let message = format!(
            "points.csv ({size}) has more than 50 rows; template apps read at most 50. Choose a smaller \
             file or ask your administrator to raise LUDIS_TEMPLATE_MAX_ROWS"
        );
        for (path, body) in [
            ("data.paginate", json!({"start": 0, "count": 10})),
            ("graph.data", json!({"kind": "kmeans", "columns": ["x", "y"]})),
            (
                "graph.data",
                json!({"kind": "series", "x": "region", "y": "sales", "aggregation": "sum"}),
            ),
            ("forecast", json!({"x": "month", "y": "sales"})),
        ] {
            let (s, b) = app
                .post(&format!("/v1/templates/{path}/{id}"), Some(token), body.clone())
                .await;
            assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{k} {path} {body}: {b}");
            assert_eq!(
                (b["code"].as_str(), b["message"].as_str()),
                (Some("too_many_rows"), Some(message.as_str()))
            );
        }
        // The header alone is within any bound.
        let (s, _) = app.get(&format!("/v1/templates/col.names/{id}"), token).await;
        assert_eq!(s, StatusCode::OK, "{k}");

        // The wizard learns it before the app is made: the same words, and a file that fits.
        let rows = format!("/v1/templates/datasets/{}/rows", w.dataset);
        let (s, b) = app.get(&format!("{rows}?file=points.csv"), token).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            (
                b["fits"].as_bool(),
                b["rows"].clone(),
                b["max_rows"].as_u64(),
                b["message"].as_str()
            ),
            (Some(false), Value::Null, Some(50), Some(message.as_str())),
            "{k}"
        );
        put(&app, &w.dataset, "small.csv", rows_csv(50).into_bytes()).await;
        let (s, b) = app.get(&format!("{rows}?file=small.csv"), token).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            (b["fits"].as_bool(), b["rows"].as_u64(), b["message"].clone()),
            (Some(true), Some(50), Value::Null),
            "{k}"
        );
    }
}

#[tokio::test]
async fn a_users_next_call_waits_for_their_running_one_and_others_are_not_held_up() {
    let Some(settings) = s3_and(|s| {
        s.template_workers = 2;
        s.template_timeout_secs = 2;
    }) else {
        return;
    };
    for app in apps_with(settings).await {
        let k = app.kind;
        let w = world(&app).await;
        let columns = format!("/v1/templates/col.names/{}", w.app_id);
        // Ann's computation runs (the test holds her turn and one of the two workers).
        let running = app.state.templates.admit(&w.ann.uid).await.unwrap();
        let (s, retry, b) = raw(&app, &columns, &w.ann.token).await;
        assert_eq!(
            (s, retry.as_deref(), b["code"].as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, Some("2"), Some("template_busy")),
            "{k}: {b}"
        );
        assert_eq!(
            b["message"],
            "Your previous template computation is still running; this one waited 2 s for it. Try again when it has finished"
        );
        // Cy is not in Ann's line: the other worker serves her.
        let (s, b) = app.get(&columns, &w.cy.token).await;
        assert_eq!(s, StatusCode::OK, "{k}: {b}");
        // Ann's computation ends: her next call runs.
        drop(running);
        let (s, b) = app.get(&columns, &w.ann.token).await;
        assert_eq!(s, StatusCode::OK, "{k}: {b}");
    }
}

#[tokio::test]
async fn with_every_worker_busy_another_user_waits_then_is_served_or_told_when_to_come_back() {
    let Some(settings) = s3_and(|s| {
        s.template_workers = 1;
        s.template_timeout_secs = 3;
    }) else {
        return;
    };
    for app in apps_with(settings).await {
        let k = app.kind;
        let w = world(&app).await;
        let columns = format!("/v1/templates/col.names/{}", w.app_id);
        // Ann's long computation holds the only worker for longer than Cy may wait: 503 and when to
        // come back, never a call that hangs.
        let running = app.state.templates.admit(&w.ann.uid).await.unwrap();
        let (s, retry, b) = raw(&app, &columns, &w.cy.token).await;
        assert_eq!(
            (s, retry.as_deref(), b["code"].as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, Some("3"), Some("template_busy")),
            "{k}: {b}"
        );
        assert_eq!(
            b["message"],
            "Every template worker is busy (1 at a time); this one waited 3 s. Try again in a moment"
        );
        // Cy asks again while it still runs; it ends while she waits: she is served.
        let pool = app.state.templates.clone();
        let waiting = app.get(&columns, &w.cy.token);
        let ends = async move {
            while pool.waiting() == 0 {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            drop(running);
        };
        let ((s, b), ()) = tokio::join!(waiting, ends);
        assert_eq!(
            (s, b["file"].as_str()),
            (StatusCode::OK, Some("points.csv")),
            "{k}: {b}"
        );
        assert_eq!(
            (app.state.templates.idle(), app.state.templates.waiting()),
            (1, 0)
        );
    }
}
