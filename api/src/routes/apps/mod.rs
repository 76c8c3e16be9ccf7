//! The app reverse proxy: `/apps/{id}/…` forwards web traffic (and websockets) to a running
//! application's Service (the Insight's `status.url`, kept in `insights.upstream_url`), or to a
//! running project preview's (its web view: execute access and the `projects` feature), outside
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
//!   seconds and closed when access or the session is gone or the app stopped. A browser loading a
//!   page of an app that does not answer (yet) gets [`waiting`]'s page, which tries again.
//! - **Forwarding** is the reverse-proxy engine's ([`crate::proxy`]): method, path after the
//!   prefix, query without `ticket`, headers without hop-by-hop ones, `Authorization`,
//!   `X-Api-Key` and our cookie, plus `X-Forwarded-For`, `-Proto`, `-Host` and
//!   `X-Forwarded-Prefix: /apps/{id}`. Bodies stream both ways; websocket (and any HTTP/1.1)
//!   upgrades are piped both ways. Connecting gives up after 5 seconds; nothing else is timed
//!   (the router's request timeout does not apply under `/apps`). A `Location` pointing at the
//!   upstream itself is rewritten under the prefix; the app's cookies pass as they are (an app
//!   should set them relative to its prefix, e.g. from `X-Forwarded-Prefix`), except one naming
//!   our cookie, which is dropped.

pub mod origin;
pub mod pass;
pub mod waiting;

use std::{net::SocketAddr, time::Duration};

use axum::{
    Router,
    extract::{ConnectInfo, FromRequestParts as _, Request, State},
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::{IntoResponse, Response},
    routing::any,
};

use crate::{
    assets,
    auth::extract::MaybeAuthUser,
    db::{
        self,
        insights::{self, InsightRow},
        projects::ProjectRow,
        users::UserRow,
    },
    domain::{AccessLevel, AppType, AssetKind, InsightStatus, ProjectStatus},
    error::{ApiError, Result},
    proxy::{self, ForwardError, Forwarded, Upstream, forwarded_proto, upgrade_of},
    settings::{APPS_ORIGIN_MISSING, AppsPlacement},
    state::AppState,
    telemetry::{self, WebSocketKind},
};

pub use origin::{Destination, destination};
pub use pass::open_url;

/// How often an open websocket re-checks access: a revoke, a sign-out, a password change or a
/// deactivation ends it within this (and the check's own time), well under 5 s.
const RECHECK_EVERY: Duration = Duration::from_secs(2);

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
    let navigation = waiting::is_navigation(req.method(), req.headers());
    respond(serve(state, req).await, navigation)
}

