//! Every call the API makes to the Kubernetes API server passes [`ClusterCallLayer`], a tower
//! layer on the kube [`Client`] ([`client`]): it counts the call by verb and status and times it
//! until the answer begins ([`super::Metrics::cluster_request`]; a watch until its stream
//! starts), inside a `kube` span that is a child of the current one (the request's), so a trace
//! goes from the API's request to its cluster calls. The verb is the API server's own
//! (`get`/`list`/`watch`/`create`/`update`/`patch`/`delete`/`deletecollection`/`connect`),
//! derived from the method, the path and `watch` in the query ([`Verb::of`]).

use std::{
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Instant,
};

use axum::http::{Method, Request, Response, Uri};
use kube::{Client, Config, client::ClientBuilder};
use tower::{Layer, Service};
use tracing::Instrument as _;

use super::metrics::{CallOutcome, Metrics};

/// The verb of a call to the API server, as its authorization and audit name it.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    Delete,
    DeleteCollection,
    /// exec, attach, port-forward and proxy subresources.
    Connect,
    /// Any other method.
    Other,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::List => "list",
            Self::Watch => "watch",
            Self::Create => "create",
            Self::Update => "update",
            Self::Patch => "patch",
            Self::Delete => "delete",
            Self::DeleteCollection => "deletecollection",
            Self::Connect => "connect",
            Self::Other => "other",
        }
    }

    /// Pure: the verb of a request to the API server.
    pub fn of(method: &Method, uri: &Uri) -> Self {
        let watch = uri
            .query()
            .is_some_and(|q| q.split('&').any(|pair| matches!(pair, "watch=true" | "watch=1")));
        let resource = ResourcePath::parse(uri.path());
        let connect = resource.is_some_and(|r| r.connect);
        let named = resource.is_none_or(|r| r.named);
        match *method {
            Method::GET | Method::HEAD if watch => Self::Watch,
            Method::GET | Method::HEAD | Method::POST if connect => Self::Connect,
            Method::GET | Method::HEAD if named => Self::Get,
            Method::GET | Method::HEAD => Self::List,
            Method::POST => Self::Create,
            Method::PUT => Self::Update,
            Method::PATCH => Self::Patch,
            Method::DELETE if named => Self::Delete,
            Method::DELETE => Self::DeleteCollection,
            _ => Self::Other,
        }
    }
}

/// What a resource path (`/api/v1/…`, `/apis/<group>/<version>/…`) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ResourcePath {
    /// One object (`…/pods/<name>`), not a collection.
    named: bool,
    /// A connect subresource (`…/pods/<name>/exec`).
    connect: bool,
}

impl ResourcePath {
    /// `None` for paths that are not resources (`/version`, discovery).
    fn parse(path: &str) -> Option<Self> {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let rest = match segments.first() {
            Some(&"api") => segments.get(2..)?,
            Some(&"apis") => segments.get(3..)?,
            _ => return None,
        };
        // `namespaces/<ns>/<resource>…`, except the namespace's own subresources.
        let rest = match rest {
            ["namespaces", _, resource, ..] if !matches!(*resource, "status" | "finalize") => &rest[2..],
            _ => rest,
        };
        match rest {
            [] | [""] => None,
            [_resource] => Some(Self {
                named: false,
                connect: false,
            }),
            [_resource, _name, subresource, ..] => Some(Self {
                named: true,
                connect: matches!(*subresource, "exec" | "attach" | "portforward" | "proxy"),
            }),
            [_resource, _name] => Some(Self {
                named: true,
                connect: false,
            }),
        }
    }
}

/// A kube [`Client`] from the inferred configuration (`KUBECONFIG`, or in-cluster), with its
/// calls counted and traced by [`ClusterCallLayer`].
pub async fn client(metrics: Arc<Metrics>) -> kube::Result<Client> {
    let config = Config::infer().await.map_err(kube::Error::InferConfig)?;
    Ok(ClientBuilder::try_from(config)?
        .with_layer(&ClusterCallLayer { metrics })
        .build())
}

/// Counts and traces every call of the client it wraps ([`client`]).
#[derive(Debug, Clone)]
pub struct ClusterCallLayer {
    metrics: Arc<Metrics>,
}

