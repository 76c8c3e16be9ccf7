//! The app reverse proxy: `/apps/{id}/…` forwards web traffic (and websockets) to a running
//! application's Service (the Insight's `status.url`, kept in `insights.upstream_url`), outside
//! `/v1` so every app has a stable prefix. Not in the OpenAPI document (it speaks the app's own
//! protocol).
//!
//! - **Origin**: apps run their authors' code, so they belong on an origin of their own
//!   (`LUDIS_APPS_ORIGIN`, e.g. `https://apps.ludis.example`): then `open_url` is absolute on it,
//!   `/apps/…` answers only for that `Host`, and that host serves nothing else ([`misrouted`]).
//!   `https://*.apps.ludis.example` gives each app its own origin (`<app id>.apps.…`), which serves
//!   only that app, so one app's scripts cannot use another's session either. Without an apps
//!   origin, apps share the console's, and an app's scripts could read the console's tokens
//!   (logged as a warning at start).
//! - **Sign-in**: `open_url` is `…/apps/{id}/?ticket=…`, a ticket ([`ticket`]) signed with the
//!   API's key, bound to the user and the app, valid 60 seconds. The proxy trades it for an
//!   HttpOnly, host-only cookie scoped to `Path=/apps/{id}/` (one hour; SameSite per
//!   [`cookie_attributes`]) and redirects to the same URL without the ticket. Later requests carry
//!   the cookie; programs may send a bearer token or an API key instead.
//! - **Every request** re-checks view access with the one access rule (no access → 404, as for
//!   every asset), the `insights` flighting, and that the app runs (else 503 'The application is
//!   not running'); an external app is a redirect to its URL. An open websocket is re-checked
//!   every 15 seconds and closed when access is gone or the app stopped.
//! - **Forwarding**: method, path after the prefix, query without `ticket`, headers without
//!   hop-by-hop ones, `Authorization`, `X-Api-Key` and our cookie, plus `X-Forwarded-For`,
//!   `-Proto`, `-Host` and `X-Forwarded-Prefix: /apps/{id}`. Bodies stream both ways; websocket
//!   (and any HTTP/1.1) upgrades are piped both ways. Connecting gives up after 5 seconds; nothing
//!   else is timed (the router's request timeout does not apply under `/apps`). A `Location`
//!   pointing at the upstream itself is rewritten under the prefix; the app's cookies pass as they
//!   are (an app should set them relative to its prefix, e.g. from `X-Forwarded-Prefix`), except
//!   one naming our cookie, which is dropped.

use std::{net::SocketAddr, sync::OnceLock, time::Duration};

use axum::{
    Router,
    body::Body,
    extract::{ConnectInfo, FromRequestParts as _, Request, State},
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri, header, request::Parts},
    response::{IntoResponse, Response},
    routing::any,
};
use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::{TokioExecutor, TokioIo},
};
use ring::hmac;

use crate::{
    access,
    app::AppState,
    auth::extract::MaybeAuthUser,
    db::{self, assets::KIND_APPLICATION, insights, users::UserRow},
    error::{ApiError, Result},
    policy::{self, sharing::Level},
};

/// The name of the app session cookie (one per app, by its path).
pub const COOKIE: &str = "ludis_app";
/// A ticket opens the app for this long.
pub const TICKET_TTL: i64 = 60;
/// The app session cookie lives this long.
pub const SESSION_TTL: i64 = 3600;
/// Connecting to an app gives up after this long.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often an open websocket re-checks access.
const RECHECK_EVERY: Duration = Duration::from_secs(15);

const TICKET: &str = "ludis-app-ticket";
const SESSION: &str = "ludis-app-session";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/apps/{id}", any(handle))
        .route("/apps/{id}/", any(handle))
        .route("/apps/{id}/{*path}", any(handle))
}

/// A ticket that opens app `app_id` for user `uid` within 60 seconds: the query of `open_url`
/// (`/apps/{id}/?ticket=…`, see [`open_url`]).
pub fn ticket(state: &AppState, uid: &str, app_id: &str) -> String {
    sign(&state.auth.jwt_key, TICKET, uid, app_id, db::now() + TICKET_TTL)
}

