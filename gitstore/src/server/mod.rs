//! The smart-HTTP server for hosted repositories: clone, fetch and push over HTTP with Basic
//! authentication, served by git's own `http-backend` run as a CGI program.
//!
//! [`router`] answers, relative to where it is mounted (the API nests it under `/git`):
//!
//! - `GET  /{namespace}/{project}.git/info/refs?service=git-upload-pack|git-receive-pack`
//! - `POST /{namespace}/{project}.git/git-upload-pack`
//! - `POST /{namespace}/{project}.git/git-receive-pack`
//!
//! and nothing else: no dumb-HTTP files (`HEAD`, `objects/…`), no other query. The repository is
//! resolved only from the checked namespace and project id ([`RepoId`]); the CGI program gets a
//! `PATH_INFO` built from them, never the request's path. Each request is decided in this order:
//! the endpoint (else 404), the repository name (else 404), credentials (none → 401 with
//! `WWW-Authenticate: Basic`), the caller's [`Authorize`] rule (bad credentials → 401; no access or
//! unknown repository → 404; a push with read access → 403), the repository on disk (else 404).
//! Request bodies are streamed; gzip-encoded ones (git sends them for large requests) are passed
//! to `http-backend` encoded, and pushes are limited to [`ServerConfig::max_push_bytes`].

mod auth;
mod cgi;

use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use auth::{Access, Authorize, BasicCredentials};

use crate::input::RepoId;
use cgi::Cgi;

/// Debian's `git` package puts `http-backend` here.
pub const DEFAULT_BACKEND: &str = "/usr/lib/git-core/git-http-backend";

/// The largest push accepted, in bytes, by default (the body as sent, compressed or not).
pub const DEFAULT_MAX_PUSH_BYTES: u64 = 512 * 1024 * 1024;

/// The largest fetch negotiation accepted, in bytes (wants and haves; never file content).
pub const MAX_FETCH_REQUEST_BYTES: u64 = 16 * 1024 * 1024;

/// Where the hosted repositories are and how they are served.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The same folder as [`crate::StoreConfig::hosted_root`].
    pub hosted_root: PathBuf,
    /// The same folder as [`crate::StoreConfig::cache_root`]: the mirrors of external remotes
    /// ([`Access::ReadMirror`]); `None` serves none.
    pub mirror_root: Option<PathBuf>,
    /// git's `http-backend` program.
    pub backend: PathBuf,
    pub max_push_bytes: u64,
}

impl ServerConfig {
    pub fn new(hosted_root: impl Into<PathBuf>) -> Self {
        ServerConfig {
            hosted_root: hosted_root.into(),
            mirror_root: None,
            backend: PathBuf::from(DEFAULT_BACKEND),
            max_push_bytes: DEFAULT_MAX_PUSH_BYTES,
        }
    }
}

/// The git protocol's two services.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Service {
    UploadPack,
    ReceivePack,
}

impl Service {
    fn from_name(name: &str) -> Option<Self> {
        match name {
            "git-upload-pack" => Some(Service::UploadPack),
            "git-receive-pack" => Some(Service::ReceivePack),
            _ => None,
        }
    }

    /// `service=<name>` and nothing else.
    fn from_query(query: Option<&str>) -> Option<Self> {
        Self::from_name(query?.strip_prefix("service=")?)
    }

    fn name(self) -> &'static str {
        match self {
            Service::UploadPack => "git-upload-pack",
            Service::ReceivePack => "git-receive-pack",
        }
    }

    fn allowed(self, access: Access) -> bool {
        match self {
            Service::UploadPack => matches!(access, Access::Read | Access::Write | Access::ReadMirror),
            Service::ReceivePack => access == Access::Write,
        }
    }
}

/// One of the three smart-HTTP requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    /// `GET info/refs?service=…`: the reference advertisement.
    Advertise(Service),
    /// `POST git-upload-pack` or `git-receive-pack`: the exchange itself.
    Exchange(Service),
}

impl Endpoint {
    fn service(self) -> Service {
        match self {
            Endpoint::Advertise(service) | Endpoint::Exchange(service) => service,
        }
    }
}

struct ServerState<A> {
    config: ServerConfig,
    authorize: A,
}

/// The smart-HTTP routes, for the API to nest (for example under `/git`). Mount it outside any
/// body-size layer of the JSON routes: pushes are limited here.
pub fn router<A: Authorize, S>(config: ServerConfig, authorize: A) -> Router<S> {
    let state = Arc::new(ServerState { config, authorize });
    Router::new()
        .route("/{namespace}/{repo}/info/refs", get(advertise::<A>))
        .route(
            "/{namespace}/{repo}/{service}",
            post(exchange::<A>).fallback(async || not_found()),
        )
        .fallback(|| async { not_found() })
        .with_state(state)
}

