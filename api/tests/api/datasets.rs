//! Datasets against the real S3 server (and the local control plane when configured): create,
//! list and update rules; presigned uploads and downloads with a plain HTTP client (and the
//! storage server refusing a URL used with the wrong method or after expiry); folder pages with
//! continuation; folders and recursive deletes; previews; every traversal attempt refused with
//! nothing outside the prefix touched; view access cannot write; non-members get 404; the
//! permanent URL needs an API key; deleting a dataset without a cluster honours its policy.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Person, TestApp, apps_with, s3_settings, spawn_app_with};
use ludis_api::db;

struct World {
    ann: Person,
    bob: Person,
    admin: Person,
    outsider: Person,
}

async fn world(app: &TestApp) -> World {
    let org = app.unique_org("Data").await;
    let other = app.unique_org("Elsewhere").await;
    World {
        ann: app.person(&org, "developer", "Ann").await,
        bob: app.person(&org, "developer", "Bob").await,
        admin: app.person(&org, "administrator", "Admin").await,
        outsider: app.person(&other, "developer", "Out").await,
    }
}

/// One app per database with the test S3 server; none when it is not configured (outside CI).
async fn s3_apps() -> Vec<TestApp> {
    match s3_settings() {
        Some(s3) => apps_with(s3).await,
        None => Vec::new(),
    }
}

fn msg(r: &(StatusCode, Value)) -> (u16, String) {
    (
        r.0.as_u16(),
        r.1["message"].as_str().unwrap_or_default().to_owned(),
    )
}

async fn create(app: &TestApp, who: &Person, name: &str, policy: &str) -> Value {
    let r = app
        .post(
            "/v1/datasets/createdataset",
            Some(&who.token),
            json!({"dataset": {"name": name, "description": "Test data", "deletion_policy": policy}}),
        )
        .await;
    assert_eq!(r.0, 201, "{}: {}", app.kind, r.1);
    assert_eq!(r.1["message"], "Dataset Created Successfully");
    r.1["dataset"].clone()
}

async fn presign(app: &TestApp, who: &Person, id: &str, path: &str, method: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/v1/datasets/getpresignedurl/{id}"),
        Some(&who.token),
        json!({"path": path, "method": method}),
    )
    .await
}

/// Uploads through a presigned PUT, as the browser does.
async fn upload(app: &TestApp, who: &Person, id: &str, path: &str, body: &[u8]) {
    let r = presign(app, who, id, path, "PUT").await;
    assert_eq!(r.0, 200, "presign {path}: {}", r.1);
    let url = r.1["url"].as_str().unwrap();
    let put = reqwest::Client::new()
        .put(url)
        .header("content-type", "application/octet-stream")
        .body(body.to_vec())
        .send()
        .await
        .unwrap();
    assert!(put.status().is_success(), "PUT {path}: {}", put.status());
}

/// `owner` shares dataset `id` with `with` at view.
async fn share_view(app: &TestApp, owner: &Person, id: &str, with: &Person) {
    let r = app
        .post(
            "/v1/datasets/share",
            Some(&owner.token),
            json!({"share": {"entity_id": id, "shares": [
                {"share_type": "share", "email": with.email, "access_level": "view", "to_entity_type": "User"}
            ]}}),
        )
        .await;
    assert_eq!(r.0, 200, "{}", r.1);
}

async fn list(app: &TestApp, who: &Person, id: &str, body: Value) -> (StatusCode, Value) {
    app.post(&format!("/v1/datasets/listfiles/{id}"), Some(&who.token), body)
        .await
}

fn keys_of(listing: &Value) -> Vec<String> {
    listing["Contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["Key"].as_str().unwrap().to_owned())
        .collect()
}

fn folders_of(listing: &Value) -> Vec<String> {
    listing["CommonPrefixes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["Prefix"].as_str().unwrap().to_owned())
        .collect()
}

/// Every object key of a bucket under a prefix, straight from the storage server.
async fn stored(app: &TestApp, bucket: &str, prefix: &str) -> Vec<String> {
    let s3 = app.state.s3.as_ref().unwrap();
    let mut out = Vec::new();
    let mut pages = s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(prefix)
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        for o in page.unwrap().contents() {
            out.push(o.key().unwrap().to_owned());
        }
    }
    out.sort();
    out
}

/// The dataset's folder in its bucket (`datasets/<namespace>/<id>/`).
async fn prefix_of(app: &TestApp, id: &str) -> String {
    db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, id)
        .await
        .unwrap()
        .unwrap()
        .details
        .prefix
}

async fn bucket_of(app: &TestApp, id: &str) -> String {
    db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, id)
        .await
        .unwrap()
        .unwrap()
        .details
        .bucket
}

