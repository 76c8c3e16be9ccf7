//! OpenTelemetry tracing (the `otel` feature): the spans of tracing go to an OTLP/HTTP collector
//! (`OTEL_EXPORTER_OTLP_ENDPOINT`, protobuf, batched) under `OTEL_SERVICE_NAME`. A request's span
//! continues the W3C `traceparent` it came with and is named `<method> <route>`
//! ([`continue_trace`]); a cluster call's span is its child and sends its own `traceparent` on
//! to the API server ([`client_span`]).

use anyhow::Context as _;
use axum::http::HeaderMap;
use opentelemetry::{propagation::TextMapPropagator as _, trace::TracerProvider as _};
use opentelemetry_http::{HeaderExtractor, HeaderInjector};
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig as _};
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::{Layer, registry::LookupSpan};

/// The span exporter.
pub struct Tracing {
    provider: SdkTracerProvider,
}

impl Tracing {
    /// Exports spans to `endpoint` (`/v1/traces` is added) in batches.
    pub fn start(endpoint: &str, service_name: &str) -> anyhow::Result<Self> {
        let exporter = SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(traces_url(endpoint))
            .build()
            .with_context(|| format!("invalid OTEL_EXPORTER_OTLP_ENDPOINT {endpoint:?}"))?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                Resource::builder()
                    .with_service_name(service_name.to_owned())
                    .build(),
            )
            .build();
        Ok(Self { provider })
    }

    /// The tracing layer that turns spans into OpenTelemetry spans.
    pub fn layer<S>(&self) -> impl Layer<S> + use<S>
    where
        S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    {
        tracing_opentelemetry::layer().with_tracer(self.provider.tracer("ludis-api"))
    }

    pub fn flush(&self) {
        if let Err(e) = self.provider.force_flush() {
            tracing::warn!(error = %e, "failed to export the last spans");
        }
    }

    pub fn shutdown(self) {
        if let Err(e) = self.provider.shutdown() {
            eprintln!("failed to stop the span exporter: {e}");
        }
    }
}

/// Pure: the traces URL of an OTLP/HTTP endpoint.
pub fn traces_url(endpoint: &str) -> String {
    format!("{}/v1/traces", endpoint.trim().trim_end_matches('/'))
}

/// Makes `span` a server span named `name` that continues the request's `traceparent`.
pub fn continue_trace(span: &Span, headers: &HeaderMap, name: &str) {
    let parent = TraceContextPropagator::new().extract(&HeaderExtractor(headers));
    // An error only says no OpenTelemetry layer is installed.
    let _ = span.set_parent(parent);
    span.record("otel.name", name);
    span.record("otel.kind", "server");
}

/// Makes `span` a client span and sends its `traceparent` with the outgoing request.
pub fn client_span(span: &Span, headers: &mut HeaderMap) {
    span.record("otel.kind", "client");
    TraceContextPropagator::new().inject_context(&span.context(), &mut HeaderInjector(headers));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_traces_path_is_added_once() {
        for endpoint in [
            "http://collector:4318",
            "http://collector:4318/",
            " http://collector:4318 ",
        ] {
            assert_eq!(traces_url(endpoint), "http://collector:4318/v1/traces");
        }
    }
}
