//! Every call to the API server, measured: a tower layer on the kube `Client` (built with kube's
//! `ClientBuilder`) that records each request's duration by verb and its count by verb and status.
//! The verb is the API server's own name for the request (`get`, `list`, `watch`, `create`,
//! `update`, `patch`, `apply`, `delete`, `deletecollection`), read from the method and the path
//! the way the API server reads them.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::Instant,
};

use http::{Method, Request, Response, header::CONTENT_TYPE};
use prometheus_client::{
    encoding::{EncodeLabelValue, LabelValueEncoder},
    metrics::{counter::Counter, family::Family, histogram::Histogram},
};
use tower::{Layer, Service};

use super::{RequestLabels, VerbLabels};

/// What a request does, as the API server names it.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    /// A server-side apply (a PATCH of type `application/apply-patch+yaml`).
    Apply,
    Delete,
    DeleteCollection,
    /// Any other method (OPTIONS, HEAD …).
    Other,
}

/// The namespace subresources, which follow a namespace's name instead of a resource.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::List => "list",
            Self::Watch => "watch",
            Self::Create => "create",
            Self::Update => "update",
            Self::Patch => "patch",
            Self::Apply => "apply",
            Self::Delete => "delete",
            Self::DeleteCollection => "deletecollection",
            Self::Other => "other",
        }
    }

    /// Pure: the verb of a request with `method` on `path` (without the query) and `query`,
    /// whose body has `content_type`. A resource request names an object when a name follows
    /// the resource (`/api/v1/namespaces/ns/pods/p`), else it is about the collection (`…/pods`,
    /// or every namespace's with `/api/v1/pods`); other paths (`/version`) are single objects.
    pub fn of(method: &Method, path: &str, query: Option<&str>, content_type: Option<&str>) -> Self {
        let named = names_an_object(path);
        match *method {
            Method::GET if is_watch(path, query) => Self::Watch,
            Method::GET if named => Self::Get,
            Method::GET => Self::List,
            Method::POST => Self::Create,
            Method::PUT => Self::Update,
            Method::PATCH if content_type.is_some_and(|c| c.starts_with("application/apply-patch")) => {
                Self::Apply
            }
            Method::PATCH => Self::Patch,
            Method::DELETE if named => Self::Delete,
            Method::DELETE => Self::DeleteCollection,
            _ => Self::Other,
        }
    }

    fn of_request<B>(req: &Request<B>) -> Self {
        let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
        Self::of(req.method(), req.uri().path(), req.uri().query(), content_type)
    }
}

impl EncodeLabelValue for Verb {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        std::fmt::Write::write_str(encoder, self.as_str())
    }
}

/// `?watch=true` (or `1`), or the old `/watch/` path prefix.
fn is_watch(path: &str, query: Option<&str>) -> bool {
    let by_query = query.is_some_and(|q| {
        q.split('&')
            .any(|pair| matches!(pair, "watch=true" | "watch=1" | "watch=True"))
    });
    by_query || resource_parts(path).is_some_and(|(watch, _)| watch)
}

/// Whether `path` names one object: a name after the resource, or a path that is not a resource
/// path at all (`/version`, `/healthz`).
fn names_an_object(path: &str) -> bool {
    let Some((_, parts)) = resource_parts(path) else {
        return true;
    };
    let mut parts = parts.as_slice();
    if let ["namespaces", _ns, rest @ ..] = parts
        && !rest.is_empty()
        && !NAMESPACE_SUBRESOURCES.contains(&rest[0])
    {
        parts = rest;
    }
    // resource, name, subresource…
    parts.len() >= 2
}

/// The segments after `/api/<version>` or `/apis/<group>/<version>` (and whether the old `watch`
/// segment came first), or None for a path outside the resource API.
fn resource_parts(path: &str) -> Option<(bool, Vec<&str>)> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let rest = match segments.as_slice() {
        ["api", _version, rest @ ..] => rest,
        ["apis", _group, _version, rest @ ..] => rest,
        _ => return None,
    };
    match rest {
        ["watch", rest @ ..] => Some((true, rest.to_vec())),
        _ => Some((false, rest.to_vec())),
    }
}

/// How a request ended: the response's HTTP status, or an error before any response.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Outcome {
    Status(u16),
    Error,
}

impl EncodeLabelValue for Outcome {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        match self {
            Self::Status(code) => std::fmt::Write::write_fmt(encoder, format_args!("{code}")),
            Self::Error => std::fmt::Write::write_str(encoder, "error"),
        }
    }
}

/// The layer: `ClientBuilder::try_from(config)?.with_layer(&metrics.kube_requests_layer())`.
#[derive(Clone)]
pub struct KubeRequests {
    duration: Family<VerbLabels, Histogram>,
    total: Family<RequestLabels, Counter>,
}

impl KubeRequests {
    pub fn new(duration: Family<VerbLabels, Histogram>, total: Family<RequestLabels, Counter>) -> Self {
        Self { duration, total }
    }

    fn record(&self, verb: Verb, status: Outcome, seconds: f64) {
        self.duration.get_or_create(&VerbLabels { verb }).observe(seconds);
        self.total.get_or_create(&RequestLabels { verb, status }).inc();
    }
}

impl<S> Layer<S> for KubeRequests {
    type Service = Measured<S>;

    fn layer(&self, inner: S) -> Measured<S> {
        Measured {
            inner,
            metrics: self.clone(),
        }
    }
}