#[tokio::test]
async fn datasets_are_created_listed_updated_and_shared_by_the_rule() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        for (body, expected) in [
            (json!({"dataset": {"name": "   "}}), "Empty name not allowed"),
            (
                json!({"dataset": {"name": "x", "deletion_policy": "keep"}}),
                "Unknown deletion policy: keep (Retain or Delete)",
            ),
        ] {
            let r = app
                .post("/v1/datasets/createdataset", Some(&w.ann.token), body)
                .await;
            assert_eq!(msg(&r), (400, expected.to_owned()), "{k}");
        }
        let sales = create(&app, &w.ann, "  Sales 2026 ", "Retain").await;
        assert_eq!(sales["name"], "Sales 2026", "{k}: trimmed");
        assert_eq!(sales["access_level"], "edit");
        assert_eq!(sales["is_owner"], true);
        assert_eq!(sales["deletion_policy"], "Retain");
        assert_eq!(sales["repo_author"], w.ann.email.as_str());
        let id = sales["id"].as_str().unwrap();
        assert!(sales["path"].as_str().unwrap().ends_with(&format!("{id}/")));
        let bobs = create(&app, &w.bob, "Bob's logs", "Delete").await;
        let bobs_id = bobs["id"].as_str().unwrap();

        // Ann sees her own; Bob's is not visible to her; the outsider sees nothing.
        let r = app
            .get("/v1/datasets/listdatasets?filter=owned", &w.ann.token)
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        let names: Vec<&str> = r.1["datasets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Sales 2026"], "{k}");
        let r = app.get("/v1/datasets/listdatasets", &w.ann.token).await;
        assert_eq!(r.1["total"], 1, "{k}: {}", r.1);
        let r = app
            .post(
                &format!("/v1/datasets/getdatasetdetails/{bobs_id}"),
                Some(&w.ann.token),
                json!({}),
            )
            .await;
        assert_eq!(msg(&r), (404, "Dataset not found".into()), "{k}");
        let r = app
            .post(
                &format!("/v1/datasets/getdatasetdetails/{id}"),
                Some(&w.outsider.token),
                json!({}),
            )
            .await;
        assert_eq!(msg(&r), (404, "Dataset not found".into()), "{k}");
        let r = app
            .get("/v1/datasets/listdatasets?filter=bogus", &w.ann.token)
            .await;
        assert_eq!(r.0, 400, "{k}");

        // The administrator of the organization has edit on both.
        let r = app.get("/v1/datasets/listdatasets", &w.admin.token).await;
        assert_eq!(r.1["total"], 2, "{k}: {}", r.1);

        // Bob shares with Ann at view: listed under 'shared', read-only; execute is refused.
        let share = |level: &str| {
            json!({"share": {"entity_id": bobs_id, "shares": [
                {"share_type": "share", "email": w.ann.email, "access_level": level, "to_entity_type": "User"}
            ]}})
        };
        let r = app
            .post("/v1/datasets/share", Some(&w.bob.token), share("execute"))
            .await;
        assert_eq!(r.0, 400, "{k}: execute is not offered on datasets: {}", r.1);
        let r = app
            .post("/v1/datasets/share", Some(&w.bob.token), share("view"))
            .await;
        assert_eq!(msg(&r), (200, "Dataset shared!".into()), "{k}");
        let r = app
            .get("/v1/datasets/listdatasets?filter=shared", &w.ann.token)
            .await;
        let listed = &r.1["datasets"][0];
        assert_eq!(listed["id"], bobs_id, "{k}: {}", r.1);
        assert_eq!(listed["access_level"], "view");
        assert_eq!(listed["is_owner"], false);
        let r = app
            .get(
                &format!("/v1/datasets/share/list?dataset_id={bobs_id}"),
                &w.ann.token,
            )
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(r.1["can_share"], false);
        assert_eq!(r.1["levels"], json!(["view", "edit"]));
        let r = app
            .get("/v1/datasets/listdatasets?filter=owned", &w.bob.token)
            .await;
        assert_eq!(
            r.1["datasets"][0]["shareIcons"][0]["id"],
            w.ann.uid.as_str(),
            "{k}: {}",
            r.1
        );

        // Update: both fields required; a viewer may not; the owner may.
        let path = format!("/v1/datasets/updatedataset/{bobs_id}");
        for (who, name, description, expected) in [
            (&w.ann, "Mine", "x", (403, "You need edit access")),
            (&w.bob, "Logs", " ", (400, "Empty description not allowed")),
            (&w.bob, "", "d", (400, "Empty name not allowed")),
        ] {
            let body = json!({"dataset": {"name": name, "description": description}});
            let r = app.put(&path, &who.token, body).await;
            assert_eq!(msg(&r), (expected.0, expected.1.to_owned()), "{k}");
        }
        let r = app
            .put(
                &path,
                &w.bob.token,
                json!({"dataset": {"name": "Logs", "description": "Web logs"}}),
            )
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(r.1["dataset"]["name"], "Logs");
        assert_eq!(r.1["dataset"]["description"], "Web logs");

        // Search and pages.
        let r = app
            .get("/v1/datasets/listdatasets?search=web&pageSize=1", &w.admin.token)
            .await;
        assert_eq!(r.1["total"], 1, "{k}: {}", r.1);
        assert_eq!(r.1["datasets"][0]["name"], "Logs");
        let r = app
            .get("/v1/datasets/listdatasets?page=2&pageSize=1", &w.admin.token)
            .await;
        assert_eq!(
            (r.1["total"].as_i64(), r.1["total_pages"].as_i64()),
            (Some(2), Some(2)),
            "{k}"
        );
        assert_eq!(r.1["datasets"].as_array().unwrap().len(), 1);

        // The configuration names the bucket and limits, never a secret.
        let r = app
            .post("/v1/datasets/getConfig", Some(&w.ann.token), json!({}))
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(r.1["config"]["upload_expires_in"], 900);
        assert_eq!(r.1["config"]["access_url_expires_in"], 604_800);
        assert!(!r.1.to_string().contains("ludis-dev-secret-key"));

        // Deleting needs edit; then it is gone for everyone.
        let r = app.delete(&format!("/v1/datasets/{bobs_id}"), &w.ann.token).await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = app.delete(&format!("/v1/datasets/{bobs_id}"), &w.bob.token).await;
        assert_eq!(msg(&r), (200, "Dataset Deleted!".into()), "{k}");
        let r = app
            .get("/v1/datasets/listdatasets?filter=shared", &w.ann.token)
            .await;
        assert_eq!(r.1["total"], 0, "{k}: {}", r.1);
    }
}

