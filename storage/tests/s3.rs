//! The object layer against a real S3 server: presigned URLs used by a plain HTTP client (and
//! refused for another method, another key, or once expired), folder listings page by page,
//! folder markers, recursive deletes that stay inside their folder, reads and usage.
//!
//! Needs LUDIS_S3_ENDPOINT, LUDIS_S3_ACCESS_KEY and LUDIS_S3_SECRET_KEY (the server of
//! `dev/s3.sh`; LUDIS_S3_BUCKET, default `ludis`). Without LUDIS_S3_ENDPOINT the tests are skipped,
//! except under CI, where that is a failure. Each test works under its own dataset prefix.

use std::{
    sync::atomic::{AtomicU32, Ordering},
    time::Duration,
};

use ludis_storage::{
    S3Settings, client, dataset_prefix, delete_prefix, ensure_bucket,
    keys::{self, FOLDER_MARKER},
    objects,
    presign::{DOWNLOAD_EXPIRES, Presigner, UPLOAD_EXPIRES},
    usage,
};

struct Env {
    s3: aws_sdk_s3::Client,
    settings: S3Settings,
    bucket: String,
}

async fn env() -> Option<Env> {
    let Ok(endpoint) = std::env::var("LUDIS_S3_ENDPOINT") else {
        if std::env::var_os("CI").is_some() {
            panic!(
                "LUDIS_S3_ENDPOINT is not set: CI must run these tests against the S3 server of dev/s3.sh"
            );
        }
        eprintln!("skipped: LUDIS_S3_ENDPOINT is not set (start the S3 server with dev/s3.sh up)");
        return None;
    };
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    let settings = S3Settings {
        endpoint,
        region: "us-east-1".into(),
        access_key: var("LUDIS_S3_ACCESS_KEY"),
        secret_key: var("LUDIS_S3_SECRET_KEY"),
    };
    let bucket = std::env::var("LUDIS_S3_BUCKET").unwrap_or_else(|_| "ludis".into());
    let s3 = client(&settings);
    ensure_bucket(&s3, &bucket).await.unwrap();
    Some(Env { s3, settings, bucket })
}

/// A dataset prefix no other test (or run) uses.
fn fresh_prefix() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    dataset_prefix(
        "it-storage",
        &format!("it-storage-{nanos}-{}", N.fetch_add(1, Ordering::Relaxed)),
    )
}

impl Env {
    async fn put(&self, prefix: &str, relative: &str, body: &[u8]) {
        objects::put(
            &self.s3,
            &self.bucket,
            &keys::absolute(prefix, relative),
            body.to_vec(),
            "text/plain",
        )
        .await
        .unwrap();
    }

    async fn exists(&self, absolute: &str) -> bool {
        self.s3
            .head_object()
            .bucket(&self.bucket)
            .key(absolute)
            .send()
            .await
            .is_ok()
    }

    async fn list(&self, prefix: &str, folder: &str) -> objects::Page {
        objects::list_page(&self.s3, &self.bucket, prefix, folder, 1000, None)
            .await
            .unwrap()
    }

    fn file_keys(page: &objects::Page) -> Vec<&str> {
        page.files.iter().map(|f| f.key.as_str()).collect()
    }
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

#[tokio::test]
async fn presigned_put_then_get_over_plain_http() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    let presigner = Presigner::new(&env.settings);
    let http = http();
    // Spaces, unicode, '+' and '%' must survive the URL's encoding and the server's decoding.
    for relative in ["a.csv", "dir/été 100% a+b.csv", "数据/x y+z.json"] {
        let key = keys::absolute(&prefix, &keys::file(relative).unwrap());
        let body = format!("name,n\n{relative},1\n");
        let put = presigner
            .url("PUT", &env.bucket, &key, UPLOAD_EXPIRES, None)
            .await
            .unwrap();
        // The browser may send any Content-Type: it is not signed.
        let res = http
            .put(&put)
            .header("content-type", "text/csv")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(
            res.status(),
            200,
            "PUT {put}: {}",
            res.text().await.unwrap_or_default()
        );

        let got = env.s3.head_object().bucket(&env.bucket).key(&key).send().await;
        assert_eq!(
            got.unwrap().content_length(),
            Some(body.len() as i64),
            "stored under the exact key {key:?}"
        );

        let get = presigner
            .url("GET", &env.bucket, &key, DOWNLOAD_EXPIRES, None)
            .await
            .unwrap();
        let res = http.get(&get).send().await.unwrap();
        assert_eq!(res.status(), 200, "GET {get}");
        assert_eq!(res.text().await.unwrap(), body);

        let head = presigner
            .url("HEAD", &env.bucket, &key, DOWNLOAD_EXPIRES, None)
            .await
            .unwrap();
        let res = http.head(&head).send().await.unwrap();
        assert_eq!(res.status(), 200, "HEAD {head}");
    }
    let listed = env.list(&prefix, "dir/").await;
    assert_eq!(Env::file_keys(&listed), ["dir/été 100% a+b.csv"]);
}

