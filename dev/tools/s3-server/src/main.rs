//! `s3-server`: the local S3-protocol server of the Ludis development platform and tests.
//!
//! The storage and the S3 protocol (SigV4 with one access key, presigned URLs, objects kept as
//! plain files) are the `s3s-fs` crate's. This binary puts a thin HTTP layer in front of it that
//! speaks CORS, so the console in a browser can upload and download with presigned URLs:
//!
//! - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered here,
//!   before S3 authentication: 204 with the allow headers for an allowed origin, 403 without them
//!   otherwise;
//! - every other response to a request from an allowed origin carries
//!   `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers` (so the browser can read
//!   the `ETag` of an upload, for instance).
//!
//! With no `--cors-origin`, every origin is allowed (`*`); with some, only those, echoed back
//! with `Vary: Origin`.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use hyper::body::Incoming;
use hyper::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, ACCESS_CONTROL_REQUEST_HEADERS,
    ACCESS_CONTROL_REQUEST_METHOD, HeaderMap, HeaderValue, ORIGIN, VARY,
};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder as ConnBuilder;
use hyper_util::server::graceful::GracefulShutdown;
use s3s::auth::SimpleAuth;
use s3s::service::{S3Service, S3ServiceBuilder};
use s3s::{Body, HttpError};
use s3s_fs::FileSystem;
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};
use tracing::{debug, info, warn};

/// Methods a browser may use on presigned URLs (and the SDK's form uploads and deletes).
const ALLOW_METHODS: &str = "GET, PUT, HEAD, POST, DELETE";
/// Response headers a browser script may read.
const EXPOSE_HEADERS: &str = "ETag, Content-Length, Content-Type, Content-Disposition, x-amz-request-id";
/// How long a browser may cache a preflight answer, in seconds.
const MAX_AGE: &str = "3600";
/// How long open connections may take to finish after a stop signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, Parser)]
#[command(
    version,
    about = "S3-protocol server on a folder (s3s-fs storage) that answers CORS"
)]
struct Opt {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,

    /// Port to listen on (0: any free port, printed in the log).
    #[arg(long, default_value_t = 8014)]
    port: u16,

    /// Access key of the one credential requests must be signed with.
    #[arg(long, requires = "secret_key")]
    access_key: Option<String>,

    /// Secret key of that credential.
    #[arg(long, requires = "access_key")]
    secret_key: Option<String>,

    /// An origin a browser may call from, e.g. http://localhost:8080 (repeatable).
    /// Without any, every origin is allowed (Access-Control-Allow-Origin: *).
    #[arg(long = "cors-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    cors_origins: Vec<String>,

    /// Folder holding the data: one sub-folder per bucket.
    root: PathBuf,
}

/// Checks one `--cors-origin` value: `*`, or `http(s)://host[:port]` without a path.
fn parse_origin(value: &str) -> Result<String, String> {
    let origin = value.trim().trim_end_matches('/');
    if origin == "*" {
        return Ok(origin.to_owned());
    }
    let bad = || format!("{value:?} is not an origin (expected e.g. http://localhost:8080, or *)");
    let (scheme, authority) = origin.split_once("://").ok_or_else(bad)?;
    let scheme_ok = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    let authority_ok = !authority.is_empty()
        && authority
            .bytes()
            .all(|b| b.is_ascii_graphic() && !matches!(b, b'/' | b'?' | b'#' | b'@'));
    if scheme_ok && authority_ok {
        Ok(origin.to_ascii_lowercase())
    } else {
        Err(bad())
    }
}

/// Which browser origins may call the server.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cors {
    /// Every origin: `Access-Control-Allow-Origin: *`.
    Any,
    /// Only these (lower case); the request's origin is echoed back, with `Vary: Origin`.
    Only(Vec<String>),
}

