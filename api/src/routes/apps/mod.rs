//! The app reverse proxy: `/apps/{id}/…` forwards web traffic (and websockets) to a running
//! application's Service (the Insight's `status.url`, kept in `insights.upstream_url`), outside
//! `/v1` so every app has a stable prefix. Not in the OpenAPI document (it speaks the app's own
//! protocol).
//!
//! - **Origin**: apps run their authors' code, so they belong on an origin of their own
//!   (`LUDIS_APPS_ORIGIN`, e.g. `https://apps.ludis.example`): then `open_url` is absolute on it,
//!   `/apps/…` answers only for that `Host`, and that host serves nothing else
//!   ([`origin::misrouted`]). `https://*.apps.ludis.example` gives each app its own origin
//!   (`<app id>.apps.…`), which serves only that app, so one app's scripts cannot use another's
//!   session either. Without an apps origin no cluster app is served (503, and the app page says
//!   why), unless `LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN` allows the console's origin.
//! - **Sign-in** ([`pass`]): `open_url` is `…/apps/{id}/?ticket=…`, a ticket bound to the user,
//!   the app and the console session, valid 60 seconds and used once. The proxy trades it for an
//!   HttpOnly, host-only cookie scoped to `Path=/apps/{id}/` (one hour, ending with the session)
//!   and redirects to the same path without the ticket. Later requests carry the cookie; programs
//!   may send a bearer token or an API key instead.
//! - **Every request** re-checks view access with the one access rule (no access → 404, as for
//!   every asset), the `insights` flighting, that the cookie's session is live, and that the app
//!   runs (else 503 'The application is not running'). A request that changes the app (not GET,
//!   HEAD or OPTIONS, or a websocket) must come from the app's own origin ([`origin::may_change`],
//!   else 403). An external app is not proxied (409): the console opens its URL itself, so no
//!   answer of ours sends the browser to another site. An open websocket is re-checked every 15
//!   seconds and closed when access or the session is gone or the app stopped.
//! - **Forwarding** ([`forward`]): method, path after the prefix, query without `ticket`, headers
//!   without hop-by-hop ones, `Authorization`, `X-Api-Key` and our cookie, plus `X-Forwarded-For`,
//!   `-Proto`, `-Host` and `X-Forwarded-Prefix: /apps/{id}`. Bodies stream both ways; websocket
//!   (and any HTTP/1.1) upgrades are piped both ways. Connecting gives up after 5 seconds; nothing
//!   else is timed (the router's request timeout does not apply under `/apps`). A `Location`
//!   pointing at the upstream itself is rewritten under the prefix; the app's cookies pass as they
//!   are (an app should set them relative to its prefix, e.g. from `X-Forwarded-Prefix`), except
//!   one naming our cookie, which is dropped.

pub mod forward;
pub mod origin;
pub mod pass;

use std::{net::SocketAddr, time::Duration};

use axum::{
    Router,
    body::Body,
    extract::{ConnectInfo, FromRequestParts as _, Request, State},
    http::{HeaderValue, StatusCode, Uri, header, request::Parts},
    response::{IntoResponse, Response},
    routing::any,
};
use hyper_util::rt::TokioIo;

use crate::{
    access,
    app::AppState,
    auth::extract::MaybeAuthUser,
    db::{self, assets::KIND_APPLICATION, insights, users::UserRow},
    error::{ApiError, Result},
    policy::{self, sharing::Level},
    settings::{APPS_ORIGIN_MISSING, AppsPlacement},
};

use forward::{Upstream, client, forward_headers, forwarded_proto, strip_response_headers, upgrade_of};

pub use origin::misrouted;
pub use pass::open_url;

/// How often an open websocket re-checks access.
const RECHECK_EVERY: Duration = Duration::from_secs(15);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/apps/{id}", any(handle))
        .route("/apps/{id}/", any(handle))
        .route("/apps/{id}/{*path}", any(handle))
}

/// Why an app cannot be opened on this platform, for its page (`open_error`): no apps origin and
/// the console's not allowed. External apps open anyway (the console frames their URL itself).
pub fn open_error(state: &AppState, app: &insights::InsightRow) -> Option<&'static str> {
    (state.settings.apps_placement() == AppsPlacement::Refused && app.runs_in_cluster())
        .then_some(APPS_ORIGIN_MISSING)
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

async fn active_user(state: &AppState, uid: &str) -> Result<Option<UserRow>> {
    Ok(db::users::by_uid(&state.db, uid)
        .await?
        .filter(|u| u.status == "active"))
}

/// Who a request to an app comes from.
struct Viewer {
    user: UserRow,
    /// The console session it belongs to (none for an API key).
    session: Option<String>,
    /// Signed in by the app cookie, which a browser sends from other pages too.
    by_cookie: bool,
}