#[tokio::test]
async fn a_download_url_can_name_the_file() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    env.put(&prefix, "r.csv", b"x\n").await;
    let presigner = Presigner::new(&env.settings);
    let url = presigner
        .url(
            "GET",
            &env.bucket,
            &keys::absolute(&prefix, "r.csv"),
            DOWNLOAD_EXPIRES,
            Some("rapport été.csv"),
        )
        .await
        .unwrap();
    let res = http().get(&url).send().await.unwrap();
    assert_eq!(
        res.status(),
        200,
        "the disposition parameter is part of the signature: {url}"
    );
    let disposition = res
        .headers()
        .get("content-disposition")
        .map(|v| v.as_bytes().to_vec());
    assert_eq!(
        disposition.as_deref(),
        Some(&b"attachment; filename=\"rapport _t_.csv\"; filename*=UTF-8''rapport%20%C3%A9t%C3%A9.csv"[..])
    );
    // Changing the disposition breaks the signature.
    let tampered = url.replace("attachment", "inline");
    assert_eq!(http().get(&tampered).send().await.unwrap().status(), 403);
}

#[tokio::test]
async fn a_url_is_bound_to_its_method_and_key() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    env.put(&prefix, "a.csv", b"original").await;
    env.put(&prefix, "b.csv", b"other").await;
    let presigner = Presigner::new(&env.settings);
    let http = http();
    let a = keys::absolute(&prefix, "a.csv");

    let get = presigner
        .url("GET", &env.bucket, &a, DOWNLOAD_EXPIRES, None)
        .await
        .unwrap();
    let res = http.put(&get).body("overwritten").send().await.unwrap();
    assert_eq!(res.status(), 403, "a GET URL used for PUT");
    let res = http.delete(&get).send().await.unwrap();
    assert_eq!(res.status(), 403, "a GET URL used for DELETE");

    let put = presigner
        .url("PUT", &env.bucket, &a, UPLOAD_EXPIRES, None)
        .await
        .unwrap();
    let res = http.get(&put).send().await.unwrap();
    assert_eq!(res.status(), 403, "a PUT URL used for GET");

    // The same signature on another key.
    let other = get.replace("/a.csv?", "/b.csv?");
    assert_ne!(other, get);
    assert_eq!(
        http.get(&other).send().await.unwrap().status(),
        403,
        "a URL moved to another key"
    );

    let res = http.get(&get).send().await.unwrap();
    assert_eq!(res.text().await.unwrap(), "original", "nothing was overwritten");
}

#[tokio::test]
async fn an_expired_url_is_refused() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    env.put(&prefix, "a.csv", b"x").await;
    let presigner = Presigner::new(&env.settings);
    let key = keys::absolute(&prefix, "a.csv");
    let short = presigner
        .url("GET", &env.bucket, &key, Duration::from_secs(1), None)
        .await
        .unwrap();
    let long = presigner
        .url("GET", &env.bucket, &key, Duration::from_secs(60), None)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let http = http();
    assert_eq!(http.get(&short).send().await.unwrap().status(), 403, "expired");
    assert_eq!(http.get(&long).send().await.unwrap().status(), 200, "still valid");
}

#[tokio::test]
async fn listing_pages_through_a_folder_with_continuation_tokens() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    let mut puts = tokio::task::JoinSet::new();
    for i in 0..250 {
        let (s3, bucket, key) = (
            env.s3.clone(),
            env.bucket.clone(),
            format!("{prefix}p/obj-{i:03}.csv"),
        );
        puts.spawn(async move { objects::put(&s3, &bucket, &key, vec![b'x'; i], "text/csv").await });
    }
    while let Some(done) = puts.join_next().await {
        done.unwrap().unwrap();
    }
    env.put(&prefix, "p/sub/deeper.csv", b"x").await;

    let mut token: Option<String> = None;
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    loop {
        let page = objects::list_page(&env.s3, &env.bucket, &prefix, "p/", 100, token.as_deref())
            .await
            .unwrap();
        pages.push((page.files.len(), page.folders.clone(), page.is_truncated));
        seen.extend(page.files.iter().map(|f| (f.key.clone(), f.size)));
        for f in &page.files {
            let at = f.last_modified.as_deref().unwrap_or_default();
            assert!(
                at.len() >= 20 && at.contains('T') && at.ends_with('Z'),
                "RFC 3339: {at:?}"
            );
        }
        match page.next_token {
            Some(next) => {
                assert!(page.is_truncated);
                token = Some(next);
            }
            None => {
                assert!(!page.is_truncated);
                break;
            }
        }
        assert!(pages.len() < 10, "the listing does not end");
    }
    // 250 files and one folder: 100 + 100 + 51 entries.
    let sizes: Vec<usize> = pages.iter().map(|p| p.0 + p.1.len()).collect();
    assert_eq!(sizes, [100, 100, 51], "{pages:?}");
    assert_eq!(
        pages.iter().flat_map(|p| p.1.clone()).collect::<Vec<_>>(),
        ["p/sub/"]
    );
    let want: Vec<(String, i64)> = (0..250)
        .map(|i| (format!("p/obj-{i:03}.csv"), i as i64))
        .collect();
    assert_eq!(seen, want, "every key once, in order, relative to the dataset");
}