#[tokio::test]
async fn files_travel_through_presigned_urls_bound_to_one_key_and_method() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Transfers", "Retain").await;
        let id = d["id"].as_str().unwrap();
        let body = b"a,b\n1,2\n".to_vec();
        upload(&app, &w.ann, id, "in/data.csv", &body).await;

        // Download with a plain client.
        let r = presign(&app, &w.ann, id, "in/data.csv", "GET").await;
        assert_eq!(r.1["expires_in"], 3600, "{k}");
        assert_eq!(r.1["key"], "in/data.csv");
        let get_url = r.1["url"].as_str().unwrap().to_owned();
        let got = reqwest::get(&get_url).await.unwrap();
        assert_eq!(got.status(), 200, "{k}");
        assert_eq!(got.bytes().await.unwrap().to_vec(), body);

        // The download URL cannot upload; the upload URL of one key cannot write another.
        let wrong = reqwest::Client::new()
            .put(&get_url)
            .body("overwritten")
            .send()
            .await
            .unwrap();
        assert_eq!(
            wrong.status(),
            403,
            "{k}: a GET URL used with PUT is refused by the server"
        );
        let r = presign(&app, &w.ann, id, "in/other.csv", "PUT").await;
        let other_url = r.1["url"].as_str().unwrap().replace("other.csv", "data.csv");
        let wrong = reqwest::Client::new()
            .put(&other_url)
            .body("overwritten")
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), 403, "{k}: a URL edited to another key is refused");
        let again = reqwest::get(&get_url).await.unwrap().bytes().await.unwrap();
        assert_eq!(again.to_vec(), body, "{k}: nothing was overwritten");

        // A viewer may download, not upload; a non-member gets 404.
        share_view(&app, &w.ann, id, &w.bob).await;
        let r = presign(&app, &w.bob, id, "in/data.csv", "GET").await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        let r = presign(&app, &w.bob, id, "in/bob.csv", "PUT").await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = presign(&app, &w.outsider, id, "in/data.csv", "GET").await;
        assert_eq!(msg(&r), (404, "Dataset not found".into()), "{k}");
        let r = presign(&app, &w.ann, id, "in/data.csv", "DELETE").await;
        assert_eq!(r.0, 400, "{k}");
    }
}

#[tokio::test]
async fn an_expired_presigned_url_is_refused_by_the_storage_server() {
    // Presigned with the API's presigner for one second, used after two.
    let Some(s3) = s3_settings() else { return };
    let app = spawn_app_with(|dir| {
        let mut s = ludis_api::Settings::for_tests(
            format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display()),
            crate::helpers::missing_dir(),
        );
        s.secrets_file = dir.path().join("secrets.env");
        s3(&mut s);
        s
    })
    .await;
    // With a cluster, datasets get a resource: the CRDs must be installed (as `apps_with` does).
    crate::helpers::ensure_crds(&app.state).await;
    let w = world(&app).await;
    let d = create(&app, &w.ann, "Expiry", "Retain").await;
    let id = d["id"].as_str().unwrap();
    upload(&app, &w.ann, id, "x.txt", b"hello").await;
    let dataset = db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, id)
        .await
        .unwrap()
        .unwrap();
    let url = app
        .state
        .presigner
        .as_ref()
        .unwrap()
        .url(
            "GET",
            &dataset.details.bucket,
            &format!("{}x.txt", dataset.details.prefix),
            std::time::Duration::from_secs(1),
            None,
        )
        .await
        .unwrap();
    assert_eq!(reqwest::get(&url).await.unwrap().status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(
        reqwest::get(&url).await.unwrap().status(),
        403,
        "an expired URL is refused"
    );
}

#[tokio::test]
async fn a_folder_is_listed_page_by_page_with_tokens_bound_to_it() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Pages", "Retain").await;
        let id = d["id"].as_str().unwrap();
        let dataset = db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, id)
            .await
            .unwrap()
            .unwrap();
        let s3 = app.state.s3.as_ref().unwrap();
        let mut expected = Vec::new();
        for i in 0..25 {
            let key = format!("f{i:03}.csv");
            ludis_storage::objects::put(
                s3,
                &dataset.details.bucket,
                &format!("{}{key}", dataset.details.prefix),
                b"x".to_vec(),
                "text/csv",
            )
            .await
            .unwrap();
            expected.push(key);
        }
        upload(&app, &w.ann, id, "sub/inner.csv", b"y").await;

        let mut seen = Vec::new();
        let mut folders = Vec::new();
        let mut token: Option<String> = None;
        let mut pages = 0;
        loop {
            let mut body = json!({"path": "", "limit": 10});
            if let Some(t) = &token {
                body["continuationToken"] = json!(t);
            }
            let r = list(&app, &w.ann, id, body).await;
            assert_eq!(r.0, 200, "{k}: {}", r.1);
            pages += 1;
            assert_eq!(r.1["Name"], "Pages");
            assert_eq!(r.1["Prefix"], "");
            assert_eq!(r.1["FileCount"].as_u64().unwrap() as usize, keys_of(&r.1).len());
            seen.extend(keys_of(&r.1));
            folders.extend(folders_of(&r.1));
            if r.1["IsTruncated"] == true {
                token = Some(r.1["NextContinuationToken"].as_str().unwrap().to_owned());
            } else {
                assert_eq!(r.1["NextContinuationToken"], Value::Null);
                break;
            }
            assert!(pages < 10, "{k}: paging ends");
        }
        assert_eq!(pages, 3, "{k}: 26 entries in pages of 10");
        assert_eq!(seen, expected, "{k}: every file once, in order");
        assert_eq!(folders, ["sub/"], "{k}");

        // A token is bound to its dataset and folder, and cannot be forged.
        let first = list(&app, &w.ann, id, json!({"limit": 10})).await;
        let t = first.1["NextContinuationToken"].as_str().unwrap().to_owned();
        let r = list(&app, &w.ann, id, json!({"path": "sub/", "continuationToken": t})).await;
        assert_eq!(r.0, 400, "{k}: another folder: {}", r.1);
        let other = create(&app, &w.ann, "Other", "Retain").await;
        let r = list(
            &app,
            &w.ann,
            other["id"].as_str().unwrap(),
            json!({"continuationToken": t}),
        )
        .await;
        assert_eq!(r.0, 400, "{k}: another dataset");
        let (raw, tag) = t.split_once('.').unwrap();
        let forged = format!("{}A.{tag}", &raw[..raw.len() - 1]);
        let r = list(&app, &w.ann, id, json!({"continuationToken": forged})).await;
        assert_eq!(r.0, 400, "{k}: a changed token");

        // The sub-folder, and limits clamp.
        let r = list(&app, &w.ann, id, json!({"path": "sub", "limit": 100000})).await;
        assert_eq!(keys_of(&r.1), ["sub/inner.csv"], "{k}: {}", r.1);
        assert_eq!(r.1["Prefix"], "sub/");
    }
}

