//! The template apps' data calls (issue 17) against the test S3 server: a dataset with a CSV, a
//! template app over it, and known answers — the columns, a page, k-means on three separable
//! groups, sums by a column, and the forecast of a straight line; the same data as an XLSX
//! workbook gives the same answers; who may read it; bad requests.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{InsightSeed, Person, TestApp, apps_with, s3_settings};

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
    app_id: String,
}

async fn world(app: &TestApp) -> World {
    let org = app.unique_org("Templates").await;
    let other = app.unique_org("Elsewhere").await;
    let ann = app.person(&org, "developer", "Ann").await;
    let bob = app.person(&org, "developer", "Bob").await;
    let cy = app.person(&org, "developer", "Cy").await;
    let outsider = app.person(&other, "developer", "Out").await;
    let dataset = app.dataset(&org, Some(&ann.uid), "Points").await;
    let row = ludis_api::db::details::by_id::<ludis_api::db::datasets::DatasetRow>(&app.state.db, &dataset)
        .await
        .unwrap()
        .unwrap();
    let s3 = app.state.s3.as_ref().unwrap();
    let (bucket, prefix) = (&row.details.bucket, &row.details.prefix);
    // Not a CSV, first in key order: the CSV is still the one read.
    ludis_storage::objects::put(
        s3,
        bucket,
        &format!("{prefix}a-notes.txt"),
        b"notes".to_vec(),
        "text/plain",
    )
    .await
    .unwrap();
    ludis_storage::objects::put(
        s3,
        bucket,
        &format!("{prefix}points.csv"),
        csv().into_bytes(),
        "text/csv",
    )
    .await
    .unwrap();
    let (s, b) = app
        .post(
            "/v2/applications/create",
            Some(&ann.token),
            json!({"application": {"name": "Segments", "description": "d", "template": "cluster", "dataset_ids": [dataset]}}),
        )
        .await;
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
        let dataset = ludis_api::db::details::by_id::<ludis_api::db::insights::InsightRow>(&app.state.db, id)
            .await
            .unwrap()
            .unwrap()
            .details
            .dataset_ids[0]
            .clone();
        let row =
            ludis_api::db::details::by_id::<ludis_api::db::datasets::DatasetRow>(&app.state.db, &dataset)
                .await
                .unwrap()
                .unwrap();
        let s3c = app.state.s3.as_ref().unwrap();
        let (bucket, prefix) = (&row.details.bucket, &row.details.prefix);
        // "broken.xlsx" is first in key order: the CSV is still the default file.
        for (name, body) in [
            ("points.xlsx", workbook()),
            ("broken.xlsx", b"PK not really".to_vec()),
        ] {
            ludis_storage::objects::put(
                s3c,
                bucket,
                &format!("{prefix}{name}"),
                body,
                "application/octet-stream",
            )
            .await
            .unwrap();
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
