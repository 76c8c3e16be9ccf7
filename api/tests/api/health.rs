use ludis_api::{App, Settings};
use serde_json::Value;

use crate::helpers::{databases, spawn_app};

#[tokio::test]
async fn healthz_answers_ok() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir) {
        let app = spawn_app(db).await;
        let res = app.http.get(app.url("/healthz")).send().await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.text().await.unwrap(), "ok");
    }
}

#[tokio::test]
async fn readyz_reports_the_database_and_the_cluster() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir) {
        let app = spawn_app(db.clone()).await;
        let res = app.http.get(app.url("/readyz")).send().await.unwrap();
        assert_eq!(res.status(), 200, "on {db}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["ready"], true);
        assert_eq!(body["checks"]["database"], "ok");
        let cluster = body["checks"]["cluster"].as_str().unwrap();
        if std::env::var("KUBECONFIG").is_ok() {
            assert!(cluster.starts_with("ok (v1."), "cluster check said {cluster}");
        } else {
            assert_eq!(cluster, "not configured");
        }
    }
}

#[tokio::test]
async fn an_unreachable_database_fails_the_start_with_a_clear_error() {
    // Port 1 on loopback: nothing listens there.
    let settings = Settings::for_tests(
        "postgres://ludis:secret@127.0.0.1:1/ludis",
        crate::helpers::missing_dir(),
    );
    let err = App::build(settings).await.err().expect("the build must fail");
    let message = format!("{err:#}");
    assert!(
        message.contains("failed to connect to the database postgres://ludis:***@127.0.0.1:1/ludis"),
        "{message}"
    );
    assert!(!message.contains("secret"), "the password leaked: {message}");
}