/// The URL that opens app `app_id` for user `uid` in a browser: on the apps origin when one is
/// configured (`LUDIS_APPS_ORIGIN`), else a path on the console's origin.
pub fn open_url(state: &AppState, uid: &str, app_id: &str) -> String {
    let origin = state
        .settings
        .apps_origin
        .get()
        .map(|o| o.of_app(app_id))
        .unwrap_or_default();
    format!("{origin}/apps/{app_id}/?ticket={}", ticket(state, uid, app_id))
}

/// Whether a request reached the wrong origin, by its `Host` (or HTTP/2 `:authority`), when apps
/// have an origin of their own: the app proxy anywhere but there, anything else there, or another
/// app's path on a per-app origin. Never when apps share the console's origin.
pub fn misrouted(state: &AppState, headers: &HeaderMap, uri: &Uri) -> bool {
    let Some(origin) = state.settings.apps_origin.get() else {
        return false;
    };
    let host = match headers.get(header::HOST) {
        Some(h) => h.to_str().ok(),
        None => uri.authority().map(|a| a.as_str()),
    };
    let on_apps_origin = host.and_then(|h| origin.app_of_host(h));
    match (on_apps_origin, split_path(uri.path())) {
        (None, None) => false,
        (None, Some(_)) | (Some(_), None) => true,
        (Some(None), Some(_)) => false,
        (Some(Some(label)), Some((app_id, _))) => !label.eq_ignore_ascii_case(app_id),
    }
}

/// `base64url(uid.app.exp).base64url(HMAC(purpose \n uid.app.exp))`. The purpose is inside the
/// signed text, so a ticket is never a session cookie and neither is ever a JWT (whose signed
/// text is two base64 parts joined by a dot).
fn sign(key: &hmac::Key, purpose: &str, uid: &str, app_id: &str, exp: i64) -> String {
    let payload = format!("{uid}.{app_id}.{exp}");
    let tag = hmac::sign(key, format!("{purpose}\n{payload}").as_bytes());
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(&payload),
        URL_SAFE_NO_PAD.encode(tag.as_ref())
    )
}

/// The uid a token of `purpose` names for app `app_id`, if it is genuine and not expired.
fn verify(key: &hmac::Key, purpose: &str, token: &str, app_id: &str, now: i64) -> Option<String> {
    let (payload, tag) = token.split_once('.')?;
    let payload = String::from_utf8(URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    hmac::verify(key, format!("{purpose}\n{payload}").as_bytes(), &tag).ok()?;
    let mut parts = payload.split('.');
    let (Some(uid), Some(app), Some(exp), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    (app == app_id && now < exp.parse::<i64>().ok()?).then(|| uid.to_owned())
}

type HttpClient = Client<HttpConnector, Body>;

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

async fn handle(State(state): State<AppState>, req: Request) -> Response {
    match proxy(state, req).await {
        Ok(res) => res,
        Err(e) => e.into_response(),
    }
}

/// `/apps/{id}` and the rest of the raw (still percent-encoded) path.
fn split_path(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix("/apps/")?;
    Some(match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    })
}

/// The query without `ticket`, and the ticket.
fn split_ticket(query: &str) -> (String, Option<String>) {
    let mut ticket = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| match pair.strip_prefix("ticket=") {
            Some(t) => {
                ticket = Some(t.to_owned());
                false
            }
            None => *pair != "ticket",
        })
        .collect();
    (kept.join("&"), ticket)
}

fn not_running() -> ApiError {
    ApiError::unavailable("app_not_running", "The application is not running")
}

/// Our cookie's value (the last one when several are sent).
fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
        .next_back()
}

async fn active_user(state: &AppState, uid: &str) -> Result<Option<UserRow>> {
    Ok(db::users::by_uid(&state.db, uid)
        .await?
        .filter(|u| u.status == "active"))
}

