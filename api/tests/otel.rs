//! OpenTelemetry tracing (the `otel` feature; `cargo test -p ludis-api --features otel --test
//! otel`): an in-process OTLP/HTTP receiver (an axum route decoding the protobuf with
//! opentelemetry-proto) gets the spans of a request that came with a W3C `traceparent`: the
//! request's span continues the caller's trace, and the API server call it makes (with a
//! cluster: `KUBECONFIG`, as the test command sets) is its child.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{Router, body::Bytes, http::header, response::IntoResponse, routing::post};
use ludis_api::{App, Settings, telemetry};
use opentelemetry_proto::tonic::{
    collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse},
    common::v1::any_value,
    trace::v1::{Span, span::SpanKind},
};
use prost::Message as _;

type Received = Arc<Mutex<Vec<Span>>>;

/// An OTLP/HTTP receiver on loopback; returns its base URL.
async fn receiver(received: Received) -> String {
    let app = Router::new().route(
        "/v1/traces",
        post(move |body: Bytes| async move {
            let request = ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf body");
            received.lock().unwrap().extend(
                request
                    .resource_spans
                    .into_iter()
                    .flat_map(|r| r.scope_spans)
                    .flat_map(|s| s.spans),
            );
            (
                [(header::CONTENT_TYPE, "application/x-protobuf")],
                ExportTraceServiceResponse::default().encode_to_vec(),
            )
                .into_response()
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn attribute<'a>(span: &'a Span, key: &str) -> Option<&'a str> {
    span.attributes.iter().find(|kv| kv.key == key).and_then(|kv| {
        match kv.value.as_ref()?.value.as_ref()? {
            any_value::Value::StringValue(s) => Some(s.as_str()),
            _ => None,
        }
    })
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requests_span_continues_the_callers_trace_and_its_cluster_calls_are_its_children() {
    let received = Received::default();
    let collector = receiver(received.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::for_tests(
        format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display()),
        dir.path().join("console"),
    );
    settings.secrets_file = dir.path().join("secrets.env");
    settings.data_dir = dir.path().join("data");
    settings.otel_exporter_otlp_endpoint = collector;
    settings.otel_service_name = "ludis-api-test".into();
    let telemetry = Arc::new(telemetry::init(&settings).unwrap());
    let app = App::build(settings).await.unwrap();
    let address = app.local_addr();
    let cluster = app.state().kube.is_some();
    if !cluster {
        assert!(
            std::env::var_os("CI").is_none(),
            "KUBECONFIG must be set in CI (dev/test.sh)"
        );
        eprintln!("KUBECONFIG is not set: only the request's span is checked (dev/test.sh sets it)");
    }
    tokio::spawn(app.run_until_stopped());

    let res = reqwest::Client::new()
        .get(format!("http://{address}/readyz"))
        .header("traceparent", format!("00-{TRACE}-{CALLER_SPAN}-01"))
        .header("x-request-id", "otel-test")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    res.bytes().await.unwrap();

    // Spans leave in batches: flush (it blocks, so off the runtime) until they have arrived.
    let deadline = Instant::now() + Duration::from_secs(30);
    let (server, client) = loop {
        let flushing = telemetry.clone();
        tokio::task::spawn_blocking(move || flushing.flush())
            .await
            .unwrap();
        let spans = received.lock().unwrap().clone();
        let server = spans.iter().find(|s| s.name == "GET /readyz").cloned();
        let client = server.as_ref().and_then(|server| {
            spans
                .iter()
                .find(|s| s.name == "kube" && s.parent_span_id == server.span_id)
                .cloned()
        });
        if let Some(server) = server
            && (client.is_some() || !cluster)
        {
            break (server, client);
        }
        assert!(
            Instant::now() < deadline,
            "the spans did not arrive: {:?}",
            spans.iter().map(|s| &s.name).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };

    assert_eq!(hex(&server.trace_id), TRACE, "the caller's trace goes on");
    assert_eq!(hex(&server.parent_span_id), CALLER_SPAN);
    assert_eq!(server.kind, SpanKind::Server as i32);
    assert_eq!(attribute(&server, "route"), Some("/readyz"));
    assert_eq!(attribute(&server, "request_id"), Some("otel-test"));
    if let Some(client) = client {
        assert_eq!(hex(&client.trace_id), TRACE);
        assert_eq!(client.kind, SpanKind::Client as i32);
        assert_eq!(attribute(&client, "verb"), Some("get"));
    }
    let telemetry = Arc::into_inner(telemetry).expect("the only reference");
    tokio::task::spawn_blocking(move || telemetry.shutdown())
        .await
        .unwrap();
}
