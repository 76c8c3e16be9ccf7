//! Proof that the local S3 server speaks the protocol: signed put and list through the AWS SDK,
//! and a presigned GET by a plain HTTP client, bound to its method and unusable once tampered.
//!
//! Needs the S3 server of `dev/s3.sh` (the test command starts it): LUDIS_S3_ENDPOINT,
//! LUDIS_S3_ACCESS_KEY, LUDIS_S3_SECRET_KEY.

use std::time::Duration;

use aws_sdk_s3::{Client, presigning::PresigningConfig, primitives::ByteStream};
use ludis_storage::{self as storage, S3Settings};

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the tests with dev/test.sh, or start the S3 server with dev/s3.sh up")
    })
}

fn client() -> Client {
    storage::client(&S3Settings {
        endpoint: env("LUDIS_S3_ENDPOINT"),
        region: "us-east-1".into(),
        access_key: env("LUDIS_S3_ACCESS_KEY"),
        secret_key: env("LUDIS_S3_SECRET_KEY"),
    })
}

async fn fresh_bucket(s3: &Client, prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let bucket = format!("{prefix}-{}", nanos % 1_000_000_000_000);
    s3.create_bucket()
        .bucket(&bucket)
        .send()
        .await
        .expect("create bucket");
    bucket
}

#[tokio::test]
async fn put_list_and_presigned_get_over_plain_http() {
    let s3 = client();
    let bucket = fresh_bucket(&s3, "it-s3").await;

    for (key, body) in [
        ("data/a.csv", "x,y\n1,2\n"),
        ("data/b.json", "{\"k\":1}"),
        ("top.txt", "top"),
    ] {
        s3.put_object()
            .bucket(&bucket)
            .key(key)
            .body(ByteStream::from_static(body.as_bytes()))
            .send()
            .await
            .unwrap();
    }

    let listed = s3
        .list_objects_v2()
        .bucket(&bucket)
        .prefix("data/")
        .send()
        .await
        .unwrap();
    let mut keys: Vec<_> = listed.contents().iter().filter_map(|o| o.key()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["data/a.csv", "data/b.json"]);
    let sizes: Vec<_> = listed.contents().iter().filter_map(|o| o.size()).collect();
    assert!(sizes.contains(&8), "sizes were {sizes:?}");

    // A presigned GET works with no credentials, from a plain HTTP client.
    let presigned = s3
        .get_object()
        .bucket(&bucket)
        .key("data/a.csv")
        .presigned(PresigningConfig::expires_in(Duration::from_secs(60)).unwrap())
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let res = http.get(presigned.uri()).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "x,y\n1,2\n");

    // The signature binds the method and the key.
    let res = http.put(presigned.uri()).body("overwrite").send().await.unwrap();
    assert_eq!(res.status(), 403, "a GET URL must not allow PUT");
    let other_key = presigned.uri().replace("data/a.csv", "data/b.json");
    let res = http.get(other_key).send().await.unwrap();
    assert_eq!(res.status(), 403, "a URL for one key must not open another");

    // Without a signature the server refuses.
    let endpoint = env("LUDIS_S3_ENDPOINT");
    let res = http
        .get(format!("{endpoint}/{bucket}/data/a.csv"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

#[tokio::test]
async fn listing_pages_with_a_continuation_token() {
    let s3 = client();
    let bucket = fresh_bucket(&s3, "it-s3-pages").await;
    for i in 0..5 {
        s3.put_object()
            .bucket(&bucket)
            .key(format!("f{i}.txt"))
            .body(ByteStream::from_static(b"x"))
            .send()
            .await
            .unwrap();
    }
    let mut seen = Vec::new();
    let mut token = None;
    let mut pages = 0;
    loop {
        let page = s3
            .list_objects_v2()
            .bucket(&bucket)
            .max_keys(2)
            .set_continuation_token(token)
            .send()
            .await
            .unwrap();
        pages += 1;
        seen.extend(page.contents().iter().filter_map(|o| o.key().map(str::to_owned)));
        if !page.is_truncated().unwrap_or(false) {
            break;
        }
        token = page.next_continuation_token().map(str::to_owned);
        assert!(token.is_some(), "a truncated page carries a continuation token");
    }
    assert_eq!(pages, 3);
    assert_eq!(seen, ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"]);
}