/// The caller: the ticket's (handled by the caller), the cookie's, or a bearer token's / API
/// key's.
async fn caller(state: &AppState, parts: &mut Parts, app_id: &str) -> Result<Option<UserRow>> {
    if let Some(token) = session_cookie(&parts.headers)
        && let Some(uid) = verify(&state.auth.jwt_key, SESSION, &token, app_id, db::now())
        && let Some(user) = active_user(state, &uid).await?
    {
        return Ok(Some(user));
    }
    Ok(MaybeAuthUser::from_request_parts(parts, state)
        .await?
        .0
        .map(|a| a.user))
}

/// The app as the caller may see it: view access (404 otherwise) and the `insights` feature.
async fn visible(state: &AppState, user: &UserRow, app_id: &str) -> Result<insights::Insight> {
    access::require(state, user, KIND_APPLICATION, app_id, Level::View).await?;
    let flag = db::flighting::one(&state.db, &user.organization_id, "insights").await?;
    if !policy::flags::allowed(&user.role, flag.as_ref()) {
        return Err(ApiError::forbidden(
            "feature_disabled",
            format!(
                "The {} feature is not enabled for your role",
                policy::flags::feature_name("insights").unwrap_or("insights")
            ),
        ));
    }
    db::insights::by_id(&state.db, app_id)
        .await?
        .ok_or_else(|| access::not_found(KIND_APPLICATION))
}

fn redirect(status: StatusCode, location: &str) -> Result<Response> {
    let mut res = status.into_response();
    res.headers_mut().insert(
        header::LOCATION,
        HeaderValue::from_str(location).map_err(ApiError::internal)?,
    );
    Ok(res)
}

/// Whether the browser loads this request into a frame (`Sec-Fetch-Dest` other than `document`;
/// a client that does not say is taken as one, since a frame needs the laxer cookie).
fn framed(headers: &HeaderMap) -> bool {
    headers
        .get("sec-fetch-dest")
        .and_then(|v| v.to_str().ok())
        .is_none_or(|dest| !dest.eq_ignore_ascii_case("document"))
}

/// The session cookie's attributes after `HttpOnly`; it is host-only (no `Domain`) everywhere.
///
/// - The console's origin: `SameSite=Lax`, `Secure` behind https.
/// - An apps origin, opened in the console's frame: the frame is cross-site (another site than the
///   console's) and browsers neither set nor send `Lax` cookies there, so `SameSite=None; Secure;
///   Partitioned` — CHIPS keys it to the console's top-level site, so another site framing or
///   posting to the app does not get it, and it survives third-party cookie blocking. Needs a
///   secure origin: https, or http on `localhost`/`*.localhost`/loopback, which browsers treat as
///   secure for cookies.
/// - An apps origin opened top-level (`Sec-Fetch-Dest: document`): `SameSite=Lax` (`Secure` on
///   https), so cross-site requests to the app carry no session.
/// - A plain-http apps origin elsewhere: `SameSite=Lax` (a frame keeps it only when console and
///   apps are the same site).
pub fn cookie_attributes(
    apps_origin: Option<&crate::settings::Origin>,
    forwarded_https: bool,
    framed: bool,
) -> &'static str {
    match apps_origin {
        None if forwarded_https => "SameSite=Lax; Secure",
        None => "SameSite=Lax",
        Some(o) if framed && o.is_potentially_trustworthy() => "SameSite=None; Secure; Partitioned",
        Some(o) if o.is_https() => "SameSite=Lax; Secure",
        Some(_) => "SameSite=Lax",
    }
}

fn forwarded_proto(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_owned())
        .unwrap_or_else(|| "http".into())
}