/// A service whose every call is measured.
pub struct Measured<S> {
    inner: S,
    metrics: KubeRequests,
}

impl<S, B, R> Service<Request<B>> for Measured<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    R: Send + 'static,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let verb = Verb::of_request(&req);
        let metrics = self.metrics.clone();
        let start = Instant::now();
        let response = self.inner.call(req);
        Box::pin(async move {
            let response = response.await;
            let outcome = match &response {
                Ok(r) => Outcome::Status(r.status().as_u16()),
                Err(_) => Outcome::Error,
            };
            metrics.record(verb, outcome, start.elapsed().as_secs_f64());
            response
        })
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use http::StatusCode;
    use tower::ServiceExt as _;

    use super::*;

    #[test]
    fn verbs_are_read_as_the_api_server_reads_them() {
        let apply = Some("application/apply-patch+yaml");
        let merge = Some("application/merge-patch+json");
        // method, path, query, content type → verb
        type Case<'a> = (Method, &'a str, Option<&'a str>, Option<&'a str>, Verb);
        let cases: &[Case] = &[
            (Method::GET, "/api/v1/namespaces/ns/pods/p", None, None, Verb::Get),
            (Method::GET, "/api/v1/namespaces/ns/pods", None, None, Verb::List),
            (
                Method::GET,
                "/api/v1/pods",
                Some("labelSelector=a%3Db"),
                None,
                Verb::List,
            ),
            (
                Method::GET,
                "/api/v1/pods",
                Some("watch=true&resourceVersion=1"),
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/apis/apps/v1/deployments",
                Some("allowWatchBookmarks=true&watch=1"),
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/api/v1/watch/namespaces/ns/pods",
                None,
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/api/v1/namespaces/ns/pods/p/log",
                Some("follow=true"),
                None,
                Verb::Get,
            ),
            (
                Method::GET,
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i",
                None,
                None,
                Verb::Get,
            ),
            (
                Method::GET,
                "/apis/ludis.dev/v1alpha1/insights",
                None,
                None,
                Verb::List,
            ),
            (Method::GET, "/api/v1/namespaces", None, None, Verb::List),
            (Method::GET, "/api/v1/namespaces/ns", None, None, Verb::Get),
            (Method::GET, "/api/v1/namespaces/ns/status", None, None, Verb::Get),
            (
                Method::GET,
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x.ludis.dev",
                None,
                None,
                Verb::Get,
            ),
            (Method::GET, "/version", None, None, Verb::Get),
            (
                Method::POST,
                "/api/v1/namespaces/ns/pods",
                None,
                None,
                Verb::Create,
            ),
            (
                Method::POST,
                "/apis/events.k8s.io/v1/namespaces/ns/events",
                None,
                None,
                Verb::Create,
            ),
            (
                Method::PUT,
                "/apis/coordination.k8s.io/v1/namespaces/s/leases/l",
                None,
                None,
                Verb::Update,
            ),
            (
                Method::PATCH,
                "/apis/apps/v1/namespaces/ns/deployments/d",
                Some("fieldManager=x"),
                apply,
                Verb::Apply,
            ),
            (
                Method::PATCH,
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i/status",
                None,
                merge,
                Verb::Patch,
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/ns/pods/p",
                None,
                None,
                Verb::Delete,
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/ns/pods",
                Some("labelSelector=a"),
                None,
                Verb::DeleteCollection,
            ),
            (Method::HEAD, "/api/v1/pods", None, None, Verb::Other),
        ];
        for (method, path, query, content_type, verb) in cases {
            assert_eq!(
                Verb::of(method, path, *query, *content_type),
                *verb,
                "{method} {path}?{query:?}"
            );
        }
    }

    #[tokio::test]
    async fn every_call_is_counted_by_verb_and_status_and_timed() {
        let duration = Family::<VerbLabels, Histogram>::new_with_constructor(
            super::super::latency_histogram as fn() -> Histogram,
        );
        let total = Family::<RequestLabels, Counter>::default();
        let layer = KubeRequests::new(duration.clone(), total.clone());
        // The inner service answers 404 for a missing object, 200 otherwise.
        let inner = tower::service_fn(|req: Request<()>| async move {
            let status = if req.uri().path().ends_with("/missing") {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            Ok::<_, Infallible>(Response::builder().status(status).body(()).unwrap())
        });
        let mut svc = layer.layer(inner);
        for path in [
            "/api/v1/namespaces/ns/pods/p",
            "/api/v1/namespaces/ns/pods/missing",
            "/api/v1/pods",
        ] {
            let req = Request::get(path).body(()).unwrap();
            svc.ready().await.unwrap().call(req).await.unwrap();
        }
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

    #[tokio::test]
    async fn a_failed_call_counts_as_an_error() {
        let total = Family::<RequestLabels, Counter>::default();
        let layer = KubeRequests::new(
            Family::new_with_constructor(super::super::latency_histogram as fn() -> Histogram),
            total.clone(),
        );
        let inner =
            tower::service_fn(|_: Request<()>| async { Err::<Response<()>, _>("connection refused") });
        let mut svc = layer.layer(inner);
        let req = Request::post("/api/v1/namespaces/ns/pods").body(()).unwrap();
        assert!(svc.ready().await.unwrap().call(req).await.is_err());
        let errors = total
            .get_or_create(&RequestLabels {
                verb: Verb::Create,
                status: Outcome::Error,
            })
            .get();
        assert_eq!(errors, 1);
    }
}
