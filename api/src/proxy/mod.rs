//! The reverse-proxy engine: forwards one request to an upstream HTTP service mounted under a
//! prefix (`/apps/{id}` for published apps; a project's web view can mount another), and pipes an
//! upgraded connection (websockets, any HTTP/1.1 upgrade) both ways. Who may reach which upstream
//! is the caller's business ([`crate::routes::apps`] decides it with the one access rule); this
//! module only moves bytes and headers.
//!
//! - **To the upstream**: the method, the path after the prefix (still percent-encoded), the query
//!   the caller keeps, the caller's `Host`, headers without hop-by-hop ones, `Authorization`, `X-Api-Key` and the
//!   caller's private cookie, plus `X-Forwarded-For`, `-Proto`, `-Host` and `X-Forwarded-Prefix`
//!   ([`headers::forward_headers`]). Bodies stream; connecting gives up after 5 seconds, nothing
//!   else is timed.
//! - **Back**: hop-by-hop headers and any `Set-Cookie` naming the private cookie go; a `Location`
//!   pointing at the upstream itself is moved under the prefix ([`upstream::Upstream`]).
//! - **Upgrades**: the upstream's `101` is answered as is and both upgraded halves are handed
//!   back ([`Forwarded::Upgraded`]) for [`pipe`], which runs until either side closes or the
//!   caller's `until` future ends (e.g. access was revoked).

pub mod headers;
pub mod upstream;

use std::{future::Future, sync::OnceLock, time::Duration};

use axum::{
    body::Body,
    extract::Request,
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::Response,
};
use hyper::upgrade::OnUpgrade;
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::{TokioExecutor, TokioIo},
};

pub use headers::{forwarded_proto, upgrade_of};
pub use upstream::Upstream;

/// Connecting to an upstream gives up after this long.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

type HttpClient = Client<HttpConnector, Body>;

/// The one client of every upstream connection (pooled; connecting gives up after 5 seconds).
fn client() -> &'static HttpClient {
    static CLIENT: OnceLock<HttpClient> = OnceLock::new();
    CLIENT.get_or_init(|| {
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(CONNECT_TIMEOUT));
        connector.set_nodelay(true);
        Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(60))
            .build(connector)
    })
}

/// Where one request goes.
pub struct Target<'a> {
    pub upstream: &'a Upstream,
    /// Where the upstream is mounted (`/apps/{id}`), for `X-Forwarded-Prefix` and redirects.
    pub prefix: &'a str,
    /// The path after the prefix (`/…`, still percent-encoded).
    pub tail: &'a str,
    /// The query sent on (without what the proxy consumed, e.g. a ticket).
    pub query: &'a str,
    /// The proxy's own session cookie, never sent to the upstream nor set by it.
    pub private_cookie: &'a str,
    /// The client's address, for `X-Forwarded-For`.
    pub client_ip: Option<String>,
    /// The `Authorization` the upstream itself asks for (a notebook server's token); the
    /// client's own never goes on.
    pub authorization: Option<HeaderValue>,
}

/// What the upstream answered.
pub enum Forwarded {
    /// An ordinary answer, its body streaming.
    Response(Response),
    /// A switched connection: the `101` to send now, and both halves to [`pipe`] once upgraded.
    Upgraded {
        response: Response,
        client: OnUpgrade,
        upstream: OnUpgrade,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    #[error("the upstream does not answer: {0}")]
    Unreachable(#[from] hyper_util::client::legacy::Error),
    #[error("this connection cannot be upgraded")]
    UpgradeUnsupported,
    #[error("no URI for this path: {0}")]
    Uri(#[from] axum::http::Error),
    #[error("not a header value: {0}")]
    Header(#[from] axum::http::header::InvalidHeaderValue),
}

/// Sends a request (its head `parts` and `body`) to `target` and brings the answer back.
pub async fn forward(mut parts: Parts, body: Body, target: &Target<'_>) -> Result<Forwarded, ForwardError> {
    let upgrade = upgrade_of(&parts.headers);
    let mut out = Request::new(if upgrade.is_some() { Body::empty() } else { body });
    *out.method_mut() = parts.method.clone();
    *out.uri_mut() = target.upstream.uri(target.tail, target.query)?;
    *out.headers_mut() = headers::forward_headers(
        &parts.headers,
        target.prefix,
        target.private_cookie,
        target.client_ip.as_deref(),
        upgrade.as_ref(),
    );
    if let Some(auth) = &target.authorization {
        out.headers_mut().insert(header::AUTHORIZATION, auth.clone());
    }
    // The browser's `Host` goes on (kept by `forward_headers`); a request without one (HTTP/2
    // names it in `:authority`) names the upstream.
    if !out.headers().contains_key(header::HOST) {
        let host = match parts.uri.authority() {
            Some(a) => HeaderValue::from_str(a.as_str())?,
            None => HeaderValue::from_str(target.upstream.authority())?,
        };
        out.headers_mut().insert(header::HOST, host);
    }

    let mut res = client().request(out).await?;

    if res.status() == StatusCode::SWITCHING_PROTOCOLS && upgrade.is_some() {
        let from_upstream = hyper::upgrade::on(&mut res);
        let from_client = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or(ForwardError::UpgradeUnsupported)?;
        let (head, _) = res.into_parts();
        let mut response = Response::from_parts(head, Body::empty());
        headers::strip_response_headers(response.headers_mut(), target.private_cookie, true);
        return Ok(Forwarded::Upgraded {
            response,
            client: from_client,
            upstream: from_upstream,
        });
    }

    let (mut head, incoming) = res.into_parts();
    headers::strip_response_headers(&mut head.headers, target.private_cookie, false);
    if let Some(location) = head.headers.get(header::LOCATION).and_then(|v| v.to_str().ok())
        && let Some(rewritten) = target.upstream.rewrite_location(location, target.prefix)
        && let Ok(v) = HeaderValue::from_str(&rewritten)
    {
        head.headers.insert(header::LOCATION, v);
    }
    Ok(Forwarded::Response(Response::from_parts(
        head,
        Body::new(incoming),
    )))
}

/// Pipes an upgraded connection both ways until either side closes or `until` ends. An upgrade
/// that fails on either side is the error.
pub async fn pipe(
    client: OnUpgrade,
    upstream: OnUpgrade,
    until: impl Future<Output = ()>,
) -> Result<(), hyper::Error> {
    let (client_io, upstream_io) = tokio::try_join!(client, upstream)?;
    let (mut client_io, mut upstream_io) = (TokioIo::new(client_io), TokioIo::new(upstream_io));
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client_io, &mut upstream_io) => {}
        () = until => {}
    }
    Ok(())
}