async fn proxy(state: AppState, req: Request) -> Result<Response> {
    let uri = req.uri().clone();
    let Some((app_id, tail)) = split_path(uri.path()) else {
        return Err(access::not_found(KIND_APPLICATION));
    };
    let app_id = app_id.to_owned();
    let prefix = format!("/apps/{app_id}");
    let (query, ticket) = split_ticket(uri.query().unwrap_or(""));
    let with_query = |path: &str| {
        if query.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{query}")
        }
    };
    // Without the slash, relative links of the app would resolve outside its prefix.
    if tail.is_empty() {
        let mut location = format!("{prefix}/");
        if let Some(q) = uri.query() {
            location = format!("{location}?{q}");
        }
        return redirect(StatusCode::PERMANENT_REDIRECT, &location);
    }
    let (mut parts, body) = req.into_parts();

    if let Some(ticket) = ticket {
        let uid = verify(&state.auth.jwt_key, TICKET, &ticket, &app_id, db::now());
        let user = match uid {
            Some(uid) => active_user(&state, &uid).await?,
            None => None,
        };
        let Some(user) = user else {
            // A reloaded link whose ticket expired still opens the app with a valid cookie.
            if caller(&state, &mut parts, &app_id).await?.is_some() {
                return redirect(StatusCode::SEE_OTHER, &with_query(uri.path()));
            }
            tracing::info!(app = %app_id, "rejected: invalid or expired app ticket");
            return Err(ApiError::unauthorized(
                "invalid_ticket",
                "This link has expired. Open the application again from Ludis.",
            ));
        };
        visible(&state, &user, &app_id).await?;
        let token = sign(
            &state.auth.jwt_key,
            SESSION,
            &user.uid,
            &app_id,
            db::now() + SESSION_TTL,
        );
        let attributes = cookie_attributes(
            state.settings.apps_origin.get(),
            forwarded_proto(&parts.headers) == "https",
            framed(&parts.headers),
        );
        let cookie =
            format!("{COOKIE}={token}; Path={prefix}/; Max-Age={SESSION_TTL}; HttpOnly; {attributes}");
        let mut res = redirect(StatusCode::SEE_OTHER, &with_query(uri.path()))?;
        res.headers_mut().insert(
            header::SET_COOKIE,
            HeaderValue::from_str(&cookie).map_err(ApiError::internal)?,
        );
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return Ok(res);
    }

    let Some(user) = caller(&state, &mut parts, &app_id).await? else {
        return Err(ApiError::unauthorized(
            "missing_token",
            "Open the application from Ludis to sign in to it",
        ));
    };
    let app = visible(&state, &user, &app_id).await?;
    let d = &app.details;
    if d.app_type == insights::APPLICATION
        && !d.runs_in_cluster()
        && let Some(url) = &d.app_url
    {
        return redirect(StatusCode::FOUND, url);
    }
    let upstream = match (&d.upstream_url, d.app_type.as_str(), d.status.as_str()) {
        (Some(url), insights::APPLICATION, insights::RUNNING) => url.clone(),
        _ => return Err(not_running()),
    };
    let Some(base) = Upstream::parse(&upstream) else {
        tracing::warn!(app = %app_id, %upstream, "the application's upstream URL is not a plain http URL");
        return Err(not_running());
    };
    let target = base.uri(tail, &query).map_err(ApiError::internal)?;
    let client_ip = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string());
    let upgrade = upgrade_of(&parts.headers);
    let headers = forward_headers(&parts.headers, &prefix, client_ip.as_deref(), upgrade.as_ref());
    let mut out = Request::new(if upgrade.is_some() { Body::empty() } else { body });
    *out.method_mut() = parts.method.clone();
    *out.uri_mut() = target;
    *out.headers_mut() = headers;
    if state.settings.resolve_services_via_api {
        to_cluster_address(&state, &mut out).await?;
    }

    let mut res = match client().request(out).await {
        Ok(res) => res,
        Err(e) => {
            tracing::info!(app = %app_id, %upstream, error = %e, "the application does not answer");
            return Err(ApiError::new(
                StatusCode::BAD_GATEWAY,
                "app_unreachable",
                "The application does not answer",
            ));
        }
    };

    if res.status() == StatusCode::SWITCHING_PROTOCOLS && upgrade.is_some() {
        let from_app = hyper::upgrade::on(&mut res);
        let Some(from_client) = parts.extensions.remove::<hyper::upgrade::OnUpgrade>() else {
            return Err(ApiError::bad_request(
                "upgrade_unsupported",
                "This connection cannot be upgraded",
            ));
        };
        tokio::spawn(pipe(
            state.clone(),
            user.uid.clone(),
            app_id.clone(),
            from_client,
            from_app,
        ));
        let (head, _) = res.into_parts();
        let mut out = Response::from_parts(head, Body::empty());
        strip_response_headers(out.headers_mut(), true);
        return Ok(out);
    }

    let (mut head, incoming) = res.into_parts();
    strip_response_headers(&mut head.headers, false);
    if let Some(location) = head.headers.get(header::LOCATION).and_then(|v| v.to_str().ok())
        && let Some(rewritten) = base.rewrite_location(location, &prefix)
        && let Ok(v) = HeaderValue::from_str(&rewritten)
    {
        head.headers.insert(header::LOCATION, v);
    }
    Ok(Response::from_parts(head, Body::new(incoming)))
}