/// The answer: a page navigation to an app that does not answer (yet) gets the waiting page,
/// which loads the app again by itself; anything else the error as it is.
fn respond(result: Result<Response>, navigation: bool) -> Response {
    match result {
        Ok(res) => res,
        Err(e) if navigation => waiting::answer(e),
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

fn starting() -> ApiError {
    ApiError::unavailable("app_starting", "The application is starting")
}

async fn active_user(state: &AppState, uid: &str) -> Result<Option<UserRow>> {
    Ok(db::users::by_uid(&state.db, uid)
        .await?
        .filter(UserRow::is_active))
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
pub(crate) async fn still_signed_in(
    state: &AppState,
    uid: &str,
    session: Option<&str>,
) -> Result<Option<UserRow>> {
    match session {
        Some(sid) => pass::session_user(state, uid, sid).await,
        None => active_user(state, uid).await,
    }
}

/// What `/apps/{id}` serves: an application insight (view access, the `insights` feature) or a
/// project's preview, its web view (execute access, the `projects` feature); where it answers
/// while it runs.
struct Served {
    /// `None` while it does not run.
    upstream: Option<String>,
    /// An external application: opened by the console, never proxied.
    external: bool,
    /// What the upstream asks of every request (a notebook server's token).
    authorization: Option<HeaderValue>,
    /// A notebook server's project: whoever opens it runs code in its pod.
    notebook: Option<db::assets::AssetRow>,
    /// Starting (not answering yet, but asked to run).
    starting: bool,
    /// An app scaled to zero while nobody used it: this request wakes it.
    idle: Option<db::assets::AssetRow>,
}

/// The app or preview as the caller may see it (404 without access, 403 below the level).
async fn visible(state: &AppState, user: &UserRow, app_id: &str) -> Result<Served> {
    if db::assets::by_id(&state.db, app_id)
        .await?
        .is_some_and(|a| a.kind == AssetKind::ProjectV2)
    {
        let (p, _) = assets::load::<ProjectRow>(state, user, app_id, AccessLevel::Execute).await?;
        // A legacy project's notebooks are the `notebooks` feature's.
        assets::require_asset_feature(state, user, &p.asset).await?;
        let authorization = if p.details.is_notebook() {
            crate::projects::jupyter::authorization(state, &p.asset.id).await?
        } else {
            None
        };
        let d = p.details;
        let up = d.running && d.status == ProjectStatus::Running;
        return Ok(Served {
            notebook: d.is_notebook().then_some(p.asset),
            upstream: d.upstream_url.filter(|_| up),
            external: false,
            authorization,
            starting: d.running && d.status == ProjectStatus::Starting,
            idle: None,
        });
    }
    let (app, _) = assets::load::<InsightRow>(state, user, app_id, AccessLevel::View).await?;
    assets::require_feature(state, user, AssetKind::Insight).await?;
    let d = app.details;
    Ok(Served {
        authorization: None,
        notebook: None,
        starting: d.status == InsightStatus::Starting,
        idle: (d.app_type == AppType::Application && d.status == InsightStatus::Idle).then_some(app.asset),
        external: d.app_type == AppType::Application && !d.runs_in_cluster(),
        upstream: match (d.upstream_url, d.app_type, d.status) {
            (Some(url), AppType::Application, InsightStatus::Running) => Some(url),
            _ => None,
        },
    })
}

fn redirect(status: StatusCode, location: &str) -> Result<Response> {
    let mut res = status.into_response();
    res.headers_mut().insert(
        header::LOCATION,
        HeaderValue::from_str(location).map_err(ApiError::internal)?,
    );
    Ok(res)
}

/// Where app `app_id` is mounted on the host that serves it: `""` at the root of its own origin
/// (a per-app apps origin: the app sees every path as it serves it, as its framework's
/// documentation runs it), else `/apps/{id}` (a shared apps origin, or the console's).
pub fn mount_prefix(state: &AppState, app_id: &str) -> String {
    match state.settings.apps_placement() {
        AppsPlacement::Origin(o) if o.is_per_app() => String::new(),
        _ => format!("/apps/{app_id}"),
    }
}

/// `/apps/{id}/…` of a shared origin (the routes).
async fn serve(state: AppState, req: Request) -> Result<Response> {
    let uri = req.uri().clone();
    let Some((app_id, tail)) = split_path(uri.path()) else {
        return Err(assets::not_found(Some(AssetKind::Insight)));
    };
    let app_id = app_id.to_owned();
    if state.settings.apps_placement() == AppsPlacement::Refused {
        tracing::info!(app = %app_id, "refused: apps have no origin (LUDIS_APPS_ORIGIN) and the console's is not allowed");
        return Err(ApiError::unavailable("apps_origin_missing", APPS_ORIGIN_MISSING));
    }
    let prefix = format!("/apps/{app_id}");
    // Without the slash, relative links of the app would resolve outside its prefix.
    if tail.is_empty() {
        let mut location = format!("{prefix}/");
        if let Some(q) = uri.query() {
            location = format!("{location}?{q}");
        }
        return redirect(StatusCode::PERMANENT_REDIRECT, &location);
    }
    let tail = tail.to_owned();
    proxy_app(state, app_id, prefix, tail, req).await
}

/// Every request to app `app_id`'s own origin (the apps-host gate sends them): the app at the
/// root. An address of the earlier `/apps/{id}/…` form on it is moved to the root.
pub async fn serve_at_root(state: AppState, app_id: String, req: Request) -> Response {
    let uri = req.uri().clone();
    if let Some((id, rest)) = split_path(uri.path())
        && id.eq_ignore_ascii_case(&app_id)
    {
        // One leading slash: `//host/…` would send the browser to another site.
        let path = format!("/{}", rest.trim_start_matches('/'));
        let location = match uri.query() {
            Some(q) => format!("{path}?{q}"),
            None => path,
        };
        return redirect(StatusCode::PERMANENT_REDIRECT, &location)
            .unwrap_or_else(IntoResponse::into_response);
    }
    let path = uri.path().to_owned();
    let navigation = waiting::is_navigation(req.method(), req.headers());
    respond(
        proxy_app(state, app_id, String::new(), path, req).await,
        navigation,
    )
}

/// Serves app `app_id` mounted at `prefix` (`""` at its origin's root): `tail` is the path after
/// it (`/…`, still percent-encoded).
async fn proxy_app(
    state: AppState,
    app_id: String,
    prefix: String,
    tail: String,
    req: Request,
) -> Result<Response> {
    let uri = req.uri().clone();
    let (query, ticket) = split_ticket(uri.query().unwrap_or(""));
    let with_query = |path: &str| {
        if query.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{query}")
        }
    };
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
        res.headers_mut().insert(
            header::SET_COOKIE,
            pass::cookie(&state, &pass, &prefix, attributes)?,
        );
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
    if app.external {
        return Err(ApiError::conflict(
            "external_app",
            "This application is external: open it from Ludis",
        ));
    }
    if let Some(asset) = &app.idle {
        crate::idle::wake(&state, asset)
            .await
            .map_err(ApiError::cluster)?;
        return Err(starting());
    }
    let Some(upstream) = app.upstream else {
        return Err(if app.starting { starting() } else { not_running() });
    };
    crate::idle::touch(&state, &app_id).await;
    if let Some(project) = &app.notebook {
        record_notebook_runner(&state, project, &viewer).await?;
    }
    let Some(mut base) = Upstream::parse(&upstream) else {
        tracing::warn!(app = %app_id, %upstream, "the application's upstream URL is not a plain http URL");
        return Err(not_running());
    };
    if state.settings.resolve_services_via_api {
        base = to_cluster_address(&state, base).await?;
    }
    let client_ip = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string());
    let target = proxy::Target {
        upstream: &base,
        prefix: &prefix,
        tail: &tail,
        query: &query,
        private_cookie: pass::COOKIE,
        client_ip,
        authorization: app.authorization,
    };
    match proxy::forward(parts, body, &target).await {
        Ok(Forwarded::Response(res)) => Ok(res),
        Ok(Forwarded::Upgraded {
            response,
            client,
            upstream,
        }) => {
            let until = until_access_ends(state.clone(), viewer, app_id.clone());
            let counted = telemetry::session(state.metrics.clone(), WebSocketKind::Proxy);
            // An open websocket is use: the app, preview or notebook server does not go idle.
            let held = crate::idle::hold(&state, &app_id);
            tokio::spawn(counted.run(async move {
                let _held = held;
                if let Err(e) = proxy::pipe(client, upstream, until).await {
                    tracing::info!(app = %app_id, error = %e, "an upgrade failed");
                }
            }));
            Ok(response)
        }
        Err(ForwardError::Unreachable(e)) => {
            tracing::info!(app = %app_id, %upstream, error = %e, "the application does not answer");
            Err(ApiError::new(
                StatusCode::BAD_GATEWAY,
                "app_unreachable",
                "The application does not answer",
            ))
        }
        Err(ForwardError::UpgradeUnsupported) => Err(ApiError::bad_request(
            "upgrade_unsupported",
            "This connection cannot be upgraded",
        )),
        Err(e @ (ForwardError::Uri(_) | ForwardError::Header(_))) => Err(ApiError::internal(e)),
    }
}

/// Records `viewer` as a runner of `project`'s notebook server before their request reaches it
/// (they run cells in its kernels; [`crate::runners`]); its owner is not recorded.
async fn record_notebook_runner(
    state: &AppState,
    project: &db::assets::AssetRow,
    viewer: &Viewer,
) -> Result<()> {
    if state.kube.is_none() || project.owner_uid.as_deref() == Some(viewer.user.uid.as_str()) {
        return Ok(());
    }
    let Some(workload) = crate::routes::streams::workload::Workload::of(project) else {
        return Ok(());
    };
    let crate::routes::streams::workload::Found::Pod(pod) = workload.find(state).await else {
        return Err(not_running());
    };
    let runner = crate::runners::Runner {
        uid: viewer.user.uid.clone(),
        session: viewer.session.clone(),
        need: AccessLevel::Execute,
        container: workload.container().to_owned(),
    };
    crate::runners::record(state, &workload.namespace, &pod, runner)
        .await
        .map_err(|e| ApiError::internal(format!("failed to record a notebook server's user: {e:#}")))
}

/// An upstream named by a Service name, reached at the Service's cluster address (the name stays
/// its `Host`); a name of no Service is an app that does not run.
async fn to_cluster_address(state: &AppState, base: Upstream) -> Result<Upstream> {
    let Some(kube) = &state.kube else {
        return Ok(base);
    };
    let address = crate::cluster::services::cluster_address(kube, base.host())
        .await
        .map_err(ApiError::internal)?;
    match address {
        Some(address) => {
            let port = base.port();
            Ok(base.connecting_to(SocketAddr::new(address, port)))
        }
        None if crate::cluster::services::service_of_host(base.host()).is_some() => Err(not_running()),
        None => Ok(base),
    }
}

/// Ends when the viewer of an open websocket may no longer have it: access or the session is
/// gone, or the app stopped (checked every 2 seconds).
async fn until_access_ends(state: AppState, viewer: Viewer, app_id: String) {
    let uid = viewer.user.uid;
    let mut tick = tokio::time::interval(RECHECK_EVERY);
    tick.tick().await;
    loop {
        tick.tick().await;
        let ok = match still_signed_in(&state, &uid, viewer.session.as_deref()).await {
            Ok(Some(user)) => matches!(
                visible(&state, &user, &app_id).await,
                Ok(app) if app.upstream.is_some()
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
