//! Prometheus metrics: reconciles, failures by error, reconcile duration.

use std::sync::Mutex;

use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{counter::Counter, family::Family, histogram::Histogram},
    registry::Registry,
};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ControllerLabels {
    pub controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabels {
    pub controller: String,
    pub error: String,
}

pub struct Metrics {
    pub reconciles: Family<ControllerLabels, Counter>,
    pub failures: Family<ErrorLabels, Counter>,
    pub duration: Family<ControllerLabels, Histogram>,
    registry: Mutex<Registry>,
}

impl Default for Metrics {
    fn default() -> Self {
        let reconciles = Family::<ControllerLabels, Counter>::default();
        let failures = Family::<ErrorLabels, Counter>::default();
        let duration = Family::<ControllerLabels, Histogram>::new_with_constructor(|| {
            Histogram::new([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0])
        });
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
        Self {
            reconciles,
            failures,
            duration,
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

    /// The OpenMetrics text of every metric.
    pub fn render(&self) -> String {
        let mut out = String::new();
        encode(&mut out, &self.registry.lock().expect("not poisoned"))
            .expect("writing to a String cannot fail");
        out
    }
}