#[tokio::test]
async fn folders_are_created_and_deleted_with_everything_in_them() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Folders", "Retain").await;
        let id = d["id"].as_str().unwrap();
        let neighbour = create(&app, &w.ann, "Neighbour", "Retain").await;
        let nid = neighbour["id"].as_str().unwrap();
        upload(&app, &w.ann, nid, "reports/keep.csv", b"keep").await;

        let mkdir = |path: &str, name: &str| json!({"id": id, "path": path, "name": name});
        let r = app
            .post(
                "/v1/datasets/createdatasetdirectory",
                Some(&w.ann.token),
                mkdir("", "   "),
            )
            .await;
        assert_eq!(msg(&r), (400, "Empty folder name not allowed".into()), "{k}");
        let r = app
            .post(
                "/v1/datasets/createdatasetdirectory",
                Some(&w.ann.token),
                mkdir("", "a/b"),
            )
            .await;
        assert_eq!(r.0, 400, "{k}: one segment: {}", r.1);
        let r = app
            .post(
                "/v1/datasets/createdatasetdirectory",
                Some(&w.ann.token),
                mkdir("", " reports "),
            )
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(r.1["Key"], "reports/");
        let r = app
            .post(
                "/v1/datasets/createdatasetdirectory",
                Some(&w.ann.token),
                mkdir("reports/", "2026"),
            )
            .await;
        assert_eq!(r.1["Key"], "reports/2026/", "{k}: {}", r.1);
        // An empty folder is listed (its marker is not).
        let r = list(&app, &w.ann, id, json!({"path": ""})).await;
        assert_eq!(folders_of(&r.1), ["reports/"], "{k}: {}", r.1);
        assert!(keys_of(&r.1).is_empty(), "{k}: the marker is hidden");
        let r = list(&app, &w.ann, id, json!({"path": "reports/"})).await;
        assert_eq!(folders_of(&r.1), ["reports/2026/"], "{k}: {}", r.1);

        upload(&app, &w.ann, id, "reports/2026/q1.csv", b"1").await;
        upload(&app, &w.ann, id, "reports/q0.csv", b"0").await;
        upload(&app, &w.ann, id, "reportsX.csv", b"sibling").await;
        upload(&app, &w.ann, id, "top.csv", b"top").await;

        // A viewer cannot delete or make folders.
        share_view(&app, &w.ann, id, &w.bob).await;
        let del = format!("/v1/datasets/deletedatasetobject/{id}");
        let r = app
            .post(&del, Some(&w.bob.token), json!({"path": "top.csv"}))
            .await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = app
            .post(
                "/v1/datasets/createdatasetdirectory",
                Some(&w.bob.token),
                mkdir("", "mine"),
            )
            .await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = app
            .post(&del, Some(&w.outsider.token), json!({"path": "top.csv"}))
            .await;
        assert_eq!(r.0, 404, "{k}");

        // The root cannot be deleted; a folder goes with everything in it, and nothing else.
        for root in ["", "/", ".", "./"] {
            let r = app.post(&del, Some(&w.ann.token), json!({"path": root})).await;
            assert_eq!(r.0, 400, "{k}: {root:?}: {}", r.1);
        }
        let r = app.post(&del, Some(&w.ann.token), json!({"paths": []})).await;
        assert_eq!(msg(&r), (400, "Choose a file or folder to delete".into()), "{k}");
        let r = app
            .post(&del, Some(&w.ann.token), json!({"paths": ["reports/"]}))
            .await;
        assert_eq!(msg(&r), (200, "File(s) Deleted!".into()), "{k}");
        assert!(r.1["deleted"].as_i64().unwrap() >= 2, "{k}: {}", r.1);
        let bucket = bucket_of(&app, id).await;
        let (p, np) = (prefix_of(&app, id).await, prefix_of(&app, nid).await);
        let left = stored(&app, &bucket, &p).await;
        assert_eq!(left, [format!("{p}reportsX.csv"), format!("{p}top.csv")], "{k}");
        let r = app
            .post(&del, Some(&w.ann.token), json!({"path": "top.csv"}))
            .await;
        assert_eq!(r.0, 200, "{k}");
        let left = stored(&app, &bucket, &p).await;
        assert_eq!(left, [format!("{p}reportsX.csv")], "{k}");
        let kept = stored(&app, &bucket, &np).await;
        assert_eq!(
            kept,
            [format!("{np}reports/keep.csv")],
            "{k}: the neighbour is untouched"
        );
    }
}

