//! Long-lived sessions a request starts (websockets, upgrades piped by the app proxy): counted
//! while they run ([`super::Metrics::session_opened`]) and inside the span of the request that
//! opened them, so their log lines carry its request id although they run in a task of their own.

use std::sync::Arc;

use tracing::{Instrument as _, Span};

use super::{Metrics, WebSocketKind};

/// A session about to start, made while its request is handled ([`session`]).
#[derive(Debug)]
pub struct Session {
    metrics: Arc<Metrics>,
    kind: WebSocketKind,
    span: Span,
}

/// A session of `kind` started by the current request.
pub fn session(metrics: Arc<Metrics>, kind: WebSocketKind) -> Session {
    Session {
        metrics,
        kind,
        span: Span::current(),
    }
}

impl Session {
    /// Runs `session`, counted as open meanwhile, in the request's span.
    pub fn run<F: Future>(self, session: F) -> impl Future<Output = F::Output> {
        let Self { metrics, kind, span } = self;
        async move {
            let _open = metrics.session_opened(kind);
            session.await
        }
        .instrument(span)
    }
}