/// Sends a request for a Service name to the Service's cluster address (the name stays its
/// `Host`); a name of no Service is an app that does not run.
async fn to_cluster_address(state: &AppState, req: &mut Request) -> Result<()> {
    let (Some(kube), Some(authority)) = (&state.kube, req.uri().authority().cloned()) else {
        return Ok(());
    };
    let address = crate::cluster::services::cluster_address(kube, authority.host())
        .await
        .map_err(ApiError::internal)?;
    let Some(address) = address else {
        if crate::cluster::services::service_of_host(authority.host()).is_some() {
            return Err(not_running());
        }
        return Ok(());
    };
    let socket = SocketAddr::new(address, authority.port_u16().unwrap_or(80));
    let mut parts = req.uri().clone().into_parts();
    parts.authority = Some(socket.to_string().parse().map_err(ApiError::internal)?);
    *req.uri_mut() = Uri::from_parts(parts).map_err(ApiError::internal)?;
    req.headers_mut().insert(
        header::HOST,
        HeaderValue::from_str(authority.as_str()).map_err(ApiError::internal)?,
    );
    Ok(())
}

/// Pipes an upgraded connection both ways until either side closes, access is gone or the app
/// stopped.
async fn pipe(
    state: AppState,
    uid: String,
    app_id: String,
    from_client: hyper::upgrade::OnUpgrade,
    from_app: hyper::upgrade::OnUpgrade,
) {
    let (client_io, app_io) = match tokio::join!(from_client, from_app) {
        (Ok(c), Ok(a)) => (c, a),
        (c, a) => {
            tracing::info!(app = %app_id, client = ?c.err(), app_error = ?a.err(), "an upgrade failed");
            return;
        }
    };
    let (mut client_io, mut app_io) = (TokioIo::new(client_io), TokioIo::new(app_io));
    let still_allowed = async {
        let mut tick = tokio::time::interval(RECHECK_EVERY);
        tick.tick().await;
        loop {
            tick.tick().await;
            let ok = match active_user(&state, &uid).await {
                Ok(Some(user)) => matches!(
                    visible(&state, &user, &app_id).await,
                    Ok(app) if app.details.status == insights::RUNNING
                ),
                Ok(None) => false,
                // A database hiccup does not end the session.
                Err(_) => true,
            };
            if !ok {
                tracing::info!(app = %app_id, user = %uid, "app websocket closed: access revoked or the app stopped");
                return;
            }
        }
    };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client_io, &mut app_io) => {}
        () = still_allowed => {}
    }
}

/// The `Upgrade` protocol of a request asking for one (`Connection: upgrade`).
fn upgrade_of(headers: &HeaderMap) -> Option<HeaderValue> {
    let asks = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case("upgrade"));
    asks.then(|| headers.get(header::UPGRADE).cloned()).flatten()
}

