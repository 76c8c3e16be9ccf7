//! The layers every request passes, outermost first: the request id ([`super::request_id`]),
//! counting and timing by route template ([`track`]), then (in the route table, around the panic
//! catcher) the request's span ([`trace_layer`]): `request{method, route, request_id}`, so every
//! log line written while the request is handled carries them.
//!
//! The route is the template the router matched (`/v1/insights/{id}`), never the path itself;
//! every path of the app proxy is one route ([`APP_PROXY_ROUTE`]) and a request no route
//! matched (the console's files are the router's fallback) is [`UNMATCHED`].

use std::{sync::Arc, time::Instant};

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    http::Method,
    middleware::{self, Next},
    response::Response,
};
use tower::util::MapRequestLayer;
use tower_http::{
    classify::{ServerErrorsAsFailures, SharedClassifier},
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::{MakeSpan, TraceLayer},
};
use tracing::Span;

use super::{Metrics, request_id};

/// The route of a request no route matched.
pub const UNMATCHED: &str = "unmatched";

/// The one route of the app proxy's paths (`/apps/{id}`, `/apps/{id}/`, `/apps/{id}/{*path}`).
pub const APP_PROXY_ROUTE: &str = "/apps/{id}/{*path}";

/// Pure: the route label of a request from the template the router matched.
pub fn route_label(matched: Option<&str>) -> &str {
    match matched {
        None => UNMATCHED,
        Some(template) if template == "/apps" || template.starts_with("/apps/") => APP_PROXY_ROUTE,
        Some(template) => template,
    }
}

/// Pure: the method label: the standard methods by name, any other `OTHER` (so a client cannot
/// make new series).
pub fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

fn route_of<B>(req: &axum::http::Request<B>) -> &str {
    route_label(req.extensions().get::<MatchedPath>().map(MatchedPath::as_str))
}

/// Counts and times a request by method, route template and status.
pub async fn track(State(metrics): State<Arc<Metrics>>, req: Request, next: Next) -> Response {
    let method = method_label(req.method());
    let route = route_of(&req).to_owned();
    let started = Instant::now();
    let res = next.run(req).await;
    metrics.http_request(method, &route, res.status(), started.elapsed());
    res
}

/// The request's span: `request{method, route, request_id}` at `INFO`, so every log line of the
/// request carries them. With OpenTelemetry it continues the caller's W3C `traceparent` and is
/// named `<method> <route>`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, req: &axum::http::Request<B>) -> Span {
        let method = method_label(req.method());
        let route = route_of(req);
        let span = tracing::info_span!(
            "request",
            method = %method,
            route = %route,
            request_id = %request_id::of(req),
            otel.name = tracing::field::Empty,
            otel.kind = tracing::field::Empty,
        );
        #[cfg(feature = "otel")]
        super::otel::continue_trace(&span, req.headers(), &format!("{method} {route}"));
        span
    }
}

/// tower-http's trace layer with [`RequestSpan`].
pub fn trace_layer() -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan> {
    TraceLayer::new_for_http().make_span_with(RequestSpan)
}

/// `router` with the outer layers: the request id (an unusable one replaced, set, echoed on the
/// answer) and the request metrics.
pub fn observed<S: Clone + Send + Sync + 'static>(router: Router<S>, metrics: Arc<Metrics>) -> Router<S> {
    router
        .layer(middleware::from_fn_with_state(metrics, track))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(MapRequestLayer::new(request_id::drop_unusable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_templates_and_the_app_proxy_is_one() {
        assert_eq!(route_label(Some("/v1/insights/{id}")), "/v1/insights/{id}");
        assert_eq!(route_label(None), UNMATCHED);
        for template in ["/apps/{id}", "/apps/{id}/", "/apps/{id}/{*path}"] {
            assert_eq!(route_label(Some(template)), APP_PROXY_ROUTE, "{template}");
        }
        assert_eq!(route_label(Some("/applications")), "/applications");
    }

    #[test]
    fn unusual_methods_share_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::DELETE), "DELETE");
        let odd: Method = "PROPFIND".parse().unwrap();
        assert_eq!(method_label(&odd), "OTHER");
    }
}
