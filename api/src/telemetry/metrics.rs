//! The API's Prometheus metrics (OpenMetrics text, [`Metrics::render`]), one registry per
//! running API:
//!
//! | metric | labels |
//! |---|---|
//! | `ludis_api_http_requests_total` | `method`, `route` (the route template), `status` |
//! | `ludis_api_http_request_duration_seconds` (histogram) | `method`, `route` |
//! | `ludis_api_websocket_sessions` (gauge: open now) | `kind` |
//! | `ludis_api_websocket_sessions_opened_total` | `kind` |
//! | `ludis_api_db_pool_connections` (gauge, read at scrape time) | `state` = `idle` / `in_use` |
//! | `ludis_api_db_pool_max_connections` (gauge) | |
//! | `ludis_api_cluster_requests_total` | `verb`, `status` (HTTP status, or `error`) |
//! | `ludis_api_cluster_request_duration_seconds` (histogram) | `verb` |
//! | `ludis_api_build_info` (gauge, 1) | `version` |

use std::{fmt::Write as _, sync::Arc, time::Duration};

use axum::http::StatusCode;
use prometheus_client::{
    collector::Collector,
    encoding::{
        DescriptorEncoder, EncodeLabelSet, EncodeLabelValue, EncodeMetric as _, LabelValueEncoder,
        text::encode,
    },
    metrics::{
        MetricType,
        counter::Counter,
        family::Family,
        gauge::{ConstGauge, Gauge},
        histogram::Histogram,
    },
    registry::{Registry, Unit},
};
use sqlx::AnyPool;

use ludis_kube_calls::{Outcome, Verb};

/// Upper bounds of the duration histograms, in seconds (Prometheus' default buckets).
const BUCKETS: [f64; 11] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// What a websocket (or any upgraded connection) carries.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
pub enum WebSocketKind {
    /// A workload's log stream (`/containerLogs`).
    Logs,
    /// A workload's terminal (`/terminalConnection`).
    Terminal,
    /// The assistant's chat (`/aiChatResponse`).
    Chat,
    /// An upgrade piped through the app proxy (`/apps/…`).
    Proxy,
}

impl WebSocketKind {
    pub const ALL: [Self; 4] = [Self::Logs, Self::Terminal, Self::Chat, Self::Proxy];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Logs => "logs",
            Self::Terminal => "terminal",
            Self::Chat => "chat",
            Self::Proxy => "proxy",
        }
    }
}