const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Headers named by `Connection` and the standard hop-by-hop ones.
fn remove_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|t| HeaderName::from_bytes(t.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

/// Pure: the headers sent to the app.
pub fn forward_headers(
    incoming: &HeaderMap,
    prefix: &str,
    client_ip: Option<&str>,
    upgrade: Option<&HeaderValue>,
) -> HeaderMap {
    let mut h = incoming.clone();
    remove_hop_by_hop(&mut h);
    h.remove(header::AUTHORIZATION);
    h.remove("x-api-key");
    h.remove(header::HOST);
    // Our cookie stays here; the app's own cookies go on.
    let cookies: Vec<String> = incoming
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .filter(|pair| !pair.is_empty() && pair.split_once('=').is_none_or(|(name, _)| name != COOKIE))
        .map(str::to_owned)
        .collect();
    h.remove(header::COOKIE);
    if !cookies.is_empty()
        && let Ok(v) = HeaderValue::from_str(&cookies.join("; "))
    {
        h.insert(header::COOKIE, v);
    }
    let host = incoming.get(header::HOST).cloned();
    let forwarded_for = match (
        incoming.get("x-forwarded-for").and_then(|v| v.to_str().ok()),
        client_ip,
    ) {
        (Some(prior), Some(ip)) => Some(format!("{prior}, {ip}")),
        (Some(prior), None) => Some(prior.to_owned()),
        (None, Some(ip)) => Some(ip.to_owned()),
        (None, None) => None,
    };
    if let Some(v) = forwarded_for.and_then(|v| HeaderValue::from_str(&v).ok()) {
        h.insert("x-forwarded-for", v);
    }
    if let Ok(v) = HeaderValue::from_str(&forwarded_proto(incoming)) {
        h.insert("x-forwarded-proto", v);
    }
    if let Some(host) = host
        && !incoming.contains_key("x-forwarded-host")
    {
        h.insert("x-forwarded-host", host);
    }
    if let Ok(v) = HeaderValue::from_str(prefix) {
        h.insert("x-forwarded-prefix", v);
    }
    if let Some(protocol) = upgrade {
        h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        h.insert(header::UPGRADE, protocol.clone());
    }
    h
}

/// The response's hop-by-hop headers go, and so does any `Set-Cookie` of the app naming our
/// cookie (an app may not plant or clear a session); a switched connection keeps
/// `Connection`/`Upgrade`.
fn strip_response_headers(headers: &mut HeaderMap, switching: bool) {
    let upgrade = headers.get(header::UPGRADE).cloned();
    remove_hop_by_hop(headers);
    let cookies: Vec<HeaderValue> = headers.get_all(header::SET_COOKIE).iter().cloned().collect();
    if cookies.iter().any(sets_our_cookie) {
        headers.remove(header::SET_COOKIE);
        for cookie in cookies.into_iter().filter(|c| !sets_our_cookie(c)) {
            headers.append(header::SET_COOKIE, cookie);
        }
    }
    if switching && let Some(u) = upgrade {
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, u);
    }
}

/// Whether a `Set-Cookie` value names our cookie (browsers trim the name; any case is refused).
fn sets_our_cookie(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    let end = bytes
        .iter()
        .position(|b| *b == b'=' || *b == b';')
        .unwrap_or(bytes.len());
    bytes[..end].trim_ascii().eq_ignore_ascii_case(COOKIE.as_bytes())
}

/// An app's base URL: `http://host:port[/base]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    authority: String,
    base_path: String,
}

impl Upstream {
    pub fn parse(url: &str) -> Option<Self> {
        let uri: Uri = url.parse().ok()?;
        if uri.scheme_str() != Some("http") {
            return None;
        }
        Some(Self {
            authority: uri.authority()?.to_string(),
            base_path: uri.path().trim_end_matches('/').to_owned(),
        })
    }

    /// The app's URI of a path under the prefix (`/…`, still percent-encoded) and a query.
    pub fn uri(&self, tail: &str, query: &str) -> std::result::Result<Uri, axum::http::Error> {
        let mut path_and_query = format!("{}{}", self.base_path, tail);
        if !query.is_empty() {
            path_and_query = format!("{path_and_query}?{query}");
        }
        Uri::builder()
            .scheme("http")
            .authority(self.authority.as_str())
            .path_and_query(path_and_query)
            .build()
    }