impl Cors {
    /// From checked `--cors-origin` values (see [`parse_origin`]).
    fn new(origins: Vec<String>) -> Cors {
        if origins.is_empty() || origins.iter().any(|o| o == "*") {
            Cors::Any
        } else {
            Cors::Only(origins)
        }
    }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, or `None` when that
    /// origin is not allowed.
    fn allow(&self, origin: &HeaderValue) -> Option<HeaderValue> {
        match self {
            Cors::Any => Some(HeaderValue::from_static("*")),
            Cors::Only(allowed) => {
                let origin_str = origin.to_str().ok()?;
                allowed
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(origin_str))
                    .then(|| origin.clone())
            }
        }
    }

    /// Whether answers depend on the request's origin (so caches must key on it).
    fn varies(&self) -> bool {
        matches!(self, Cors::Only(_))
    }

    fn describe(&self) -> String {
        match self {
            Cors::Any => "any origin".to_owned(),
            Cors::Only(allowed) => allowed.join(", "),
        }
    }
}

fn is_preflight(method: &Method, headers: &HeaderMap) -> bool {
    method == Method::OPTIONS
        && headers.contains_key(ORIGIN)
        && headers.contains_key(ACCESS_CONTROL_REQUEST_METHOD)
}

/// The answer to a preflight: 204 with the allow headers, or 403 for an origin not allowed.
fn preflight(cors: &Cors, headers: &HeaderMap) -> Response<Body> {
    let mut response = Response::new(Body::empty());
    let out = response.headers_mut();
    if cors.varies() {
        out.insert(VARY, HeaderValue::from_static("Origin"));
    }
    let allowed = headers.get(ORIGIN).and_then(|origin| cors.allow(origin));
    match allowed {
        Some(allow_origin) => {
            *response.status_mut() = StatusCode::NO_CONTENT;
            let out = response.headers_mut();
            out.insert(ACCESS_CONTROL_ALLOW_ORIGIN, allow_origin);
            out.insert(
                ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static(ALLOW_METHODS),
            );
            if let Some(requested) = headers.get(ACCESS_CONTROL_REQUEST_HEADERS) {
                out.insert(ACCESS_CONTROL_ALLOW_HEADERS, requested.clone());
            }
            out.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
        }
        None => *response.status_mut() = StatusCode::FORBIDDEN,
    }
    response
}

/// Adds the CORS headers to the S3 service's answer to a request that carried `allow_origin`'s
/// origin (`None`: no `Origin`, or one not allowed).
fn add_cors_headers(cors: &Cors, allow_origin: Option<HeaderValue>, response: &mut Response<Body>) {
    let out = response.headers_mut();
    if let Some(value) = allow_origin {
        out.insert(ACCESS_CONTROL_ALLOW_ORIGIN, value);
        out.insert(
            ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(EXPOSE_HEADERS),
        );
    }
    if cors.varies() {
        out.append(VARY, HeaderValue::from_static("Origin"));
    }
}

/// The HTTP service: CORS around the S3 service.
#[derive(Clone)]
struct App {
    s3: S3Service,
    cors: Arc<Cors>,
}

impl App {
    async fn handle(self, request: Request<Incoming>) -> Result<Response<Body>, HttpError> {
        if is_preflight(request.method(), request.headers()) {
            return Ok(preflight(&self.cors, request.headers()));
        }
        let allow_origin = request
            .headers()
            .get(ORIGIN)
            .and_then(|origin| self.cors.allow(origin));
        let mut response = self.s3.call(request.map(Body::from)).await?;
        add_cors_headers(&self.cors, allow_origin, &mut response);
        Ok(response)
    }
}

impl hyper::service::Service<Request<Incoming>> for App {
    type Response = Response<Body>;
    type Error = HttpError;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, HttpError>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        Box::pin(self.clone().handle(request))
    }
}

