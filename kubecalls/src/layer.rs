//! The layer on a kube client: `ClientBuilder::try_from(config)?.with_layer(&CallLayer::new(r))`.
//! Each call runs in a span `kube{verb, status}`, a child of the caller's, and its verb, outcome
//! and time until the answer began go to the component's [`Recorder`].

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::{Duration, Instant},
};

use http::{HeaderMap, Request, Response};
use tower::{Layer, Service};
use tracing::{Instrument as _, Span};

use crate::{Outcome, Verb};

/// Told about every call of a client wrapped in [`CallLayer`].
pub trait Recorder: Clone + Send + Sync + 'static {
    /// A call is about to leave inside `span` (its `kube` span): a recorder may add headers (a
    /// trace context) or record the span's fields (`otel.kind`, for OpenTelemetry). Nothing by
    /// default.
    fn sending(&self, _headers: &mut HeaderMap, _span: &Span) {}

    /// A call ended: its verb, how, and how long its answer took to begin.
    fn finished(&self, verb: Verb, outcome: Outcome, took: Duration);
}

/// Reports every call of the client it wraps to `R`.
#[derive(Clone, Debug)]
pub struct CallLayer<R> {
    recorder: R,
}

impl<R: Recorder> CallLayer<R> {
    pub fn new(recorder: R) -> Self {
        Self { recorder }
    }
}

impl<S, R: Recorder> Layer<S> for CallLayer<R> {
    type Service = Calls<S, R>;

    fn layer(&self, inner: S) -> Calls<S, R> {
        Calls {
            inner,
            recorder: self.recorder.clone(),
        }
    }
}

/// A service whose every call is reported ([`CallLayer`]).
#[derive(Clone, Debug)]
pub struct Calls<S, R> {
    inner: S,
    recorder: R,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, R, B, Body> Service<Request<B>> for Calls<S, R>
where
    S: Service<Request<B>, Response = Response<Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    Body: Send + 'static,
    R: Recorder,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<Result<Response<Body>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<B>) -> Self::Future {
        let verb = Verb::of_request(&req);
        let span = tracing::info_span!(
            "kube",
            verb = %verb.as_str(),
            status = tracing::field::Empty,
            otel.kind = tracing::field::Empty,
        );
        self.recorder.sending(req.headers_mut(), &span);
        // The client's own spans are children of this one.
        let answer = span.in_scope(|| self.inner.call(req));
        let recorder = self.recorder.clone();
        let started = Instant::now();
        let recorded = span.clone();
        Box::pin(
            async move {
                let result = answer.await;
                let outcome = match &result {
                    Ok(res) => Outcome::Status(res.status().as_u16()),
                    Err(_) => Outcome::Error,
                };
                recorder.finished(verb, outcome, started.elapsed());
                match outcome {
                    Outcome::Status(code) => recorded.record("status", code),
                    Outcome::Error => recorded.record("status", "error"),
                };
                result
            }
            .instrument(span),
        )
    }
}

#[cfg(test)]
mod tests {
    use std::{
        convert::Infallible,
        sync::{Arc, Mutex},
    };

    use http::{HeaderValue, StatusCode};
    use tower::ServiceExt as _;

    use super::*;

    /// Keeps what it is told.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<(Verb, Outcome)>>>);

    impl Recorder for Kept {
        fn sending(&self, headers: &mut HeaderMap, _span: &Span) {
            headers.insert("x-seen", HeaderValue::from_static("1"));
        }
        fn finished(&self, verb: Verb, outcome: Outcome, _took: Duration) {
            self.0.lock().unwrap().push((verb, outcome));
        }
    }

    #[tokio::test]
    async fn every_call_is_reported_by_verb_and_status() {
        let kept = Kept::default();
        // The inner service answers 404 for a missing object, 200 otherwise, and 400 when the
        // recorder did not see the request first.
        let inner = tower::service_fn(|req: Request<()>| async move {
            let status = if req.headers().get("x-seen").is_none() {
                StatusCode::BAD_REQUEST
            } else if req.uri().path().ends_with("/missing") {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            Ok::<_, Infallible>(Response::builder().status(status).body(()).unwrap())
        });
        let mut svc = CallLayer::new(kept.clone()).layer(inner);
        for path in [
            "/api/v1/namespaces/ns/pods/p",
            "/api/v1/namespaces/ns/pods/missing",
            "/api/v1/pods",
        ] {
            let req = Request::get(path).body(()).unwrap();
            svc.ready().await.unwrap().call(req).await.unwrap();
        }
        assert_eq!(
            *kept.0.lock().unwrap(),
            [
                (Verb::Get, Outcome::Status(200)),
                (Verb::Get, Outcome::Status(404)),
                (Verb::List, Outcome::Status(200)),
            ]
        );
    }

    #[tokio::test]
    async fn a_failed_call_counts_as_an_error() {
        let kept = Kept::default();
        let inner =
            tower::service_fn(|_: Request<()>| async { Err::<Response<()>, _>("connection refused") });
        let mut svc = CallLayer::new(kept.clone()).layer(inner);
        let req = Request::post("/api/v1/namespaces/ns/pods").body(()).unwrap();
        assert!(svc.ready().await.unwrap().call(req).await.is_err());
        assert_eq!(*kept.0.lock().unwrap(), [(Verb::Create, Outcome::Error)]);
    }
}