    /// A redirect to the app's own address, moved under the prefix (others stay as they are).
    pub fn rewrite_location(&self, location: &str, prefix: &str) -> Option<String> {
        let own = format!("http://{}{}", self.authority, self.base_path);
        let rest = location.strip_prefix(&own)?;
        (rest.is_empty() || rest.starts_with(['/', '?'])).then(|| {
            let rest = if rest.is_empty() || rest.starts_with('?') {
                format!("/{rest}")
            } else {
                rest.to_owned()
            };
            format!("{prefix}{rest}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tickets_are_bound_to_user_app_purpose_and_time() {
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"k");
        let t = sign(&key, TICKET, "u1", "a1", 100);
        assert_eq!(verify(&key, TICKET, &t, "a1", 99).as_deref(), Some("u1"));
        assert_eq!(verify(&key, TICKET, &t, "a1", 100), None, "expired");
        assert_eq!(verify(&key, TICKET, &t, "a2", 99), None, "another app");
        assert_eq!(verify(&key, SESSION, &t, "a1", 99), None, "not a session cookie");
        let other = hmac::Key::new(hmac::HMAC_SHA256, b"other");
        assert_eq!(verify(&other, TICKET, &t, "a1", 99), None, "forged");
        for bad in ["", "x", "a.b", "a.b.c"] {
            assert_eq!(verify(&key, TICKET, bad, "a1", 0), None, "{bad}");
        }
        // A changed payload with the old tag.
        let (_, tag) = t.split_once('.').unwrap();
        let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode("u2.a1.100"));
        assert_eq!(verify(&key, TICKET, &forged, "a1", 0), None);
    }

    #[test]
    fn paths_and_tickets_split() {
        assert_eq!(split_path("/apps/x/a/b%20c"), Some(("x", "/a/b%20c")));
        assert_eq!(split_path("/apps/x/"), Some(("x", "/")));
        assert_eq!(split_path("/apps/x"), Some(("x", "")));
        assert_eq!(
            split_ticket("a=1&ticket=T&b=2"),
            ("a=1&b=2".into(), Some("T".into()))
        );
        assert_eq!(split_ticket("ticket=T"), (String::new(), Some("T".into())));
        assert_eq!(split_ticket("tickets=1"), ("tickets=1".into(), None));
    }

    #[test]
    fn forwarded_headers_drop_credentials_and_hop_by_hop_ones() {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer x"));
        h.insert("x-api-key", HeaderValue::from_static("k"));
        h.insert(header::HOST, HeaderValue::from_static("ludis.example"));
        h.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, x-custom"),
        );
        h.insert("x-custom", HeaderValue::from_static("1"));
        h.insert(header::TE, HeaderValue::from_static("trailers"));
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; ludis_app=secret; b=2"),
        );
        h.insert("x-forwarded-for", HeaderValue::from_static("10.0.0.1"));
        h.insert("accept", HeaderValue::from_static("text/html"));
        let out = forward_headers(&h, "/apps/x", Some("127.0.0.1"), None);
        for gone in [
            "authorization",
            "x-api-key",
            "host",
            "connection",
            "x-custom",
            "te",
        ] {
            assert!(!out.contains_key(gone), "{gone}");
        }
        assert_eq!(out["cookie"], "a=1; b=2");
        assert_eq!(out["x-forwarded-for"], "10.0.0.1, 127.0.0.1");
        assert_eq!(out["x-forwarded-host"], "ludis.example");
        assert_eq!(out["x-forwarded-proto"], "http");
        assert_eq!(out["x-forwarded-prefix"], "/apps/x");
        assert_eq!(out["accept"], "text/html");