impl<S> Layer<S> for ClusterCallLayer {
    type Service = ClusterCalls<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ClusterCalls {
            inner,
            metrics: self.metrics.clone(),
        }
    }
}

/// The service of [`ClusterCallLayer`].
#[derive(Debug, Clone)]
pub struct ClusterCalls<S> {
    inner: S,
    metrics: Arc<Metrics>,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, B, R> Service<Request<B>> for ClusterCalls<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
    S::Error: 'static,
    R: 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<Result<S::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
    fn call(&mut self, mut req: Request<B>) -> Self::Future {
        let verb = Verb::of(req.method(), req.uri());
        let span = tracing::info_span!(
            "kube",
            verb = %verb.as_str(),
            status = tracing::field::Empty,
            otel.kind = tracing::field::Empty,
        );
        #[cfg(feature = "otel")]
        super::otel::client_span(&span, req.headers_mut());
        // The client's own spans are children of this one.
        let answer = span.in_scope(|| self.inner.call(req));
        let metrics = self.metrics.clone();
        let started = Instant::now();
        let recorded = span.clone();
        Box::pin(
            async move {
                let result = answer.await;
                let outcome = match &result {
                    Ok(res) => CallOutcome::Status(res.status().as_u16()),
                    Err(_) => CallOutcome::Error,
                };
                metrics.cluster_request(verb, outcome, started.elapsed());
                match outcome {
                    CallOutcome::Status(code) => recorded.record("status", code),
                    CallOutcome::Error => recorded.record("status", "error"),
                };
                result
            }
            .instrument(span),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_follow_the_api_servers_names() {
        for (method, uri, verb) in [
            ("GET", "/version", Verb::Get),
            ("GET", "/apis", Verb::Get),
            ("GET", "/api/v1/namespaces", Verb::List),
            ("GET", "/api/v1/namespaces/ludis-acme", Verb::Get),
            (
                "PATCH",
                "/api/v1/namespaces/ludis-acme?fieldManager=ludis-api",
                Verb::Patch,
            ),
            ("DELETE", "/api/v1/namespaces/ludis-acme", Verb::Delete),
            ("PUT", "/api/v1/namespaces/ludis-acme/finalize", Verb::Update),
            ("GET", "/api/v1/namespaces/ludis-acme/status", Verb::Get),
            ("GET", "/api/v1/pods", Verb::List),
            ("GET", "/api/v1/namespaces/ns/pods", Verb::List),
            (
                "GET",
                "/api/v1/namespaces/ns/pods?watch=true&resourceVersion=1",
                Verb::Watch,
            ),
            (
                "GET",
                "/api/v1/namespaces/ns/pods?fieldSelector=a&watch=1",
                Verb::Watch,
            ),
            ("GET", "/api/v1/namespaces/ns/pods?watch=false", Verb::List),
            ("GET", "/api/v1/namespaces/ns/pods/p", Verb::Get),
            ("GET", "/api/v1/namespaces/ns/pods/p/log?follow=true", Verb::Get),
            (
                "GET",
                "/api/v1/namespaces/ns/pods/p/exec?command=sh&tty=true",
                Verb::Connect,
            ),
            ("POST", "/api/v1/namespaces/ns/pods/p/attach", Verb::Connect),
            ("POST", "/api/v1/namespaces/ns/pods", Verb::Create),
            ("PUT", "/api/v1/namespaces/ns/pods/p/status", Verb::Update),
            ("DELETE", "/api/v1/namespaces/ns/pods", Verb::DeleteCollection),
            ("GET", "/apis/ludis.dev/v1alpha1/insights", Verb::List),
            (
                "GET",
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i",
                Verb::Get,
            ),
            (
                "PATCH",
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i/status",
                Verb::Patch,
            ),
            ("GET", "/apis/ludis.dev/v1alpha1", Verb::Get),
            (
                "GET",
                "/apis/networking.k8s.io/v1/networkpolicies?labelSelector=x",
                Verb::List,
            ),
            ("OPTIONS", "/api/v1/pods", Verb::Other),
        ] {
            let method: Method = method.parse().unwrap();
            let uri: Uri = uri.parse().unwrap();
            assert_eq!(Verb::of(&method, &uri), verb, "{method} {uri}");
        }
    }
}
