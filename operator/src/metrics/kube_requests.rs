//! Every call to the API server, measured: the operator's kube `Client` (built with kube's
//! `ClientBuilder`) carries `ludis-kube-calls`' layer, which reads each call's verb the way the API
//! server does and tells [`KubeRequests`] its duration by verb and its count by verb and status.

use std::time::Duration;

use ludis_kube_calls::{CallLayer, Outcome, Recorder, Verb};
use prometheus_client::metrics::{counter::Counter, family::Family, histogram::Histogram};

use super::{RequestLabels, VerbLabels};

/// Where the calls are counted: `ClientBuilder::try_from(config)?.with_layer(&metrics.kube_requests_layer())`.
#[derive(Clone)]
pub struct KubeRequests {
    duration: Family<VerbLabels, Histogram>,
    total: Family<RequestLabels, Counter>,
}

impl KubeRequests {
    pub fn new(duration: Family<VerbLabels, Histogram>, total: Family<RequestLabels, Counter>) -> Self {
        Self { duration, total }
    }

    /// The layer that reports every call here.
    pub fn layer(self) -> CallLayer<Self> {
        CallLayer::new(self)
    }
}

impl Recorder for KubeRequests {
    fn finished(&self, verb: Verb, status: Outcome, took: Duration) {
        self.duration
            .get_or_create(&VerbLabels { verb })
            .observe(took.as_secs_f64());
        self.total.get_or_create(&RequestLabels { verb, status }).inc();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The layer's reading of verbs and outcomes is `ludis-kube-calls`' own test; here, what the
    // operator keeps of a finished call.
    #[test]
    fn every_call_is_counted_by_verb_and_status_and_timed() {
        let duration = Family::<VerbLabels, Histogram>::new_with_constructor(
            super::super::latency_histogram as fn() -> Histogram,
        );
        let total = Family::<RequestLabels, Counter>::default();
        let recorder = KubeRequests::new(duration.clone(), total.clone());
        let took = Duration::from_millis(5);
        recorder.finished(Verb::Get, Outcome::Status(200), took);
        recorder.finished(Verb::Get, Outcome::Status(404), took);
        recorder.finished(Verb::List, Outcome::Status(200), took);
        let count = |verb, status| total.get_or_create(&RequestLabels { verb, status }).get();
        assert_eq!(count(Verb::Get, Outcome::Status(200)), 1);
        assert_eq!(count(Verb::Get, Outcome::Status(404)), 1);
        assert_eq!(count(Verb::List, Outcome::Status(200)), 1);
        let mut text = String::new();
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register("d", "", duration);
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        assert!(text.lines().any(|l| l == "d_count{verb=\"get\"} 2"), "{text}");
        assert!(text.lines().any(|l| l == "d_count{verb=\"list\"} 1"), "{text}");
    }
}
