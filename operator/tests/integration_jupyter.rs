//! JupyterLab as Ludis runs a legacy project's notebook server (`launch::jupyterlab_args`), in the
//! python image on the real node. The app proxy adds the start's token to every request it
//! forwards, so a request from a hostile page — another app's, a site the viewer visits — would
//! arrive carrying it. JupyterLab must then still refuse it by its own origin check, which
//! Jupyter skips for its own token logins: with the token, a request naming the server's own
//! origin (the control) changes a file, one naming another origin is refused and changes nothing.
//! Its page does not hand the token to the browser.
//!
//! Needs the cluster dev/test.sh starts.

use k8s_openapi::api::core::v1::Pod;
use reqwest::{Method, StatusCode, header};
use serde_json::json;

use common::{
    TestNamespace, client,
    node::{pod, ready_pod},
};

mod common;

const TOKEN: &str = "per-start-token-of-this-test";
const PORT: u16 = 8888;

#[tokio::test]
async fn jupyterlab_refuses_another_origin_even_with_the_proxys_token() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-jupyter").await;
    let args = ludis_crds::launch::jupyterlab_args("/");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut lab: Pod = pod("lab", "python", &args);
    let spec = lab.spec.as_mut().unwrap();
    spec.volumes = Some(vec![
        serde_json::from_value(json!({"name": "workspace", "emptyDir": {}})).unwrap(),
    ]);
    let container = &mut spec.containers[0];
    container.env = Some(
        serde_json::from_value(json!([
            {"name": "JUPYTER_TOKEN", "value": TOKEN},
            {"name": "PORT", "value": PORT.to_string()},
            {"name": "HOME", "value": "/workspace"},
        ]))
        .unwrap(),
    );
    container.volume_mounts = Some(vec![
        serde_json::from_value(json!({"name": "workspace", "mountPath": "/workspace"})).unwrap(),
    ]);
    container.resources = Some(
        serde_json::from_value(
            json!({"requests": {"cpu": "50m", "memory": "256Mi"}, "limits": {"memory": "1Gi"}}),
        )
        .unwrap(),
    );
    let lab = ready_pod(&client, &ns.name, lab).await;
    let ip = lab.status.unwrap().pod_ip.unwrap();
    let base = format!("http://{ip}:{PORT}");
    let own_origin = base.clone();

    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .unwrap();
    let call = |method: Method, path: &str, token: bool, origin: Option<&str>| {
        let mut req = http.request(method, format!("{base}{path}"));
        if token {
            req = req.header(header::AUTHORIZATION, format!("token {TOKEN}"));
        }
        if let Some(origin) = origin {
            req = req.header(header::ORIGIN, origin);
        }
        req
    };
    // JupyterLab listens a moment after its container starts.
    common::eventually("JupyterLab to answer the proxy's token", || async {
        let res = call(Method::GET, "/api/status", true, None).send().await.ok()?;
        (res.status() == StatusCode::OK).then_some(())
    })
    .await;

    // Without the token: nobody.
    let res = call(Method::GET, "/api/contents", false, None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN, "a request without the token");
    // The control: the token, from its own page, changes a file.
    let file = json!({"type": "file", "format": "text", "content": "mine"});
    let res = call(Method::PUT, "/api/contents/own.txt", true, Some(&own_origin))
        .json(&file)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED, "its own page, with the token");
    // Another origin, with the token the proxy adds: refused, and nothing written or read.
    for origin in [
        "http://evil.example",
        "http://other-app.apps.localhost:38080",
        "null",
    ] {
        let res = call(Method::PUT, "/api/contents/theirs.txt", true, Some(origin))
            .json(&file)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "a write from {origin}");
        let res = call(Method::GET, "/api/contents/own.txt", true, Some(origin))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "a read from {origin}");
    }
    let res = call(Method::GET, "/api/contents/theirs.txt", true, None)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::NOT_FOUND,
        "the refused write left no file"
    );
    let res = call(Method::GET, "/api/contents/own.txt", true, None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "the own page's file is there");

    // JupyterLab's page works with the proxy's token and does not hand it to the browser.
    let res = call(Method::GET, "/lab", true, None).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "the JupyterLab page");
    let page = res.text().await.unwrap();
    assert!(page.contains("jupyter-config-data"), "{page}");
    assert!(!page.contains(TOKEN), "the page holds the token: {page}");
}