#[tokio::test]
async fn every_traversal_attempt_is_refused_and_nothing_outside_the_prefix_is_touched() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Fortress", "Retain").await;
        let id = d["id"].as_str().unwrap();
        let other = create(&app, &w.bob, "Victim", "Retain").await;
        let oid = other["id"].as_str().unwrap();
        upload(&app, &w.bob, oid, "secret.csv", b"secret").await;
        let bucket = bucket_of(&app, id).await;
        let s3 = app.state.s3.as_ref().unwrap();
        ludis_storage::objects::put(s3, &bucket, "outside.txt", b"outside".to_vec(), "text/plain")
            .await
            .unwrap();
        let (p, op) = (prefix_of(&app, id).await, prefix_of(&app, oid).await);
        let before_other = stored(&app, &bucket, &op).await;

        let attacks = [
            format!("../{oid}/secret.csv"),
            format!("a/../../{oid}/secret.csv"),
            "../../outside.txt".to_owned(),
            "/outside.txt".to_owned(),
            format!("/{op}secret.csv"),
            format!("../../{op}secret.csv"),
            "..".to_owned(),
            "a\\..\\..\\outside.txt".to_owned(),
            "a\u{0}b.csv".to_owned(),
            "a\nb.csv".to_owned(),
            "a\u{7f}.csv".to_owned(),
            "x/.ludis-folder".to_owned(),
            "x".repeat(1100),
        ];
        for path in &attacks {
            for (route, body) in [
                ("getpresignedurl", json!({"path": path, "method": "PUT"})),
                ("getpresignedurl", json!({"path": path, "method": "GET"})),
                ("getfilepreview", json!({"path": path})),
                ("get/ludisurl", json!({"path": path})),
                ("deletedatasetobject", json!({"path": path})),
                ("deletedatasetobject", json!({"paths": ["ok.csv", path]})),
                ("listfiles", json!({"path": path})),
            ] {
                let r = app
                    .post(&format!("/v1/datasets/{route}/{id}"), Some(&w.ann.token), body)
                    .await;
                assert_eq!(r.0, 400, "{k}: {route} {path:?}: {}", r.1);
                assert!(!r.1["message"].as_str().unwrap_or_default().is_empty());
            }
            let r = app
                .post(
                    "/v1/datasets/createdatasetdirectory",
                    Some(&w.ann.token),
                    json!({"id": id, "path": path, "name": "new"}),
                )
                .await;
            assert_eq!(r.0, 400, "{k}: createdatasetdirectory {path:?}: {}", r.1);
            let r = app
                .get(
                    &format!("/v1/datasets/download/{id}?path={}", urlencode(path)),
                    &w.ann.token,
                )
                .await;
            assert_eq!(r.0, 400, "{k}: download {path:?}: {}", r.1);
        }
        // Names that merely look odd are files inside the prefix.
        upload(&app, &w.ann, id, "..data/%2e%2e.csv", b"odd").await;
        assert_eq!(
            stored(&app, &bucket, &p).await,
            [format!("{p}..data/%2e%2e.csv")],
            "{k}"
        );
        assert_eq!(stored(&app, &bucket, &op).await, before_other, "{k}");
        assert_eq!(stored(&app, &bucket, "outside.txt").await, ["outside.txt"], "{k}");
    }
}

fn urlencode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[tokio::test]
async fn previews_show_the_first_rows_of_each_type() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Previews", "Retain").await;
        let id = d["id"].as_str().unwrap();
        let mut csv = String::from("city,temp\n");
        for i in 0..200 {
            csv.push_str(&format!("c{i},{i}\n"));
        }
        upload(&app, &w.ann, id, "t.csv", csv.as_bytes()).await;
        upload(
            &app,
            &w.ann,
            id,
            "t.json",
            br#"[{"a":1,"b":"x"},{"a":2,"c":true}]"#,
        )
        .await;
        upload(&app, &w.ann, id, "t.txt", b"line one\nline two\n").await;
        upload(&app, &w.ann, id, "t.xml", b"<rows><row id=\"1\"/></rows>\n").await;
        upload(&app, &w.ann, id, "t.pdf", b"%PDF-1.4").await;
        upload(&app, &w.ann, id, "broken.xlsx", b"not a zip").await;
        upload(&app, &w.ann, id, "t.xlsx", &xlsx_fixture()).await;
        upload(&app, &w.ann, id, "t.xls", XLS).await;
        let preview = |path: &str| {
            let path = path.to_owned();
            let app = &app;
            let token = w.ann.token.clone();
            async move {
                app.post(
                    &format!("/v1/datasets/getfilepreview/{id}"),
                    Some(&token),
                    json!({ "path": path }),
                )
                .await
            }
        };
        let r = preview("t.csv").await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(r.1["preview"]["columns"], json!(["city", "temp"]));
        assert_eq!(r.1["preview"]["rows"][0], json!(["c0", "0"]));
        assert_eq!(r.1["preview"]["rows"].as_array().unwrap().len(), 50);
        assert_eq!(r.1["preview"]["truncated"], true);
        let r = preview("t.json").await;
        assert_eq!(r.1["preview"]["columns"], json!(["a", "b", "c"]), "{k}: {}", r.1);
        assert_eq!(r.1["preview"]["rows"].as_array().unwrap().len(), 2);
        let r = preview("t.txt").await;
        assert!(
            r.1["preview"]["text"].as_str().unwrap().contains("line two"),
            "{k}: {}",
            r.1
        );
        let r = preview("t.xml").await;
        assert!(
            r.1["preview"]["text"].as_str().unwrap().contains("<row"),
            "{k}: {}",
            r.1
        );
        let r = preview("t.xlsx").await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(
            r.1["preview"]["columns"],
            json!(["name", "units"]),
            "{k}: {}",
            r.1
        );
        assert_eq!(r.1["preview"]["rows"][0], json!(["tea", "3"]));
        let r = preview("t.pdf").await;
        assert_eq!(
            msg(&r),
            (
                400,
                "Preview is available for .csv, .json, .xml, .txt, .xlsx and .xls files".into()
            ),
            "{k}"
        );
        let r = preview("broken.xlsx").await;
        assert_eq!(r.0, 400, "{k}: {}", r.1);
        // A workbook crafted to make the reader abort (its sheet claims 2³² rows) fails its own
        // worker process, not the server.
        upload(&app, &w.ann, id, "bomb.xls", &xls_claiming_four_billion_rows()).await;
        let r = preview("bomb.xls").await;
        assert_eq!(r.0, 400, "{k}: {}", r.1);
        assert!(
            r.1["message"]
                .as_str()
                .unwrap()
                .starts_with("The file could not be previewed"),
            "{k}: {}",
            r.1
        );
        let r = preview("t.xls").await;
        assert_eq!(r.0, 200, "{k}: the server is still up: {}", r.1);
        assert_eq!(r.1["preview"]["format"], "xls");
        assert!(!r.1["preview"]["rows"].as_array().unwrap().is_empty());
        let r = preview("missing.csv").await;
        assert_eq!(msg(&r), (404, "File not found".into()), "{k}");
    }
}

