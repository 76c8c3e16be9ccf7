//! The API's observability:
//!
//! - **logs**: `RUST_LOG` filters (default `info`), human-readable or JSON lines
//!   (`LUDIS_LOG_FORMAT`); a line written while a request is handled carries the request's span
//!   (request id, route template, method) — [`fmt_layer`];
//! - **the request id** ([`request_id`]) and the layers every request passes ([`http`]);
//! - **Prometheus metrics** ([`metrics`]) served on a listener of their own ([`server`]), with the
//!   cluster calls counted by a layer on the Kubernetes client ([`cluster`]) and websocket
//!   sessions while they run ([`session`]);
//! - with the `otel` feature, **OpenTelemetry tracing** over OTLP/HTTP (`otel`).

pub mod cluster;
pub mod http;
pub mod metrics;
#[cfg(feature = "otel")]
pub mod otel;
pub mod request_id;
pub mod server;
mod session;

use std::io::IsTerminal as _;

use tracing_subscriber::{
    EnvFilter, Layer, fmt::MakeWriter, layer::SubscriberExt as _, registry::LookupSpan,
    util::SubscriberInitExt as _,
};

pub use metrics::{Metrics, WebSocketKind};
pub use session::{Session, session};

use crate::settings::Settings;

/// How log lines are written (`LUDIS_LOG_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines: `… INFO request{method=GET route=/v1/… request_id=…}: message`.
    Text,
    /// One JSON object a line: the event's fields at the top level, the innermost span in `span`
    /// and every open span, outermost first, in `spans`.
    Json,
}

/// The formatting layer of log lines, writing to `writer` (standard error in the server, a
/// buffer in tests); text lines are coloured only when `writer` is a terminal.
pub fn fmt_layer<S, W>(format: LogFormat, writer: W, terminal: bool) -> Box<dyn Layer<S> + Send + Sync>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(terminal);
    match format {
        LogFormat::Text => layer.boxed(),
        LogFormat::Json => layer.json().flatten_event(true).boxed(),
    }
}

/// What [`init`] installed; [`Telemetry::shutdown`] exports the spans still buffered.
#[must_use = "dropping it without shutdown() may lose the last spans"]
pub struct Telemetry {
    #[cfg(feature = "otel")]
    tracing: Option<otel::Tracing>,
}

impl Telemetry {
    /// Exports every finished span not exported yet (a no-op without OpenTelemetry). It blocks:
    /// call it outside the async runtime (`spawn_blocking`).
    pub fn flush(&self) {
        #[cfg(feature = "otel")]
        if let Some(t) = &self.tracing {
            t.flush();
        }
    }

    /// Flushes and stops the span exporter.
    pub fn shutdown(self) {
        #[cfg(feature = "otel")]
        if let Some(t) = self.tracing {
            t.shutdown();
        }
    }
}

/// Installs the global subscriber: the `RUST_LOG` filter (default `info`), log lines in the
/// configured format on standard error and, with the `otel` feature and
/// `OTEL_EXPORTER_OTLP_ENDPOINT` set, the span exporter. A second call (tests) keeps the first
/// subscriber.
pub fn init(settings: &Settings) -> anyhow::Result<Telemetry> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let subscriber = tracing_subscriber::registry().with(filter).with(fmt_layer(
        settings.log_format,
        std::io::stderr,
        std::io::stderr().is_terminal(),
    ));
    let endpoint = settings.otel_exporter_otlp_endpoint.trim();

    #[cfg(feature = "otel")]
    {
        let tracing = (!endpoint.is_empty())
            .then(|| otel::Tracing::start(endpoint, &settings.otel_service_name))
            .transpose()?;
        let _ = subscriber
            .with(tracing.as_ref().map(otel::Tracing::layer))
            .try_init();
        if tracing.is_some() {
            tracing::info!(endpoint, "spans are exported over OTLP/HTTP");
        }
        Ok(Telemetry { tracing })
    }

    #[cfg(not(feature = "otel"))]
    {
        let _ = subscriber.try_init();
        if !endpoint.is_empty() {
            tracing::warn!(
                endpoint,
                "OTEL_EXPORTER_OTLP_ENDPOINT is set, but this build has no OpenTelemetry (the `otel` \
                 feature): no spans are exported"
            );
        }
        Ok(Telemetry {})
    }
}