impl EncodeLabelValue for WebSocketKind {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        encoder.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabels {
    kind: WebSocketKind,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    verb: Verb,
    status: Outcome,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VerbLabels {
    verb: Verb,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VersionLabels {
    version: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

fn histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// Every metric of one running API.
pub struct Metrics {
    registry: Registry,
    http_requests: Family<RequestLabels, Counter>,
    http_duration: Histograms<RouteLabels>,
    sessions: Family<KindLabels, Gauge>,
    sessions_opened: Family<KindLabels, Counter>,
    cluster_requests: Family<CallLabels, Counter>,
    cluster_duration: Histograms<VerbLabels>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Metrics {
    /// The metrics of an API whose database pool is `db` (its connections are read at scrape
    /// time).
    pub fn new(db: AnyPool) -> Self {
        let mut registry = Registry::with_prefix("ludis_api");
        let http_requests = Family::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            http_requests.clone(),
        );
        let http_duration: Histograms<RouteLabels> = Family::new_with_constructor(histogram);
        registry.register_with_unit(
            "http_request_duration",
            "Time until a request's answer began, by method and route template",
            Unit::Seconds,
            http_duration.clone(),
        );
        let sessions = Family::default();
        registry.register(
            "websocket_sessions",
            "Websocket sessions open now (and upgrades piped by the app proxy), by kind",
            sessions.clone(),
        );
        let sessions_opened = Family::default();
        registry.register(
            "websocket_sessions_opened",
            "Websocket sessions opened (and upgrades piped by the app proxy), by kind",
            sessions_opened.clone(),
        );
        let cluster_requests = Family::default();
        registry.register(
            "cluster_requests",
            "Calls to the Kubernetes API server, by verb and HTTP status (`error`: no answer)",
            cluster_requests.clone(),
        );
        let cluster_duration: Histograms<VerbLabels> = Family::new_with_constructor(histogram);
        registry.register_with_unit(
            "cluster_request_duration",
            "Time until the Kubernetes API server's answer began, by verb",
            Unit::Seconds,
            cluster_duration.clone(),
        );
        let build_info = Family::<VersionLabels, Gauge>::default();
        build_info
            .get_or_create(&VersionLabels {
                version: env!("CARGO_PKG_VERSION"),
            })
            .set(1);
        registry.register("build_info", "The running version of ludis-api", build_info);
        registry.register_collector(Box::new(PoolCollector(db)));
        Self {
            registry,
            http_requests,
            http_duration,
            sessions,
            sessions_opened,
            cluster_requests,
            cluster_duration,
        }
    }

    /// Counts an answered request and its duration.
    pub fn http_request(&self, method: &'static str, route: &str, status: StatusCode, took: Duration) {
        let route = route.to_owned();
        self.http_duration
            .get_or_create(&RouteLabels {
                method,
                route: route.clone(),
            })
            .observe(took.as_secs_f64());
        self.http_requests
            .get_or_create(&RequestLabels {
                method,
                route,
                status: status.as_u16(),
            })
            .inc();
    }

    /// Counts a call to the cluster and its duration.
    pub fn cluster_request(&self, verb: Verb, outcome: Outcome, took: Duration) {
        self.cluster_duration
            .get_or_create(&VerbLabels { verb })
            .observe(took.as_secs_f64());
        self.cluster_requests
            .get_or_create(&CallLabels {
                verb,
                status: outcome,
            })
            .inc();
    }

    /// Counts a session of `kind` as opened and open until the returned guard is dropped.
    pub fn session_opened(self: &Arc<Self>, kind: WebSocketKind) -> OpenSession {
        let labels = KindLabels { kind };
        self.sessions_opened.get_or_create(&labels).inc();
        self.sessions.get_or_create(&labels).inc();
        OpenSession {
            metrics: self.clone(),
            kind,
        }
    }

    /// Every metric as OpenMetrics text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        encode(&mut out, &self.registry).expect("writing to a String cannot fail");
        out
    }
}

/// An open session, counted in `ludis_api_websocket_sessions` until dropped.
#[derive(Debug)]
pub struct OpenSession {
    metrics: Arc<Metrics>,
    kind: WebSocketKind,
}

impl Drop for OpenSession {
    fn drop(&mut self) {
        self.metrics
            .sessions
            .get_or_create(&KindLabels { kind: self.kind })
            .dec();
    }
}

/// The database pool's connections, read at each scrape.
#[derive(Debug)]
struct PoolCollector(AnyPool);

impl Collector for PoolCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let pool = &self.0;
        let idle = i64::try_from(pool.num_idle()).unwrap_or(i64::MAX);
        let in_use = i64::from(pool.size()).saturating_sub(idle).max(0);
        let mut family = encoder.encode_descriptor(
            "db_pool_connections",
            "Connections of the database pool, by state",
            None,
            MetricType::Gauge,
        )?;
        for (state, n) in [("idle", idle), ("in_use", in_use)] {
            ConstGauge::new(n).encode(family.encode_family(&[("state", state)])?)?;
        }
        let metric = encoder.encode_descriptor(
            "db_pool_max_connections",
            "The most connections the database pool opens",
            None,
            MetricType::Gauge,
        )?;
        ConstGauge::new(i64::from(pool.options().get_max_connections())).encode(metric)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line<'a>(text: &'a str, start: &str) -> Option<&'a str> {
        text.lines().find(|l| l.starts_with(start))
    }

    #[tokio::test]
    async fn every_metric_renders_under_its_fixed_name() {
        sqlx::any::install_default_drivers();
        let db = sqlx::pool::PoolOptions::new()
            .max_connections(3)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        let metrics = Arc::new(Metrics::new(db));
        metrics.http_request(
            "GET",
            "/v1/insights/{id}",
            StatusCode::NOT_FOUND,
            Duration::from_millis(3),
        );
        metrics.cluster_request(Verb::Get, Outcome::Status(200), Duration::from_millis(2));
        metrics.cluster_request(Verb::Watch, Outcome::Error, Duration::from_millis(2));
        let open = metrics.session_opened(WebSocketKind::Logs);
        let text = metrics.render();
        for expected in [
            r#"ludis_api_http_requests_total{method="GET",route="/v1/insights/{id}",status="404"} 1"#,
            r#"ludis_api_http_request_duration_seconds_count{method="GET",route="/v1/insights/{id}"} 1"#,
            r#"ludis_api_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/insights/{id}"} 1"#,
            r#"ludis_api_cluster_requests_total{verb="get",status="200"} 1"#,
            r#"ludis_api_cluster_requests_total{verb="watch",status="error"} 1"#,
            r#"ludis_api_cluster_request_duration_seconds_count{verb="get"} 1"#,
            r#"ludis_api_websocket_sessions{kind="logs"} 1"#,
            r#"ludis_api_websocket_sessions_opened_total{kind="logs"} 1"#,
            r#"ludis_api_db_pool_connections{state="in_use"} 0"#,
            "ludis_api_db_pool_max_connections 3",
            &format!(
                r#"ludis_api_build_info{{version="{}"}} 1"#,
                env!("CARGO_PKG_VERSION")
            ),
        ] {
            assert!(line(&text, expected).is_some(), "no {expected} in\n{text}");
        }
        assert!(
            line(&text, r#"ludis_api_db_pool_connections{state="idle"}"#).is_some(),
            "{text}"
        );
        drop(open);
        let text = metrics.render();
        assert!(
            line(&text, r#"ludis_api_websocket_sessions{kind="logs"} 0"#).is_some(),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