async fn advertise<A: Authorize>(
    State(state): State<Arc<ServerState<A>>>,
    Path((namespace, repo)): Path<(String, String)>,
    request: Request,
) -> Response {
    match Service::from_query(request.uri().query()) {
        Some(service) => serve(&state, &namespace, &repo, Endpoint::Advertise(service), request).await,
        // A client without a service asks for the dumb protocol, which is not served.
        None => (
            StatusCode::NOT_FOUND,
            "Only git's smart HTTP protocol is served here\n",
        )
            .into_response(),
    }
}

async fn exchange<A: Authorize>(
    State(state): State<Arc<ServerState<A>>>,
    Path((namespace, repo, service)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    match Service::from_name(&service) {
        Some(service) => serve(&state, &namespace, &repo, Endpoint::Exchange(service), request).await,
        None => not_found(),
    }
}

async fn serve<A: Authorize>(
    state: &ServerState<A>,
    namespace: &str,
    repo: &str,
    endpoint: Endpoint,
    request: Request,
) -> Response {
    let Some(id) = repo
        .strip_suffix(".git")
        .and_then(|project| RepoId::parse(namespace, project).ok())
    else {
        return not_found();
    };
    let Some(credentials) = BasicCredentials::from_headers(request.headers()) else {
        return unauthorized();
    };
    let access = state.authorize.authorize(&credentials, &id).await;
    let root = match access {
        Access::Unauthenticated => return unauthorized(),
        Access::None => return not_found(),
        _ if !endpoint.service().allowed(access) => {
            return (StatusCode::FORBIDDEN, "You may not push to this repository\n").into_response();
        }
        Access::Read | Access::Write => &state.config.hosted_root,
        Access::ReadMirror => match &state.config.mirror_root {
            Some(root) => root,
            None => return not_found(),
        },
    };
    let repository = root.join(id.relative_path());
    if !tokio::fs::metadata(&repository)
        .await
        .is_ok_and(|meta| meta.is_dir())
    {
        return not_found();
    }

    let (parts, body) = request.into_parts();
    let limit = match endpoint {
        Endpoint::Advertise(_) => 0,
        Endpoint::Exchange(Service::UploadPack) => MAX_FETCH_REQUEST_BYTES,
        Endpoint::Exchange(Service::ReceivePack) => state.config.max_push_bytes,
    };
    if content_length(&parts.headers).is_some_and(|length| length > limit) {
        return cgi::too_large(limit);
    }
    let env = match cgi_env(root, &id, endpoint, &parts.headers, &credentials) {
        Ok(env) => env,
        Err(EnvError::Encoding) => {
            return (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Only gzip-encoded requests are accepted\n",
            )
                .into_response();
        }
        Err(EnvError::Root) => {
            tracing::error!("the repositories' folder is not valid UTF-8");
            return (StatusCode::INTERNAL_SERVER_ERROR, "The git server failed\n").into_response();
        }
    };
    let body = if matches!(endpoint, Endpoint::Advertise(_)) {
        Body::empty()
    } else {
        body
    };
    Cgi {
        program: state.config.backend.clone(),
        env,
        body,
        max_body_bytes: limit,
    }
    .run()
    .await
}

/// Why no CGI environment could be built.
#[derive(Debug, PartialEq, Eq)]
enum EnvError {
    /// A `Content-Encoding` other than gzip.
    Encoding,
    /// The repositories' root is not UTF-8 (a configuration mistake).
    Root,
}

/// The CGI environment: everything built from checked values or fixed strings.
fn cgi_env(
    root: &std::path::Path,
    id: &RepoId,
    endpoint: Endpoint,
    headers: &HeaderMap,
    credentials: &BasicCredentials,
) -> Result<Vec<(&'static str, String)>, EnvError> {
    let service = endpoint.service().name();
    let (method, path, query) = match endpoint {
        Endpoint::Advertise(_) => ("GET", "info/refs".to_owned(), format!("service={service}")),
        Endpoint::Exchange(_) => ("POST", service.to_owned(), String::new()),
    };
    let root = root.to_str().ok_or(EnvError::Root)?;
    let mut env = vec![
        ("GIT_PROJECT_ROOT", root.to_owned()),
        ("GIT_HTTP_EXPORT_ALL", "1".to_owned()),
        ("GIT_HTTP_MAX_REQUEST_BUFFER", MAX_FETCH_REQUEST_BYTES.to_string()),
        ("GIT_CONFIG_NOSYSTEM", "1".to_owned()),
        ("GIT_CONFIG_GLOBAL", "/dev/null".to_owned()),
        ("HOME", root.to_owned()),
        ("PATH", "/usr/bin:/bin".to_owned()),
        (
            "PATH_INFO",
            format!("/{}/{}.git/{path}", id.namespace(), id.project().hyphenated()),
        ),
        ("REQUEST_METHOD", method.to_owned()),
        ("QUERY_STRING", query),
        // http-backend serves receive-pack only to an authenticated user; the name goes into
        // the reflog.
        ("REMOTE_USER", reflog_name(&credentials.username)),
    ];
    if let Some(content_type) = header_text(headers, header::CONTENT_TYPE) {
        env.push(("CONTENT_TYPE", content_type));
    }
    match header_text(headers, header::CONTENT_ENCODING).as_deref() {
        None | Some("identity") => {}
        Some("gzip" | "x-gzip") => env.push(("HTTP_CONTENT_ENCODING", "gzip".to_owned())),
        Some(_) => return Err(EnvError::Encoding),
    }
    if let Some(protocol) = header_text(headers, "git-protocol")
        && protocol.len() <= 256
        && protocol
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"=:,._-".contains(&b))
    {
        env.push(("HTTP_GIT_PROTOCOL", protocol));
    }
    Ok(env)
}

