//! Prometheus metrics (`/metrics`, prefix `ludis_operator_`): reconciles, failures by error, how
//! long a change waited before its reconcile started and how long the reconcile took, every call
//! to the API server by verb and status, and whether this replica leads. A Grafana dashboard reads
//! these names: keep them.

pub mod arrivals;
pub mod kube_requests;
pub mod read;

use std::{sync::Mutex, time::Duration};

use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram},
    registry::Registry,
};

use ludis_kube_calls::{CallLayer, Outcome, Verb};

use self::kube_requests::KubeRequests;

/// Bucket bounds (seconds) of every latency histogram: fine enough around 1 s to tell a p99 of
/// 0.75 s from one of 1.5 s, from 1 ms to 10 s.
pub const LATENCY_BUCKETS: [f64; 16] = [
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.5, 5.0, 10.0,
];

pub(crate) fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ControllerLabels {
    pub controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabels {
    pub controller: String,
    pub error: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct VerbLabels {
    pub verb: Verb,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub verb: Verb,
    pub status: Outcome,
}

pub struct Metrics {
    pub reconciles: Family<ControllerLabels, Counter>,
    pub failures: Family<ErrorLabels, Counter>,
    pub duration: Family<ControllerLabels, Histogram>,
    /// From the watch event that asked for a reconcile to the start of that reconcile.
    pub queue_wait: Family<ControllerLabels, Histogram>,
    /// Calls to the API server: duration (to the response's headers) and count.
    pub kube_request_duration: Family<VerbLabels, Histogram>,
    pub kube_requests: Family<RequestLabels, Counter>,
    /// 1 while this replica holds the leader Lease (runs the controllers), else 0.
    pub leader: Gauge,
    registry: Mutex<Registry>,
}

impl Default for Metrics {
    fn default() -> Self {
        let reconciles = Family::<ControllerLabels, Counter>::default();
        let failures = Family::<ErrorLabels, Counter>::default();
        let duration = Family::new_with_constructor(latency_histogram as fn() -> Histogram);
        let queue_wait = Family::new_with_constructor(latency_histogram as fn() -> Histogram);
        let kube_request_duration = Family::new_with_constructor(latency_histogram as fn() -> Histogram);
        let kube_requests = Family::<RequestLabels, Counter>::default();
        let leader = Gauge::default();
        let mut registry = Registry::with_prefix("ludis_operator");
        registry.register("reconciles", "Reconciles run", reconciles.clone());
        registry.register(
            "reconcile_failures",
            "Reconciles that failed, by error",
            failures.clone(),
        );
        registry.register(
            "reconcile_duration_seconds",
            "How long reconciles took",
            duration.clone(),
        );
        registry.register(
            "queue_wait_seconds",
            "From the watch event of a change to the start of the reconcile it asked for",
            queue_wait.clone(),
        );
        registry.register(
            "kube_request_duration_seconds",
            "Calls to the Kubernetes API server, until the response's headers, by verb",
            kube_request_duration.clone(),
        );
        registry.register(
            "kube_requests",
            "Calls to the Kubernetes API server, by verb and HTTP status (or error)",
            kube_requests.clone(),
        );
        registry.register(
            "leader",
            "1 while this replica holds the leader Lease",
            leader.clone(),
        );
        Self {
            reconciles,
            failures,
            duration,
            queue_wait,
            kube_request_duration,
            kube_requests,
            leader,
            registry: Mutex::new(registry),
        }
    }
}

impl Metrics {
    pub fn reconciled(&self, controller: &str, seconds: f64) {
        let labels = ControllerLabels {
            controller: controller.to_owned(),
        };
        self.reconciles.get_or_create(&labels).inc();
        self.duration.get_or_create(&labels).observe(seconds);
    }

    pub fn failed(&self, controller: &str, error: &str) {
        self.failures
            .get_or_create(&ErrorLabels {
                controller: controller.to_owned(),
                error: error.to_owned(),
            })
            .inc();
    }

    /// A reconcile of `controller` started `waited` after the watch delivered its change.
    pub fn waited(&self, controller: &str, waited: Duration) {
        self.queue_wait
            .get_or_create(&ControllerLabels {
                controller: controller.to_owned(),
            })
            .observe(waited.as_secs_f64());
    }

    /// Whether this replica leads.
    pub fn set_leader(&self, leading: bool) {
        self.leader.set(i64::from(leading));
    }

    /// The tower layer that measures every call of a kube `Client` into these metrics.
    pub fn kube_requests_layer(&self) -> CallLayer<KubeRequests> {
        KubeRequests::new(self.kube_request_duration.clone(), self.kube_requests.clone()).layer()
    }

    /// The OpenMetrics text of every metric.
    pub fn render(&self) -> String {
        let mut out = String::new();
        encode(&mut out, &self.registry.lock().expect("not poisoned"))
            .expect("writing to a String cannot fail");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_rendered_under_its_dashboard_name() {
        let metrics = Metrics::default();
        metrics.reconciled("insight", 0.004);
        metrics.waited("insight", Duration::from_millis(30));
        metrics.set_leader(true);
        metrics
            .kube_request_duration
            .get_or_create(&VerbLabels { verb: Verb::Apply })
            .observe(0.02);
        metrics
            .kube_requests
            .get_or_create(&RequestLabels {
                verb: Verb::Apply,
                status: Outcome::Status(200),
            })
            .inc();
        let text = metrics.render();
        for line in [
            "ludis_operator_reconciles_total{controller=\"insight\"} 1",
            "ludis_operator_reconcile_duration_seconds_bucket{le=\"0.005\",controller=\"insight\"} 1",
            "ludis_operator_queue_wait_seconds_bucket{le=\"0.02\",controller=\"insight\"} 0",
            "ludis_operator_queue_wait_seconds_bucket{le=\"0.05\",controller=\"insight\"} 1",
            "ludis_operator_kube_request_duration_seconds_count{verb=\"apply\"} 1",
            "ludis_operator_kube_requests_total{verb=\"apply\",status=\"200\"} 1",
            "ludis_operator_leader 1",
        ] {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in:\n{text}");
        }
        metrics.set_leader(false);
        assert!(metrics.render().lines().any(|l| l == "ludis_operator_leader 0"));
    }
}
