//! The API's observability against a real server: Prometheus metrics on their own listener
//! (requests by route template and status, websocket sessions while open, the database pool,
//! cluster calls when there is a cluster), the request id on every answer, and log lines that
//! carry it. SQLite and PostgreSQL.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::SinkExt as _;
use ludis_api::telemetry::{self, LogFormat};
use reqwest::header;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;
use tracing_subscriber::{filter::LevelFilter, fmt::MakeWriter, layer::SubscriberExt as _};

use crate::helpers::{TestApp, apps_with, open_stream};

/// Apps with a metrics listener on a free port.
async fn observed_apps() -> Vec<TestApp> {
    apps_with(|s| s.metrics_listen = "127.0.0.1:0".parse().unwrap()).await
}

/// The metrics listener's text.
async fn scrape(app: &TestApp) -> String {
    let base = app.metrics_address.as_ref().expect("a metrics listener");
    let res = reqwest::get(format!("{base}/metrics")).await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()[header::CONTENT_TYPE],
        telemetry::server::CONTENT_TYPE
    );
    res.text().await.unwrap()
}

/// The value of one series (`name{labels}` exactly as rendered), if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.parse().expect("a number"))
}

fn requests(method: &str, route: &str, status: u16) -> String {
    format!(r#"ludis_api_http_requests_total{{method="{method}",route="{route}",status="{status}"}}"#)
}

/// Polls the metrics until `series` has `value` (sessions end in tasks of their own).
async fn until_sample(app: &TestApp, series: &str, value: f64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = scrape(app).await;
        if sample(&text, series) == Some(value) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{series} is not {value} on {}:\n{text}",
            app.kind
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn requests_are_counted_by_route_template_and_status_on_the_metrics_listener() {
    for app in observed_apps().await {
        let team = app.org_with_admin_and_dev("Observed").await;
        let missing = uuid::Uuid::new_v4().to_string();
        for id in [&missing, "another-missing-id"] {
            let (s, _) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
            assert_eq!(s, 404);
        }
        let (s, _) = app.get("/v1/no/such/route", &team.dev_token).await;
        assert_eq!(s, 404);
        let res = app.http.get(app.url("/healthz")).send().await.unwrap();
        assert_eq!(res.status(), 200);
        // Not a route: the router's fallback (the console, not built here).
        let res = app.http.get(app.url("/not-a-route")).send().await.unwrap();
        let unmatched = res.status().as_u16();
        // The public listener does not serve the metrics.
        let public = app.http.get(app.url("/metrics")).send().await.unwrap();
        assert!(!public.text().await.unwrap().contains("ludis_api_"));

        let text = scrape(&app).await;
        for (series, n) in [
            (requests("POST", "/v1/auth/login", 200), 2.0),
            (requests("GET", "/v1/applications/{id}", 404), 2.0),
            (requests("GET", "/v1/{*rest}", 404), 1.0),
            (requests("GET", "/healthz", 200), 1.0),
            (requests("GET", "unmatched", unmatched), 2.0),
            (
                r#"ludis_api_http_request_duration_seconds_count{method="GET",route="/v1/applications/{id}"}"#
                    .to_owned(),
                2.0,
            ),
            (
                format!(r#"ludis_api_build_info{{version="{}"}}"#, env!("CARGO_PKG_VERSION")),
                1.0,
            ),
        ] {
            assert_eq!(sample(&text, &series), Some(n), "{series} on {}:\n{text}", app.kind);
        }
        assert!(!text.contains(&missing), "a raw path became a label:\n{text}");
        let idle = sample(&text, r#"ludis_api_db_pool_connections{state="idle"}"#).unwrap();
        let in_use = sample(&text, r#"ludis_api_db_pool_connections{state="in_use"}"#).unwrap();
        let max = sample(&text, "ludis_api_db_pool_max_connections").unwrap();
        assert!(idle + in_use >= 1.0 && idle + in_use <= max, "{text}");

        // Every call to the API server is counted by verb and status (`/readyz` asks its version).
        if app.state.kube.is_some() {
            let res = app.http.get(app.url("/readyz")).send().await.unwrap();
            assert_eq!(res.status(), 200);
            let text = scrape(&app).await;
            let get = r#"ludis_api_cluster_requests_total{verb="get",status="200"}"#;
            assert!(sample(&text, get).is_some_and(|n| n >= 1.0), "{text}");
            let timed = r#"ludis_api_cluster_request_duration_seconds_count{verb="get"}"#;
            assert!(sample(&text, timed).is_some_and(|n| n >= 1.0), "{text}");
        }
    }
}

#[tokio::test]
async fn websocket_sessions_are_counted_while_open() {
    let upstream = crate::proxy::upstream().await;
    for app in apps_with(|s| {
        s.metrics_listen = "127.0.0.1:0".parse().unwrap();
        crate::proxy::console_origin(s);
    })
    .await
    {
        let org = app.unique_org("Sockets").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let project = app.project(&owner, "Streamed").await;
        let own_origin = app.address.clone();
        for (kind, path) in [
            ("logs", format!("/containerLogs?id={project}")),
            ("terminal", format!("/terminalConnection?id={project}")),
            ("chat", "/aiChatResponse".to_owned()),
        ] {
            let open = format!(r#"ludis_api_websocket_sessions{{kind="{kind}"}}"#);
            let opened = format!(r#"ludis_api_websocket_sessions_opened_total{{kind="{kind}"}}"#);
            let mut socket = open_stream(&app, &path, Some(&owner), Some(&own_origin))
                .await
                .unwrap_or_else(|s| panic!("{} {path}: {s}", app.kind));
            until_sample(&app, &open, 1.0).await;
            assert_eq!(sample(&scrape(&app).await, &opened), Some(1.0));
            socket.close(None).await.unwrap();
            until_sample(&app, &open, 0.0).await;
            assert_eq!(sample(&scrape(&app).await, &opened), Some(1.0));
        }

        // An upgrade through the app proxy.
        let id = crate::proxy::running_app(&app, &org, &owner.uid, &upstream).await;
        let cookie = crate::proxy::open(&app, &owner.token, &id, "/").await;
        let request = crate::proxy::socket_request(&app, &id, &cookie);
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        socket
            .send(tungstenite::Message::Text("hello".into()))
            .await
            .unwrap();
        until_sample(&app, r#"ludis_api_websocket_sessions{kind="proxy"}"#, 1.0).await;
        // The pipe ends when both sides have closed their connection.
        socket.close(None).await.unwrap();
        drop(socket);
        until_sample(&app, r#"ludis_api_websocket_sessions{kind="proxy"}"#, 0.0).await;
        let text = scrape(&app).await;
        assert_eq!(
            sample(&text, &requests("GET", "/apps/{id}/{*path}", 101)),
            Some(1.0),
            "{text}"
        );
    }
}

#[tokio::test]
async fn every_answer_carries_the_request_id() {
    for app in observed_apps().await {
        let send = |path: &str, id: Option<&str>| {
            let mut req = app.http.get(app.url(path));
            if let Some(id) = id {
                req = req.header("x-request-id", id);
            }
            req.send()
        };
        let id_of = |res: &reqwest::Response| {
            res.headers()
                .get("x-request-id")
                .unwrap_or_else(|| panic!("no x-request-id on {}", res.url()))
                .to_str()
                .unwrap()
                .to_owned()
        };
        // A sane id comes back as it was, on successes, errors and 404s alike.
        for path in [
            "/healthz",
            "/v1/applications/insights",
            "/v1/nope",
            "/not-a-route",
        ] {
            let res = send(path, Some("req-42.a_B")).await.unwrap();
            assert_eq!(id_of(&res), "req-42.a_B", "{path}");
        }
        // Without one, or with one that cannot be used, a new UUID.
        let long = "x".repeat(129);
        let mut seen = Vec::new();
        for sent in [None, Some("two words"), Some(long.as_str()), Some("a/b")] {
            let id = id_of(&send("/healthz", sent).await.unwrap());
            assert!(uuid::Uuid::parse_str(&id).is_ok(), "{sent:?} gave {id}");
            assert!(!seen.contains(&id), "ids are new each time");
            seen.push(id);
        }
    }
}

/// The buffer a test's log lines are written to.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Buffer {
    type Writer = Self;
    fn make_writer(&'a self) -> Self {
        self.clone()
    }
}

fn text_of(buffer: &Buffer) -> String {
    String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
}

// One thread: the server's tasks run where the test's subscriber is the default.
#[tokio::test(flavor = "current_thread")]
async fn log_lines_of_a_request_carry_its_id_route_and_method() {
    let (json, text) = (Buffer::default(), Buffer::default());
    let subscriber = tracing_subscriber::registry()
        .with(LevelFilter::INFO)
        .with(telemetry::fmt_layer(LogFormat::Json, json.clone(), false))
        .with(telemetry::fmt_layer(LogFormat::Text, text.clone(), false));
    // tracing-core caches whether each callsite is enabled. With one registered dispatcher it
    // asks only the registering thread's (none, on the threads of the tests running beside this
    // one), so the request span's callsite, first reached by another test, would stay off here.
    // A second dispatcher makes it ask every live one, and the rebuild corrects the callsites
    // registered before.
    let _second = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let _default = tracing::dispatcher::set_default(&tracing::Dispatch::new(subscriber));
    tracing::callsite::rebuild_interest_cache();
    for app in apps_with(|_| {}).await {
        let id = format!("log-test-{}", app.kind);
        // The extractor logs why it rejects a token.
        let res = app
            .http
            .get(app.url("/v1/applications/insights"))
            .bearer_auth("not-a-token")
            .header("x-request-id", &id)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 401);

        let lines: Vec<Value> = text_of(&json)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON lines"))
            .filter(|l: &Value| l["message"] == "rejected: invalid token")
            .collect();
        let line = lines
            .iter()
            .find(|l| l["span"]["request_id"] == id.as_str())
            .unwrap_or_else(|| panic!("no line with request_id {id} in {lines:?}"));
        assert_eq!(
            line["span"],
            json!({"name": "request", "method": "GET", "route": "/v1/applications/insights", "request_id": id})
        );
        assert_eq!(line["spans"][0]["request_id"], id.as_str());
        assert_eq!(line["level"], "INFO");
        let plain = text_of(&text);
        assert!(
            plain.lines().any(|l| l.contains("rejected: invalid token")
                && l.contains(&format!("request_id={id}"))
                && l.contains("route=/v1/applications/insights")),
            "{plain}"
        );
    }
}
