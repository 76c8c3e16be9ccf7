//! The API's HTTP client for services outside it (the assistant's provider, the chains' JSON-RPC
//! endpoints): hyper over rustls with ring and the system's certificate roots, HTTP/1, a 10 s
//! connect timeout.

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::TokioExecutor,
};

/// A client for `http://` and `https://` addresses, with full request bodies.
pub type HttpsClient = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

/// A new [`HttpsClient`]; fails only when the system's certificate roots cannot be read.
pub fn https_client() -> anyhow::Result<HttpsClient> {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_connect_timeout(Some(Duration::from_secs(10)));
    http.set_nodelay(true);
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_native_roots(rustls::crypto::ring::default_provider())
        .map_err(|e| anyhow::anyhow!("the system's certificate roots could not be read: {e}"))?
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Ok(Client::builder(TokioExecutor::new()).build(connector))
}