#[tokio::test]
async fn folders_are_listed_when_they_hold_something_or_have_a_marker() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    env.put(&prefix, "top.csv", b"1").await;
    env.put(&prefix, "implicit/x.csv", b"1").await;
    objects::create_folder(&env.s3, &env.bucket, &prefix, "empty/")
        .await
        .unwrap();
    objects::create_folder(&env.s3, &env.bucket, &prefix, "a/b/")
        .await
        .unwrap();
    // An object named like a folder (as some tools write): not a file of that folder.
    objects::put(
        &env.s3,
        &env.bucket,
        &format!("{prefix}raw/"),
        Vec::new(),
        "application/x-directory",
    )
    .await
    .unwrap();
    env.put(&prefix, "raw/in.txt", b"1").await;

    let root = env.list(&prefix, "").await;
    assert_eq!(Env::file_keys(&root), ["top.csv"]);
    assert_eq!(root.folders, ["a/", "empty/", "implicit/", "raw/"]);
    assert!(!root.is_truncated && root.next_token.is_none());

    let empty = env.list(&prefix, "empty/").await;
    assert!(
        empty.files.is_empty() && empty.folders.is_empty(),
        "the marker is hidden: {empty:?}"
    );
    assert!(env.exists(&format!("{prefix}empty/{FOLDER_MARKER}")).await);

    let a = env.list(&prefix, "a/").await;
    assert_eq!(
        (Env::file_keys(&a), a.folders.clone()),
        (vec![], vec!["a/b/".to_string()])
    );
    let raw = env.list(&prefix, "raw/").await;
    assert_eq!(Env::file_keys(&raw), ["raw/in.txt"]);

    // Markers are not counted; the object named like a folder is not either.
    assert_eq!(usage(&env.s3, &env.bucket, &prefix).await.unwrap(), (3, 3));

    // Keys that are not normalised are refused before reaching S3.
    for bad in ["../", "a", "/", "a//"] {
        let e = objects::list_page(&env.s3, &env.bucket, &prefix, bad, 10, None)
            .await
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("failed to list"), "{bad:?}: {e}");
    }
    assert!(
        objects::create_folder(&env.s3, &env.bucket, &prefix, "")
            .await
            .is_err()
    );
    assert!(
        objects::create_folder(&env.s3, &env.bucket, &prefix, "x")
            .await
            .is_err()
    );
}

#[tokio::test]
async fn deleting_a_folder_removes_everything_under_it_and_nothing_beside_it() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    let other = fresh_prefix();
    objects::create_folder(&env.s3, &env.bucket, &prefix, "f/")
        .await
        .unwrap();
    objects::create_folder(&env.s3, &env.bucket, &prefix, "f/sub/")
        .await
        .unwrap();
    env.put(&prefix, "f/1.csv", b"1").await;
    env.put(&prefix, "f/sub/2.csv", b"2").await;
    env.put(&prefix, "f/sub/deep/3.csv", b"3").await;
    // Neighbours whose keys start with the same letters, and the same folder in another dataset.
    env.put(&prefix, "f2/x.csv", b"x").await;
    env.put(&prefix, "fx", b"x").await;
    env.put(&prefix, "f.csv", b"x").await;
    env.put(&other, "f/y.csv", b"y").await;

    let deleted = objects::delete(&env.s3, &env.bucket, &prefix, "f/")
        .await
        .unwrap();
    assert_eq!(deleted, 3, "three files; the two markers are not counted");

    let listing = env
        .s3
        .list_objects_v2()
        .bucket(&env.bucket)
        .prefix(&prefix)
        .send()
        .await
        .unwrap();
    let mut left: Vec<&str> = listing.contents().iter().filter_map(|o| o.key()).collect();
    left.sort();
    let want = [
        format!("{prefix}f.csv"),
        format!("{prefix}f2/x.csv"),
        format!("{prefix}fx"),
    ];
    assert_eq!(left, want.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        env.exists(&format!("{other}f/y.csv")).await,
        "the other dataset is untouched"
    );
    let root = env.list(&prefix, "").await;
    assert_eq!(root.folders, ["f2/"]);

    // Deleting it again removes nothing; the root and unnormalised keys are refused.
    assert_eq!(
        objects::delete(&env.s3, &env.bucket, &prefix, "f/")
            .await
            .unwrap(),
        0
    );
    for bad in ["", "/", "../", "f/../", "./f2/"] {
        assert!(
            objects::delete(&env.s3, &env.bucket, &prefix, bad).await.is_err(),
            "{bad:?}"
        );
    }
    assert!(env.exists(&format!("{prefix}f2/x.csv")).await);
}

