//! The metrics listener (`LUDIS_METRICS_LISTEN`): `GET /metrics` in the OpenMetrics text format,
//! on an address of its own so the public listener never serves it.

use std::{net::SocketAddr, sync::Arc};

use axum::{
    Router,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use tokio::net::TcpListener;

use super::Metrics;

/// The content type of the OpenMetrics text format.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A listener's address setting (`LUDIS_METRICS_LISTEN`, `LUDIS_STORAGE_LISTEN`): an address, or
/// empty for none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OptionalListen(pub Option<SocketAddr>);

impl std::str::FromStr for OptionalListen {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(Self(None));
        }
        s.parse()
            .map(|a| Self(Some(a)))
            .map_err(|_| format!("{s:?} is not an address like 0.0.0.0:9090"))
    }
}

/// The metrics listener's routes.
pub fn router(metrics: Arc<Metrics>) -> Router {
    Router::new().route("/metrics", get(scrape)).with_state(metrics)
}

async fn scrape(State(metrics): State<Arc<Metrics>>) -> Response {
    ([(header::CONTENT_TYPE, CONTENT_TYPE)], metrics.render()).into_response()
}

/// Serves [`router`] on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, metrics: Arc<Metrics>) -> std::io::Result<()> {
    axum::serve(listener, router(metrics)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listen_setting_is_an_address_or_empty() {
        assert_eq!("".parse::<OptionalListen>().unwrap(), OptionalListen(None));
        assert_eq!(
            " 0.0.0.0:9090 ".parse::<OptionalListen>().unwrap().0,
            Some("0.0.0.0:9090".parse().unwrap())
        );
        let err = "9090".parse::<OptionalListen>().unwrap_err();
        assert!(err.contains("not an address"), "{err}");
    }
}
