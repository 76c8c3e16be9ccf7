//! Origins at the app proxy: which host a request reached ([`destination`]), and which page a
//! request that changes an app comes from ([`may_change`]).
//!
//! A browser names the page a request comes from in `Origin`, on every websocket handshake and on
//! every request whose method is not GET or HEAD. The app cookie rides along on such requests from
//! anywhere the browser sends it (another app's page, on a shared apps origin or in the console's
//! frame), so a request that changes an app and carries the cookie must come from the app's own
//! origin: with an origin per app (`https://*.apps.…`), one app's page cannot drive another app as
//! the viewer. A program signs in with a header (bearer token, API key) and sends no `Origin`;
//! one that names another origin is refused all the same.

use axum::http::{HeaderMap, Method, Uri, header};

use crate::{settings::AppsPlacement, state::AppState};

use super::split_path;
use crate::proxy::forwarded_proto;

/// Where a request goes by the host it reached (its `Host`, or HTTP/2 `:authority`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// The routes (the console, the API, and on a shared apps origin the app proxy's `/apps/…`).
    Routes,
    /// App `id`'s own origin (`<id>.apps.…`): every path is the app's, served at the root.
    AppAtRoot(String),
    /// The wrong origin: the app proxy anywhere but on the apps origin, anything else there.
    Misrouted,
}

/// Where a request goes, when apps have an origin of their own: a per-app origin serves its app
/// at its root (any path), a shared apps origin only `/apps/…`, and no other host serves the app
/// proxy. Without an apps origin (apps on the console's origin, or none) everything is routed.
pub fn destination(state: &AppState, headers: &HeaderMap, uri: &Uri) -> Destination {
    let Some(origin) = state.settings.apps_origin.get() else {
        return Destination::Routes;
    };
    let on_apps_origin = request_host(headers, uri).and_then(|h| origin.app_of_host(h));
    match (on_apps_origin, split_path(uri.path())) {
        (Some(Some(label)), _) => Destination::AppAtRoot(label.to_ascii_lowercase()),
        (None, None) | (Some(None), Some(_)) => Destination::Routes,
        (None, Some(_)) | (Some(None), None) => Destination::Misrouted,
    }
}

fn request_host<'a>(headers: &'a HeaderMap, uri: &'a Uri) -> Option<&'a str> {
    match headers.get(header::HOST) {
        Some(h) => h.to_str().ok(),
        None => uri.authority().map(|a| a.as_str()),
    }
}

/// Whether a request changes something: any method but GET, HEAD and OPTIONS (a CORS preflight
/// carries no credentials), or a protocol upgrade.
pub fn changes(method: &Method, upgrade: bool) -> bool {
    upgrade || !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A web origin as compared here: https, lowercase host (brackets kept), port.
type WebOrigin = (bool, String, u16);

/// `scheme://host[:port]` as browsers write `Origin` (no path, no user); `null` and anything else
/// is `None`.
fn parse_origin(s: &str) -> Option<WebOrigin> {
    let uri: Uri = s.trim().parse().ok()?;
    let https = match uri.scheme_str()? {
        "https" => true,
        "http" => false,
        _ => return None,
    };
    let authority = uri.authority()?;
    if authority.as_str().contains('@') || !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return None;
    }
    let host = authority.host().trim_end_matches('.').to_ascii_lowercase();
    let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
    (!host.is_empty()).then_some((https, host, port))
}

/// App `app_id`'s own origin for this request: its apps origin (its own with `*.`), or, for apps
/// on the console's origin, the origin the request reached (`Host`, scheme from
/// `X-Forwarded-Proto`).
fn own_origin(state: &AppState, headers: &HeaderMap, uri: &Uri, app_id: &str) -> Option<WebOrigin> {
    match state.settings.apps_placement() {
        AppsPlacement::Origin(o) => parse_origin(&o.of_app(app_id)),
        AppsPlacement::ConsoleOrigin => parse_origin(&format!(
            "{}://{}",
            forwarded_proto(headers),
            request_host(headers, uri)?
        )),
        AppsPlacement::Refused => None,
    }
}

/// Whether a request that changes app `app_id` may go on: its `Origin` is the app's own, or it
/// has none and was not signed in by the app cookie (a program, not a page).
pub fn may_change(state: &AppState, headers: &HeaderMap, uri: &Uri, app_id: &str, by_cookie: bool) -> bool {
    let own = own_origin(state, headers, uri, app_id);
    let origin = headers.get(header::ORIGIN).map(|v| v.to_str().unwrap_or("null"));
    allowed(own.as_ref(), origin, by_cookie)
}

/// Pure: the rule of [`may_change`].
fn allowed(own: Option<&WebOrigin>, origin: Option<&str>, by_cookie: bool) -> bool {
    match origin {
        None => !by_cookie,
        Some(o) => own.is_some() && parse_origin(o).as_ref() == own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_gets_heads_and_preflights_change_nothing() {
        for m in [Method::GET, Method::HEAD, Method::OPTIONS] {
            assert!(!changes(&m, false), "{m}");
            assert!(changes(&m, true), "{m} upgrading");
        }
        for m in [
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::TRACE,
        ] {
            assert!(changes(&m, false), "{m}");
        }
    }

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        let own = parse_origin("http://a1.apps.localhost:7777").unwrap();
        assert_eq!(own, (false, "a1.apps.localhost".into(), 7777));
        assert_eq!(
            parse_origin("https://Apps.Ludis.example"),
            Some((true, "apps.ludis.example".into(), 443))
        );
        assert_eq!(
            parse_origin("https://apps.ludis.example:443"),
            parse_origin("https://apps.ludis.example")
        );
        for bad in [
            "null",
            "",
            "file://",
            "a1.apps.localhost",
            "http://u@a1.apps.localhost:7777",
            "http://x/y",
            "ws://x",
        ] {
            assert_eq!(parse_origin(bad), None, "{bad}");
        }

        let ok = |origin: Option<&str>, by_cookie| allowed(Some(&own), origin, by_cookie);
        assert!(ok(Some("http://a1.apps.localhost:7777"), true));
        assert!(ok(Some("http://A1.apps.localhost:7777"), false));
        for other in [
            "http://a2.apps.localhost:7777",
            "http://a1.apps.localhost:7778",
            "https://a1.apps.localhost:7777",
            "http://apps.localhost:7777",
            "null",
            "http://evil.example",
        ] {
            assert!(!ok(Some(other), true), "{other}");
            assert!(!ok(Some(other), false), "{other}, even with a header credential");
        }
        assert!(!ok(None, true), "the cookie needs the page's origin");
        assert!(ok(None, false), "a program with a header credential");
        assert!(
            !allowed(None, Some("http://a1.apps.localhost:7777"), true),
            "no app origin"
        );
    }
}