/// A real BIFF workbook (written with xlwt; see storage/tests/fixtures/make_xls.py).
const XLS: &[u8] = include_bytes!("../../../storage/tests/fixtures/sales.xls");

/// [`XLS`] with its first sheet's DIMENSIONS record claiming 2³² rows.
fn xls_claiming_four_billion_rows() -> Vec<u8> {
    let mut bytes = XLS.to_vec();
    let at = bytes
        .windows(8)
        .position(|w| w == [0x00, 0x02, 0x0E, 0x00, 0, 0, 0, 0])
        .expect("the fixture's first DIMENSIONS record");
    bytes[at + 8..at + 12].copy_from_slice(&u32::MAX.to_le_bytes());
    bytes
}

/// A small workbook (sheet "Sales": name, units / tea, 3 / coffee, 5), built in memory.
fn xlsx_fixture() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("Sales").unwrap();
    sheet.write_string(0, 0, "name").unwrap();
    sheet.write_string(0, 1, "units").unwrap();
    sheet.write_string(1, 0, "tea").unwrap();
    sheet.write_number(1, 1, 3).unwrap();
    sheet.write_string(2, 0, "coffee").unwrap();
    sheet.write_number(2, 1, 5).unwrap();
    book.save_to_buffer().unwrap()
}

#[tokio::test]
async fn the_permanent_url_needs_the_api_key_and_the_temporary_one_none() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Links", "Retain").await;
        let id = d["id"].as_str().unwrap();
        upload(&app, &w.ann, id, "dir/my file.csv", b"x,y\n").await;
        let r = app
            .post(
                &format!("/v1/datasets/get/ludisurl/{id}"),
                Some(&w.ann.token),
                json!({"path": "dir/my file.csv"}),
            )
            .await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        let temporary = r.1["temporary_url"].as_str().unwrap();
        assert!(temporary.contains("/v1/datasets/link/"), "{k}: {temporary}");
        let week = r.1["expires_at"].as_i64().unwrap() - db::now();
        assert!((604_700..=604_800).contains(&week), "{k}: 7 days ({week} s)");
        let permanent = r.1["permanent_url"].as_str().unwrap();
        assert!(
            permanent.ends_with(&format!("/v1/datasets/download/{id}?path=dir%2Fmy%20file.csv")),
            "{k}: {permanent}"
        );
        let got = reqwest::get(temporary).await.unwrap();
        assert_eq!(got.status(), 200, "{k}");
        assert_eq!(got.text().await.unwrap(), "x,y\n");

        let no_redirect = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let anonymous = no_redirect.get(permanent).send().await.unwrap();
        assert_eq!(anonymous.status(), 401, "{k}: the permanent URL needs a key");
        let wrong = no_redirect
            .get(permanent)
            .header("x-api-key", "not-a-key")
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), 401, "{k}");

        let key_of = |p: &Person| {
            let (uid, token) = (p.uid.clone(), p.token.clone());
            let app = &app;
            async move {
                let r = app
                    .post(&format!("/v1/users/{uid}/api_key"), Some(&token), json!({}))
                    .await;
                assert_eq!(r.0, 200, "{}", r.1);
                r.1["api_key"].as_str().unwrap().to_owned()
            }
        };
        let anns_key = key_of(&w.ann).await;
        let with_key = reqwest::Client::new()
            .get(permanent)
            .header("x-api-key", &anns_key)
            .send()
            .await
            .unwrap();
        assert_eq!(with_key.status(), 200, "{k}: followed to storage");
        assert_eq!(with_key.text().await.unwrap(), "x,y\n");
        // The redirect goes to the storage endpoint's bucket, whatever the file is called (issue
        // 12: no answer of ours sends the browser to a site the request names).
        let storage = reqwest::Url::parse(&std::env::var("LUDIS_S3_ENDPOINT").unwrap()).unwrap();
        let download = |path: &str| {
            no_redirect
                .get(app.url(&format!("/v1/datasets/download/{id}?path={}", urlencode(path))))
                .header("x-api-key", &anns_key)
                .send()
        };
        for name in [
            "@evil.example.csv",
            "a?b=1#c.csv",
            "https:/evil.example/y.csv",
            "%2F%2Fevil.example/z.csv",
        ] {
            upload(&app, &w.ann, id, name, b"z").await;
            let res = download(name).await.unwrap();
            assert_eq!(res.status(), 303, "{k}: {name}");
            let location = res.headers()["location"].to_str().unwrap();
            let to = reqwest::Url::parse(location).unwrap();
            assert_eq!(
                (to.scheme(), to.host_str(), to.port()),
                (storage.scheme(), storage.host_str(), storage.port()),
                "{k}: {name} → {location}"
            );
            assert!(
                to.path()
                    .starts_with(&format!("/{}/datasets/", app.state.settings.s3_bucket)),
                "{k}: {name} → {location}"
            );
        }
        for path in [
            "//evil.example/x.csv",
            "/\\evil.example/x.csv",
            "../../evil.example/x.csv",
        ] {
            let res = download(path).await.unwrap();
            assert!(
                res.headers().get("location").is_none(),
                "{k}: {path} → {} {:?}",
                res.status(),
                res.headers().get("location")
            );
        }
        // Access is checked on every use: a key of someone without access gets 404.
        let bobs_key = key_of(&w.bob).await;
        let r = no_redirect
            .get(permanent)
            .header("x-api-key", &bobs_key)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404, "{k}");
        let r = app
            .call(
                Method::GET,
                &format!("/v1/datasets/download/{id}?path=nope.csv"),
                Some(&w.ann.token),
                None,
            )
            .await;
        assert_eq!(msg(&r), (404, "File not found".into()), "{k}");
    }
}

