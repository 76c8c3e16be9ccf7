use ludis_api::Settings;

use crate::helpers::{missing_dir, spawn_app, spawn_app_with};

fn sqlite(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display())
}

#[tokio::test]
async fn the_console_is_served_with_a_single_page_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_app(sqlite(&dir)).await;

    let index = app.http.get(app.url("/")).send().await.unwrap();
    assert_eq!(index.status(), 200);
    assert!(index.text().await.unwrap().contains("<title>Ludis</title>"));

    let asset = app.http.get(app.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(asset.headers()["content-type"], "text/javascript");
    assert_eq!(asset.text().await.unwrap(), "console.log('ludis')");

    // A client-side route loads the app, which then routes itself.
    let deep = app
        .http
        .get(app.url("/projects/123/settings"))
        .send()
        .await
        .unwrap();
    assert_eq!(deep.status(), 200);
    assert!(deep.text().await.unwrap().contains("<div id=root>"));
}

#[tokio::test]
async fn an_unbuilt_console_explains_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite(&dir);
    let app = spawn_app_with(|_| Settings::for_tests(db, missing_dir())).await;
    let res = app.http.get(app.url("/")).send().await.unwrap();
    assert_eq!(res.status(), 503);
    assert!(res.text().await.unwrap().contains("npm run build"));
    // The API itself still answers.
    assert_eq!(
        app.http.get(app.url("/healthz")).send().await.unwrap().status(),
        200
    );
}