        let mut only_ours = HeaderMap::new();
        only_ours.insert(header::COOKIE, HeaderValue::from_static("ludis_app=secret"));
        only_ours.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
        only_ours.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        let protocol = upgrade_of(&only_ours);
        assert_eq!(protocol.as_ref().unwrap(), "websocket");
        let out = forward_headers(&only_ours, "/apps/x", None, protocol.as_ref());
        assert!(!out.contains_key("cookie"));
        assert_eq!(out["connection"], "upgrade");
        assert_eq!(out["upgrade"], "websocket");
    }

    #[test]
    fn the_app_may_not_set_our_cookie() {
        let mut h = HeaderMap::new();
        for c in [
            "theme=dark; Path=/",
            "ludis_app=planted; Path=/apps/x/",
            " LUDIS_APP =x",
            "ludis_app",
            "ludis_apps=1",
        ] {
            h.append(header::SET_COOKIE, HeaderValue::from_static(c));
        }
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
        strip_response_headers(&mut h, false);
        let kept: Vec<_> = h.get_all(header::SET_COOKIE).iter().collect();
        assert_eq!(kept, ["theme=dark; Path=/", "ludis_apps=1"]);
        assert_eq!(h[header::CONTENT_TYPE], "text/html");
    }

    #[test]
    fn cookie_attributes_follow_the_origin_and_the_context() {
        let origin = |s: &str| s.parse::<crate::settings::AppsOrigin>().unwrap();
        let (https, dev, plain) = (
            origin("https://apps.ludis.example"),
            origin("http://apps.localhost:8080"),
            origin("http://apps.internal"),
        );
        // Same origin as the console: as before.
        assert_eq!(cookie_attributes(None, false, true), "SameSite=Lax");
        assert_eq!(cookie_attributes(None, true, false), "SameSite=Lax; Secure");
        // The console's frame is cross-site: None, Secure and partitioned by the top-level site.
        assert_eq!(
            cookie_attributes(https.get(), false, true),
            "SameSite=None; Secure; Partitioned"
        );
        assert_eq!(
            cookie_attributes(dev.get(), false, true),
            "SameSite=None; Secure; Partitioned"
        );
        // Opened top-level: Lax.
        assert_eq!(
            cookie_attributes(https.get(), false, false),
            "SameSite=Lax; Secure"
        );
        assert_eq!(cookie_attributes(dev.get(), false, false), "SameSite=Lax");
        // Plain http elsewhere cannot hold a Secure cookie.
        assert_eq!(cookie_attributes(plain.get(), true, true), "SameSite=Lax");

        let mut h = HeaderMap::new();
        assert!(framed(&h), "a client that does not say");
        h.insert("sec-fetch-dest", HeaderValue::from_static("iframe"));
        assert!(framed(&h));
        h.insert("sec-fetch-dest", HeaderValue::from_static("document"));
        assert!(!framed(&h));
    }

    #[test]
    fn upstream_uris_keep_the_encoded_path_and_query() {
        let u = Upstream::parse("http://sales.ludis-acme.svc:8000").unwrap();
        assert_eq!(
            u.uri("/a/b%20c", "x=1").unwrap().to_string(),
            "http://sales.ludis-acme.svc:8000/a/b%20c?x=1"
        );
        let based = Upstream::parse("http://127.0.0.1:9/base/").unwrap();
        assert_eq!(
            based.uri("/", "").unwrap().to_string(),
            "http://127.0.0.1:9/base/"
        );
        assert!(Upstream::parse("https://x.example").is_none());
        assert!(Upstream::parse("not a url").is_none());
    }

    #[test]
    fn redirects_to_the_app_itself_move_under_the_prefix() {
        let u = Upstream::parse("http://svc:8000").unwrap();
        assert_eq!(
            u.rewrite_location("http://svc:8000/login?x=1", "/apps/a")
                .as_deref(),
            Some("/apps/a/login?x=1")
        );
        assert_eq!(
            u.rewrite_location("http://svc:8000", "/apps/a").as_deref(),
            Some("/apps/a/")
        );
        assert_eq!(u.rewrite_location("http://svc:80001/x", "/apps/a"), None);
        assert_eq!(u.rewrite_location("https://elsewhere.example/", "/apps/a"), None);
        assert_eq!(u.rewrite_location("/relative", "/apps/a"), None);
    }
}
