//! Every call the API makes to the Kubernetes API server passes `ludis-kube-calls`' layer on its
//! kube [`Client`] ([`client`]): it runs in a `kube{verb, status}` span under the current one (the
//! request's), so a trace goes from the API's request to its cluster calls, and [`ClusterCalls`]
//! counts it by verb and status and times it until the answer began
//! ([`super::Metrics::cluster_request`]; a watch until its stream started). With OpenTelemetry
//! the span is a client span whose `traceparent` goes to the API server.

use std::{sync::Arc, time::Duration};

use kube::{Client, Config, client::ClientBuilder};
use ludis_kube_calls::{CallLayer, Outcome, Recorder, Verb};

use super::metrics::Metrics;

/// A kube [`Client`] from the inferred configuration (`KUBECONFIG`, or in-cluster), with its
/// calls counted and traced ([`ClusterCalls`]).
pub async fn client(metrics: Arc<Metrics>) -> kube::Result<Client> {
    let config = Config::infer().await.map_err(kube::Error::InferConfig)?;
    Ok(ClientBuilder::try_from(config)?
        .with_layer(&CallLayer::new(ClusterCalls(metrics)))
        .build())
}

/// Where the API's cluster calls are counted.
#[derive(Debug, Clone)]
pub struct ClusterCalls(pub Arc<Metrics>);

impl Recorder for ClusterCalls {
    #[cfg(feature = "otel")]
    fn sending(&self, headers: &mut axum::http::HeaderMap, span: &tracing::Span) {
        super::otel::client_span(span, headers);
    }

    fn finished(&self, verb: Verb, outcome: Outcome, took: Duration) {
        self.0.cluster_request(verb, outcome, took);
    }
}