fn header_text(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<String> {
    let value = headers.get(name)?.to_str().ok()?.trim();
    (!value.is_empty() && value.bytes().all(|b| (0x20..0x7f).contains(&b))).then(|| value.to_owned())
}

fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(header::CONTENT_LENGTH)?.to_str().ok()?.parse().ok()
}

/// The username as a safe reflog identity: printable ASCII without `<`, `>`, at most 64 bytes.
fn reflog_name(username: &str) -> String {
    let name: String = username
        .chars()
        .filter(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>'))
        .take(64)
        .collect();
    if name.is_empty() { "ludis".to_owned() } else { name }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Repository not found\n").into_response()
}

fn unauthorized() -> Response {
    let mut response = (StatusCode::UNAUTHORIZED, "Authentication required\n").into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"Ludis git\", charset=\"UTF-8\""),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_smart_services_are_known() {
        assert_eq!(
            Service::from_query(Some("service=git-upload-pack")),
            Some(Service::UploadPack)
        );
        assert_eq!(
            Service::from_query(Some("service=git-receive-pack")),
            Some(Service::ReceivePack)
        );
        for query in [
            None,
            Some(""),
            Some("service=git-upload-archive"),
            Some("service=git-upload-pack&x=1"),
        ] {
            assert_eq!(Service::from_query(query), None, "{query:?}");
        }
    }

    #[test]
    fn reading_allows_fetch_and_writing_allows_push_but_never_to_a_mirror() {
        let cases = [
            (Service::UploadPack, Access::Read, true),
            (Service::UploadPack, Access::Write, true),
            (Service::ReceivePack, Access::Read, false),
            (Service::ReceivePack, Access::Write, true),
            (Service::UploadPack, Access::ReadMirror, true),
            (Service::ReceivePack, Access::ReadMirror, false),
            (Service::UploadPack, Access::None, false),
            (Service::ReceivePack, Access::Unauthenticated, false),
        ];
        for (service, access, allowed) in cases {
            assert_eq!(service.allowed(access), allowed, "{service:?} {access:?}");
        }
    }

    #[test]
    fn the_cgi_gets_only_checked_values() {
        let id = RepoId::parse("ludis-acme", "0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e").unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-git-receive-pack-request"),
        );
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        headers.insert("git-protocol", HeaderValue::from_static("version=2"));
        let credentials = BasicCredentials {
            username: "ada <evil>\n".into(),
            password: "secret".into(),
        };
        let env = cgi_env(
            std::path::Path::new("/srv/git"),
            &id,
            Endpoint::Exchange(Service::ReceivePack),
            &headers,
            &credentials,
        )
        .unwrap();
        let get = |name: &str| {
            env.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.as_str())
        };
        assert_eq!(
            get("PATH_INFO"),
            Some("/ludis-acme/0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.git/git-receive-pack")
        );
        assert_eq!(get("REQUEST_METHOD"), Some("POST"));
        assert_eq!(get("QUERY_STRING"), Some(""));
        assert_eq!(get("HTTP_CONTENT_ENCODING"), Some("gzip"));
        assert_eq!(get("HTTP_GIT_PROTOCOL"), Some("version=2"));
        assert_eq!(get("REMOTE_USER"), Some("adaevil"));
        assert!(env.iter().all(|(_, value)| !value.contains("secret")));

        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
        let refused = cgi_env(
            std::path::Path::new("/srv/git"),
            &id,
            Endpoint::Advertise(Service::UploadPack),
            &headers,
            &credentials,
        );
        assert_eq!(refused.unwrap_err(), EnvError::Encoding);
    }
}
