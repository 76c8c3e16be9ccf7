//! The headers each way: what the upstream is sent (the browser's `Host`; no credentials, no
//! hop-by-hop headers, the proxy's own cookie kept back, `X-Forwarded-*` added) and what the client gets back (no
//! hop-by-hop headers, no `Set-Cookie` naming the proxy's cookie).

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

/// The scheme the client used, as the proxy in front says (`X-Forwarded-Proto`), else `http`.
pub fn forwarded_proto(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_owned())
        .unwrap_or_else(|| "http".into())
}

/// The `Upgrade` protocol of a request asking for one (`Connection: upgrade`).
pub fn upgrade_of(headers: &HeaderMap) -> Option<HeaderValue> {
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

/// Pure: the headers sent to the upstream mounted at `prefix`; the cookie named `private_cookie`
/// (the proxy's own session) stays here.
pub fn forward_headers(
    incoming: &HeaderMap,
    prefix: &str,
    private_cookie: &str,
    client_ip: Option<&str>,
    upgrade: Option<&HeaderValue>,
) -> HeaderMap {
    let mut h = incoming.clone();
    remove_hop_by_hop(&mut h);
    h.remove(header::AUTHORIZATION);
    h.remove("x-api-key");
    // `Host` stays the browser's: an app's own origin checks (Streamlit's and Jupyter's websocket
    // `Origin` against `Host`, Bokeh's allowed origins) and the links it builds see the page's
    // origin, as behind any reverse proxy that keeps the host.
    // Our cookie stays here; the app's own cookies go on.
    let cookies: Vec<String> = incoming
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .filter(|pair| {
            !pair.is_empty()
                && pair
                    .split_once('=')
                    .is_none_or(|(name, _)| name != private_cookie)
        })
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
    // An app at the root of its own origin has no prefix.
    if !prefix.is_empty()
        && let Ok(v) = HeaderValue::from_str(prefix)
    {
        h.insert("x-forwarded-prefix", v);
    }
    if let Some(protocol) = upgrade {
        h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        h.insert(header::UPGRADE, protocol.clone());
    }
    h
}

/// The response's hop-by-hop headers go, and so does any `Set-Cookie` of the upstream naming the
/// cookie `private_cookie` (an app may not plant or clear a session); a switched connection keeps
/// `Connection`/`Upgrade`.
pub fn strip_response_headers(headers: &mut HeaderMap, private_cookie: &str, switching: bool) {
    let upgrade = headers.get(header::UPGRADE).cloned();
    remove_hop_by_hop(headers);
    let cookies: Vec<HeaderValue> = headers.get_all(header::SET_COOKIE).iter().cloned().collect();
    let sets_private = |c: &HeaderValue| sets_cookie(c, private_cookie);
    if cookies.iter().any(sets_private) {
        headers.remove(header::SET_COOKIE);
        for cookie in cookies.into_iter().filter(|c| !sets_private(c)) {
            headers.append(header::SET_COOKIE, cookie);
        }
    }
    if switching && let Some(u) = upgrade {
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, u);
    }
}

/// Whether a `Set-Cookie` value names cookie `name` (browsers trim the name; any case counts).
fn sets_cookie(value: &HeaderValue, name: &str) -> bool {
    let bytes = value.as_bytes();
    let end = bytes
        .iter()
        .position(|b| *b == b'=' || *b == b';')
        .unwrap_or(bytes.len());
    bytes[..end].trim_ascii().eq_ignore_ascii_case(name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let out = forward_headers(&h, "/apps/x", "ludis_app", Some("127.0.0.1"), None);
        for gone in ["authorization", "x-api-key", "connection", "x-custom", "te"] {
            assert!(!out.contains_key(gone), "{gone}");
        }
        // The browser's Host goes on: frameworks compare it with the page's Origin.
        assert_eq!(out["host"], "ludis.example");
        assert_eq!(out["cookie"], "a=1; b=2");
        assert_eq!(out["x-forwarded-for"], "10.0.0.1, 127.0.0.1");
        assert_eq!(out["x-forwarded-host"], "ludis.example");
        assert_eq!(out["x-forwarded-proto"], "http");
        assert_eq!(out["x-forwarded-prefix"], "/apps/x");
        assert_eq!(out["accept"], "text/html");
        // An app at the root of its own origin has no prefix.
        let root = forward_headers(&h, "", "ludis_app", None, None);
        assert!(!root.contains_key("x-forwarded-prefix"));

        let mut only_ours = HeaderMap::new();
        only_ours.insert(header::COOKIE, HeaderValue::from_static("ludis_app=secret"));
        only_ours.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
        only_ours.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        let protocol = upgrade_of(&only_ours);
        assert_eq!(protocol.as_ref().unwrap(), "websocket");
        let out = forward_headers(&only_ours, "/apps/x", "ludis_app", None, protocol.as_ref());
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
        strip_response_headers(&mut h, "ludis_app", false);
        let kept: Vec<_> = h.get_all(header::SET_COOKIE).iter().collect();
        assert_eq!(kept, ["theme=dark; Path=/", "ludis_apps=1"]);
        assert_eq!(h[header::CONTENT_TYPE], "text/html");
    }
}