#[tokio::test]
async fn deleting_one_file() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    env.put(&prefix, "d/a.csv", b"a").await;
    env.put(&prefix, "d/a.csv.bak", b"b").await;
    env.put(&prefix, "d/a.csvx/in.csv", b"c").await;
    assert_eq!(
        objects::delete(&env.s3, &env.bucket, &prefix, "d/a.csv")
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        objects::delete(&env.s3, &env.bucket, &prefix, "d/a.csv")
            .await
            .unwrap(),
        0,
        "already gone"
    );
    assert_eq!(
        objects::head(&env.s3, &env.bucket, &prefix, "d/a.csv")
            .await
            .unwrap(),
        None
    );
    let d = env.list(&prefix, "d/").await;
    assert_eq!(Env::file_keys(&d), ["d/a.csv.bak"]);
    assert_eq!(d.folders, ["d/a.csvx/"]);
}

#[tokio::test]
async fn more_than_a_thousand_objects_are_deleted_in_batches() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    let mut puts = tokio::task::JoinSet::new();
    for i in 0..1010 {
        let (s3, bucket, key) = (env.s3.clone(), env.bucket.clone(), format!("{prefix}big/{i:04}"));
        puts.spawn(async move { objects::put(&s3, &bucket, &key, Vec::new(), "text/plain").await });
        if puts.len() >= 32 {
            puts.join_next().await.unwrap().unwrap().unwrap();
        }
    }
    while let Some(done) = puts.join_next().await {
        done.unwrap().unwrap();
    }
    objects::create_folder(&env.s3, &env.bucket, &prefix, "big/")
        .await
        .unwrap();
    assert_eq!(usage(&env.s3, &env.bucket, &prefix).await.unwrap(), (1010, 0));
    assert_eq!(
        objects::delete(&env.s3, &env.bucket, &prefix, "big/")
            .await
            .unwrap(),
        1010
    );
    assert_eq!(usage(&env.s3, &env.bucket, &prefix).await.unwrap(), (0, 0));
    // The whole-dataset delete of the operator counts markers too.
    objects::create_folder(&env.s3, &env.bucket, &prefix, "m/")
        .await
        .unwrap();
    env.put(&prefix, "m/x", b"x").await;
    assert_eq!(delete_prefix(&env.s3, &env.bucket, &prefix).await.unwrap(), 2);
}

#[tokio::test]
async fn head_and_read_head() {
    let Some(env) = env().await else { return };
    let prefix = fresh_prefix();
    let body: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
    env.put(&prefix, "data/blob.bin", &body).await;
    env.put(&prefix, "data/empty.csv", b"").await;
    let (s3, bucket) = (&env.s3, env.bucket.as_str());

    assert_eq!(
        objects::head(s3, bucket, &prefix, "data/blob.bin").await.unwrap(),
        Some(3000)
    );
    assert_eq!(
        objects::head(s3, bucket, &prefix, "data/none").await.unwrap(),
        None
    );

    let (first, size) = objects::read_head(s3, bucket, &prefix, "data/blob.bin", 100)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((first.as_slice(), size), (&body[..100], 3000));
    let (all, size) = objects::read_head(s3, bucket, &prefix, "data/blob.bin", 10_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((all, size), (body.clone(), 3000));
    let (exact, _) = objects::read_head(s3, bucket, &prefix, "data/blob.bin", 3000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(exact, body);
    let (none, size) = objects::read_head(s3, bucket, &prefix, "data/blob.bin", 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((none.len(), size), (0, 3000));

    assert_eq!(
        objects::read_head(s3, bucket, &prefix, "data/empty.csv", 100)
            .await
            .unwrap(),
        Some((Vec::new(), 0))
    );
    assert_eq!(
        objects::read_head(s3, bucket, &prefix, "data/none", 100)
            .await
            .unwrap(),
        None
    );
    assert!(
        objects::read_head(s3, bucket, &prefix, "data/", 100)
            .await
            .is_err(),
        "a folder is not a file"
    );
    assert!(objects::head(s3, bucket, &prefix, "../x").await.is_err());
}