/// Without a cluster the API deletes a dataset's files itself, as its deletion policy says. With
/// one, the operator's finalizer does: `operator/tests/e2e_datasets.rs` runs the API and the
/// operator together for that case (so the API does not depend on the operator, even for tests).
#[tokio::test]
async fn deleting_a_dataset_follows_its_deletion_policy() {
    let Some(s3) = s3_settings() else { return };
    for app in apps_with(s3).await {
        if app.state.kube.is_some() {
            eprintln!(
                "{}: with a cluster, operator/tests/e2e_datasets.rs checks this",
                app.kind
            );
            continue;
        }
        let w = world(&app).await;
        let k = app.kind;
        for (policy, kept) in [("Delete", false), ("Retain", true)] {
            let d = create(&app, &w.ann, &format!("{policy} policy"), policy).await;
            let id = d["id"].as_str().unwrap().to_owned();
            upload(&app, &w.ann, &id, "a/b.csv", b"1").await;
            upload(&app, &w.ann, &id, "c.csv", b"22").await;
            let bucket = bucket_of(&app, &id).await;
            let prefix = prefix_of(&app, &id).await;
            let r = app.delete(&format!("/v1/datasets/{id}"), &w.ann.token).await;
            assert_eq!(r.0, 200, "{k}: {}", r.1);
            let left = stored(&app, &bucket, &prefix).await;
            assert_eq!(!left.is_empty(), kept, "{k}: {policy}: {left:?}");
            let r = app
                .post(
                    &format!("/v1/datasets/getdatasetdetails/{id}"),
                    Some(&w.ann.token),
                    json!({}),
                )
                .await;
            assert_eq!(r.0, 404, "{k}");
        }
    }
}

#[tokio::test]
async fn the_datasets_feature_switched_off_for_a_role_is_refused_with_a_token_or_an_api_key() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Gated", "Retain").await;
        let id = d["id"].as_str().unwrap().to_owned();
        upload(&app, &w.ann, &id, "a.csv", b"1").await;
        let r = app
            .post(
                &format!("/v1/users/{}/api_key", w.ann.uid),
                Some(&w.ann.token),
                json!({}),
            )
            .await;
        let key = r.1["api_key"].as_str().unwrap().to_owned();
        let org = db::users::by_uid(&app.state.db, &w.ann.uid)
            .await
            .unwrap()
            .unwrap()
            .organization_id;
        let mut flags = ludis_api::policy::flags::defaults();
        for f in &mut flags {
            if f.key == "datasets" {
                f.user_roles = vec!["administrator".parse().unwrap()];
            }
        }
        db::flighting::upsert_all(&app.state.db, &org, &flags)
            .await
            .unwrap();
        let off = (
            403,
            "The Datasets feature is not enabled for your role".to_owned(),
        );
        let r = app.get("/v1/datasets/listdatasets", &w.ann.token).await;
        assert_eq!(msg(&r), off, "{k}");
        let r = presign(&app, &w.ann, &id, "a.csv", "GET").await;
        assert_eq!(msg(&r), off, "{k}");
        let with_key = |path: String| {
            let key = key.clone();
            let app = &app;
            async move {
                let res = reqwest::Client::builder()
                    .redirect(reqwest::redirect::Policy::none())
                    .build()
                    .unwrap()
                    .request(Method::GET, app.url(&path))
                    .header("x-api-key", key)
                    .send()
                    .await
                    .unwrap();
                let status = res.status();
                (status, res.json::<Value>().await.unwrap_or(Value::Null))
            }
        };
        let r = with_key("/v1/datasets/listdatasets".into()).await;
        assert_eq!(msg(&r), off, "{k}: an API key is gated too");
        let r = with_key(format!("/v1/datasets/download/{id}?path=a.csv")).await;
        assert_eq!(msg(&r), off, "{k}");
        // The administrator's role keeps it.
        let r = app.get("/v1/datasets/listdatasets", &w.admin.token).await;
        assert_eq!(r.0, 200, "{k}");
    }
}