fn main() -> ExitCode {
    let opt = Opt::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,s3_server=info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();

    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("s3-server: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(opt)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            tracing::error!("{message}");
            eprintln!("s3-server: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(opt: Opt) -> Result<(), String> {
    let root = opt.root.display().to_string();
    if !opt.root.is_dir() {
        return Err(format!(
            "the data folder {root} does not exist or is not a folder"
        ));
    }
    let storage =
        FileSystem::new(&opt.root).map_err(|err| format!("cannot use the data folder {root}: {err:?}"))?;

    let mut builder = S3ServiceBuilder::new(storage);
    if let (Some(access_key), Some(secret_key)) = (opt.access_key, opt.secret_key) {
        builder.set_auth(SimpleAuth::from_single(access_key, secret_key));
        info!("authentication is enabled");
    }
    let app = App {
        s3: builder.build(),
        cors: Arc::new(Cors::new(opt.cors_origins)),
    };

    let listener = TcpListener::bind((opt.host.as_str(), opt.port))
        .await
        .map_err(|err| format!("cannot listen on {}:{}: {err}", opt.host, opt.port))?;
    let address = listener
        .local_addr()
        .map_err(|err| format!("cannot read the listening address: {err}"))?;
    let mut terminate =
        signal(SignalKind::terminate()).map_err(|err| format!("cannot watch SIGTERM: {err}"))?;
    let mut interrupt =
        signal(SignalKind::interrupt()).map_err(|err| format!("cannot watch SIGINT: {err}"))?;

    info!("CORS allowed for {}", app.cors.describe());
    info!("data in {root}");
    info!("server is running at http://{address}");

    let connections = ConnBuilder::new(TokioExecutor::new());
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    let connection = connections.serve_connection(TokioIo::new(socket), app.clone());
                    let connection = graceful.watch(connection.into_owned());
                    tokio::spawn(async move {
                        if let Err(err) = connection.await {
                            debug!("connection from {peer}: {err}");
                        }
                    });
                }
                Err(err) => {
                    // E.g. too many open files: wait a little rather than spin.
                    warn!("cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            _ = terminate.recv() => {
                info!("SIGTERM received, stopping");
                break;
            }
            _ = interrupt.recv() => {
                info!("interrupted, stopping");
                break;
            }
        }
    }
    drop(listener);

    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            warn!("connections still open after {} s, closing them", SHUTDOWN_GRACE.as_secs());
        }
    }
    info!("server is stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&hyper::header::HeaderName, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert((*name).clone(), HeaderValue::from_static(value));
        }
        map
    }

    fn only(origins: &[&str]) -> Cors {
        Cors::new(origins.iter().map(|o| parse_origin(o).unwrap()).collect())
    }

    #[test]
    fn origins_are_checked() {
        assert_eq!(
            parse_origin("http://localhost:8080/").unwrap(),
            "http://localhost:8080"
        );
        assert_eq!(
            parse_origin("HTTPS://Console.Example.com").unwrap(),
            "https://console.example.com"
        );
        assert_eq!(parse_origin("*").unwrap(), "*");
        for bad in [
            "",
            "localhost:8080",
            "ftp://x",
            "http://",
            "http://a/b",
            "http://a b",
            "http://u@h",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn no_origin_list_or_a_star_allows_all() {
        assert_eq!(Cors::new(vec![]), Cors::Any);
        assert_eq!(only(&["http://a:1", "*"]), Cors::Any);
        let any = Cors::Any;
        assert_eq!(any.allow(&HeaderValue::from_static("http://x")).unwrap(), "*");
        assert!(!any.varies());
    }

    #[test]
    fn an_origin_list_echoes_only_its_members() {
        let cors = only(&["http://localhost:8080"]);
        assert!(cors.varies());
        assert_eq!(
            cors.allow(&HeaderValue::from_static("http://localhost:8080"))
                .unwrap(),
            "http://localhost:8080"
        );
        assert_eq!(
            cors.allow(&HeaderValue::from_static("http://LOCALHOST:8080"))
                .unwrap(),
            "http://LOCALHOST:8080"
        );
        assert!(
            cors.allow(&HeaderValue::from_static("http://localhost:8081"))
                .is_none()
        );
        assert!(
            cors.allow(&HeaderValue::from_static("http://evil.example"))
                .is_none()
        );
        assert!(cors.allow(&HeaderValue::from_static("null")).is_none());
    }

    #[test]
    fn a_preflight_needs_origin_and_requested_method() {
        let both = headers(&[(&ORIGIN, "http://a"), (&ACCESS_CONTROL_REQUEST_METHOD, "PUT")]);
        assert!(is_preflight(&Method::OPTIONS, &both));
        assert!(!is_preflight(&Method::PUT, &both));
        assert!(!is_preflight(
            &Method::OPTIONS,
            &headers(&[(&ORIGIN, "http://a")])
        ));
        assert!(!is_preflight(
            &Method::OPTIONS,
            &headers(&[(&ACCESS_CONTROL_REQUEST_METHOD, "PUT")])
        ));
    }

    #[test]
    fn an_allowed_preflight_gets_204_and_the_allow_headers() {
        let cors = only(&["http://localhost:8080"]);
        let request = headers(&[
            (&ORIGIN, "http://localhost:8080"),
            (&ACCESS_CONTROL_REQUEST_METHOD, "PUT"),
            (&ACCESS_CONTROL_REQUEST_HEADERS, "content-type, x-amz-meta-a"),
        ]);
        let response = preflight(&cors, &request);
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        let h = response.headers();
        assert_eq!(h[ACCESS_CONTROL_ALLOW_ORIGIN], "http://localhost:8080");
        assert_eq!(h[ACCESS_CONTROL_ALLOW_METHODS], ALLOW_METHODS);
        assert_eq!(h[ACCESS_CONTROL_ALLOW_HEADERS], "content-type, x-amz-meta-a");
        assert_eq!(h[ACCESS_CONTROL_MAX_AGE], "3600");
        assert_eq!(h[VARY], "Origin");
    }

    #[test]
    fn a_preflight_without_requested_headers_allows_none() {
        let request = headers(&[(&ORIGIN, "http://x"), (&ACCESS_CONTROL_REQUEST_METHOD, "GET")]);
        let response = preflight(&Cors::Any, &request);
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        assert_eq!(response.headers()[ACCESS_CONTROL_ALLOW_ORIGIN], "*");
        assert!(!response.headers().contains_key(ACCESS_CONTROL_ALLOW_HEADERS));
        assert!(!response.headers().contains_key(VARY));
    }

    #[test]
    fn a_disallowed_preflight_gets_403_without_allow_headers() {
        let cors = only(&["http://localhost:8080"]);
        let request = headers(&[
            (&ORIGIN, "http://evil.example"),
            (&ACCESS_CONTROL_REQUEST_METHOD, "PUT"),
        ]);
        let response = preflight(&cors, &request);
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        for name in [
            ACCESS_CONTROL_ALLOW_ORIGIN,
            ACCESS_CONTROL_ALLOW_METHODS,
            ACCESS_CONTROL_ALLOW_HEADERS,
        ] {
            assert!(!response.headers().contains_key(&name), "{name} set");
        }
    }

    #[test]
    fn other_responses_get_origin_and_exposed_headers_only_when_allowed() {
        let cors = only(&["http://localhost:8080"]);
        let mut allowed = Response::new(Body::empty());
        allowed
            .headers_mut()
            .insert(VARY, HeaderValue::from_static("Accept-Encoding"));
        add_cors_headers(
            &cors,
            Some(HeaderValue::from_static("http://localhost:8080")),
            &mut allowed,
        );
        assert_eq!(
            allowed.headers()[ACCESS_CONTROL_ALLOW_ORIGIN],
            "http://localhost:8080"
        );
        assert_eq!(allowed.headers()[ACCESS_CONTROL_EXPOSE_HEADERS], EXPOSE_HEADERS);
        let vary: Vec<_> = allowed.headers().get_all(VARY).iter().collect();
        assert_eq!(vary, ["Accept-Encoding", "Origin"]);

        let mut denied = Response::new(Body::empty());
        add_cors_headers(&cors, None, &mut denied);
        assert!(!denied.headers().contains_key(ACCESS_CONTROL_ALLOW_ORIGIN));
        assert!(!denied.headers().contains_key(ACCESS_CONTROL_EXPOSE_HEADERS));
        assert_eq!(denied.headers()[VARY], "Origin");
    }
}