/// The caller: the app cookie's (its session live), or a bearer token's / API key's.
async fn caller(state: &AppState, parts: &mut Parts, app_id: &str) -> Result<Option<Viewer>> {
    if let Some((user, sid)) = pass::cookie_user(state, &parts.headers, app_id).await? {
        return Ok(Some(Viewer {
            user,
            session: Some(sid),
            by_cookie: true,
        }));
    }
    Ok(MaybeAuthUser::from_request_parts(parts, state)
        .await?
        .0
        .map(|a| Viewer {
            user: a.user,
            session: a.session,
            by_cookie: false,
        }))
}

/// The user of an open session, again: the session still live (cookie, token), or the user
/// still active (API key).
async fn still_signed_in(state: &AppState, uid: &str, session: Option<&str>) -> Result<Option<UserRow>> {
    match session {
        Some(sid) => pass::session_user(state, uid, sid).await,
        None => active_user(state, uid).await,
    }
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

async fn proxy(state: AppState, req: Request) -> Result<Response> {
    let uri = req.uri().clone();
    let Some((app_id, tail)) = split_path(uri.path()) else {
        return Err(access::not_found(KIND_APPLICATION));
    };
    let app_id = app_id.to_owned();
    if state.settings.apps_placement() == AppsPlacement::Refused {
        tracing::info!(app = %app_id, "refused: apps have no origin (LUDIS_APPS_ORIGIN) and the console's is not allowed");
        return Err(ApiError::unavailable("apps_origin_missing", APPS_ORIGIN_MISSING));
    }
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
        let Some((user, pass)) = pass::redeem(&state, &ticket, &app_id).await? else {
            // A reloaded link whose ticket was used or expired still opens the app with a valid
            // cookie.
            if caller(&state, &mut parts, &app_id).await?.is_some() {
                return redirect(StatusCode::SEE_OTHER, &with_query(uri.path()));
            }
            tracing::info!(app = %app_id, "rejected: invalid, used or expired app ticket");
            return Err(ApiError::unauthorized(
                "invalid_ticket",
                "This link has expired. Open the application again from Ludis.",
            ));
        };
        visible(&state, &user, &app_id).await?;
        let attributes = pass::cookie_attributes(
            state.settings.apps_origin.get(),
            forwarded_proto(&parts.headers) == "https",
            pass::framed(&parts.headers),
        );
        let mut res = redirect(StatusCode::SEE_OTHER, &with_query(uri.path()))?;
        res.headers_mut()
            .insert(header::SET_COOKIE, pass::cookie(&state, &pass, attributes)?);
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return Ok(res);
    }

    let Some(viewer) = caller(&state, &mut parts, &app_id).await? else {
        return Err(ApiError::unauthorized(
            "missing_token",
            "Open the application from Ludis to sign in to it",
        ));
    };
    let app = visible(&state, &viewer.user, &app_id).await?;
    let upgrade = upgrade_of(&parts.headers);
    if origin::changes(&parts.method, upgrade.is_some())
        && !origin::may_change(&state, &parts.headers, &uri, &app_id, viewer.by_cookie)
    {
        tracing::info!(
            app = %app_id,
            method = %parts.method,
            origin = ?parts.headers.get(header::ORIGIN),
            "rejected: a request that changes an app from another origin"
        );
        return Err(ApiError::forbidden(
            "foreign_origin",
            "This request must come from the application's own page",
        ));
    }
    let d = &app.details;
    if d.app_type == insights::APPLICATION && !d.runs_in_cluster() {
        return Err(ApiError::conflict(
            "external_app",
            "This application is external: open it from Ludis",
        ));
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
        tokio::spawn(pipe(state.clone(), viewer, app_id.clone(), from_client, from_app));
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

/// Pipes an upgraded connection both ways until either side closes, access or the session is
/// gone, or the app stopped.
async fn pipe(
    state: AppState,
    viewer: Viewer,
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
    let uid = viewer.user.uid;
    let still_allowed = async {
        let mut tick = tokio::time::interval(RECHECK_EVERY);
        tick.tick().await;
        loop {
            tick.tick().await;
            let ok = match still_signed_in(&state, &uid, viewer.session.as_deref()).await {
                Ok(Some(user)) => matches!(
                    visible(&state, &user, &app_id).await,
                    Ok(app) if app.details.status == insights::RUNNING
                ),
                Ok(None) => false,
                // A database hiccup does not end the session.
                Err(_) => true,
            };
            if !ok {
                tracing::info!(app = %app_id, user = %uid, "app websocket closed: access or the session ended, or the app stopped");
                return;
            }
        }
    };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client_io, &mut app_io) => {}
        () = still_allowed => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