#[tokio::test]
async fn two_replicas_giving_an_organization_its_samples_make_each_once() {
    let s3 = s3_settings()
        .expect("no object storage: dev/test.sh starts the S3 server and sets LUDIS_S3_ENDPOINT");
    for app in apps_with(move |s| {
        s3(s);
        s.sample_datasets = true;
    })
    .await
    {
        let org = app.unique_org("Samples").await;
        // Two API replicas starting at once (or a start and a new organization's task) both
        // find the samples missing.
        let (a, b) = tokio::join!(
            ludis_api::samples::ensure_for(&app.state, &org),
            ludis_api::samples::ensure_for(&app.state, &org)
        );
        let added = a.unwrap() + b.unwrap();
        assert_eq!(added, ludis_api::samples::SAMPLES.len(), "{}", app.kind);
        let samples: Vec<String> = sqlx::query_scalar(
            "SELECT d.sample FROM datasets d JOIN assets a ON a.id = d.id \
             WHERE a.organization_id = $1 AND d.sample IS NOT NULL ORDER BY d.sample",
        )
        .bind(&org)
        .fetch_all(&app.state.db)
        .await
        .unwrap();
        assert_eq!(
            samples,
            ["city-weather", "retail-sales"],
            "{}: each once",
            app.kind
        );
        // Given once: a later start adds nothing.
        assert_eq!(ludis_api::samples::ensure_for(&app.state, &org).await.unwrap(), 0);
    }
}

/// A temporary link to `path` of dataset `id`, made by `who`.
async fn temporary_link(app: &TestApp, who: &Person, id: &str, path: &str) -> String {
    let r = app
        .post(
            &format!("/v1/datasets/get/ludisurl/{id}"),
            Some(&who.token),
            json!({"path": path}),
        )
        .await;
    assert_eq!(r.0, 200, "{}", r.1);
    r.1["temporary_url"].as_str().unwrap().to_owned()
}

/// What an anonymous GET of `link` answers: its status, and the file's text when it is 200.
async fn use_link(link: &str) -> (u16, String) {
    let got = reqwest::get(link).await.unwrap();
    (got.status().as_u16(), got.text().await.unwrap())
}

#[tokio::test]
async fn temporary_links_are_listed_to_editors_revocable_and_die_with_the_dataset_and_the_share() {
    for app in s3_apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let d = create(&app, &w.ann, "Shared links", "Retain").await;
        let id = d["id"].as_str().unwrap();
        upload(&app, &w.ann, id, "q3.csv", b"q,3\n").await;
        app.share(id, "user", &w.bob.uid, "view", &w.ann.uid).await;
        let gone_body = |r: (u16, String)| {
            let v: Value = serde_json::from_str(&r.1).unwrap_or(Value::Null);
            (r.0, v["message"].as_str().unwrap_or_default().to_owned())
        };

        // Ann's link and Bob's (a viewer's) work without any key.
        let anns = temporary_link(&app, &w.ann, id, "q3.csv").await;
        let bobs = temporary_link(&app, &w.bob, id, "q3.csv").await;
        assert_eq!(use_link(&anns).await, (200, "q,3\n".into()), "{k}");
        assert_eq!(use_link(&bobs).await, (200, "q,3\n".into()), "{k}");

        // The editor sees both (who, which file, until when); a viewer may not list them.
        let r = app.get(&format!("/v1/datasets/links/{id}"), &w.ann.token).await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        let links = r.1["links"].as_array().unwrap().clone();
        let makers: std::collections::BTreeSet<&str> =
            links.iter().map(|l| l["created_by"].as_str().unwrap()).collect();
        assert_eq!(
            makers,
            std::collections::BTreeSet::from([w.ann.email.as_str(), w.bob.email.as_str()]),
            "{k}"
        );
        assert!(links.iter().all(|l| l["path"] == "q3.csv"), "{k}");
        assert!(
            !r.1.to_string().contains(anns.rsplit('/').next().unwrap()),
            "{k}: no token is listed"
        );
        let r = app.get(&format!("/v1/datasets/links/{id}"), &w.bob.token).await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = app
            .get(&format!("/v1/datasets/links/{id}"), &w.outsider.token)
            .await;
        assert_eq!(r.0, 404, "{k}");

        // Revoked by the editor: it stops at once; the other goes on.
        let anns_id = links
            .iter()
            .find(|l| l["created_by"] == w.ann.email.as_str())
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let r = app
            .delete(&format!("/v1/datasets/links/{id}/{anns_id}"), &w.bob.token)
            .await;
        assert_eq!(msg(&r), (403, "You need edit access".into()), "{k}");
        let r = app
            .delete(&format!("/v1/datasets/links/{id}/{anns_id}"), &w.ann.token)
            .await;
        assert_eq!(msg(&r), (200, "Link revoked".into()), "{k}");
        assert_eq!(
            gone_body(use_link(&anns).await),
            (404, "This link has expired or was revoked".into()),
            "{k}"
        );
        assert_eq!(use_link(&bobs).await.0, 200, "{k}");

        // Bob's link dies with his access.
        db::shares::apply_console(
            &app.state.db,
            id,
            &[],
            &[("user".parse().unwrap(), w.bob.uid.as_str())],
            &w.ann.uid,
            db::now(),
        )
        .await
        .unwrap();
        assert_eq!(gone_body(use_link(&bobs).await).0, 404, "{k}");

        // Every link dies with the dataset. A token that never was: the same answer.
        let again = temporary_link(&app, &w.ann, id, "q3.csv").await;
        assert_eq!(use_link(&again).await.0, 200, "{k}");
        let r = app.delete(&format!("/v1/datasets/{id}"), &w.ann.token).await;
        assert_eq!(r.0, 200, "{k}: {}", r.1);
        assert_eq!(
            gone_body(use_link(&again).await),
            (404, "This link has expired or was revoked".into()),
            "{k}"
        );
        let made_up = format!("{}/never-made", again.rsplit_once('/').unwrap().0);
        assert_eq!(gone_body(use_link(&made_up).await).0, 404, "{k}");
    }
}
