//! What a browser that opens an app gets while the app does not answer yet (it is starting, its
//! Service is not routed yet, it is stopped): a small page on the app's own origin that says so and
//! loads the app again by itself, instead of the proxy's JSON error. Programs (any request that
//! is not a page navigation) keep the JSON error and its status.

use axum::{
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    response::{Html, IntoResponse as _, Response},
};

use crate::error::ApiError;

/// How often the page tries again, in seconds.
pub const RETRY_SECONDS: u32 = 2;

/// The error codes of an app that does not answer (yet).
const NOT_ANSWERING: [&str; 3] = ["app_not_running", "app_starting", "app_unreachable"];

/// Whether the request is a browser loading a page (a top-level or framed navigation).
pub fn is_navigation(method: &Method, headers: &HeaderMap) -> bool {
    if *method != Method::GET {
        return false;
    }
    let said = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    match said("sec-fetch-mode") {
        Some(mode) => mode.eq_ignore_ascii_case("navigate"),
        // A browser without Fetch Metadata: one that asks for HTML first.
        None => said(header::ACCEPT.as_str()).is_some_and(|a| a.starts_with("text/html")),
    }
}

/// The answer to a page navigation that met `error`: the waiting page when the app does not
/// answer (yet), else the error itself.
pub fn answer(error: ApiError) -> Response {
    let waiting = match &error {
        ApiError::Client { code, .. } if NOT_ANSWERING.contains(code) => Some(*code),
        _ => None,
    };
    let Some(code) = waiting else {
        return error.into_response();
    };
    let (title, text) = if code == "app_not_running" {
        (
            "This app is not running",
            "It starts when someone with access runs it. This page opens it by itself then.",
        )
    } else {
        (
            "Starting your app…",
            "It is getting ready to answer. This page opens it by itself as soon as it does.",
        )
    };
    let mut res = (StatusCode::SERVICE_UNAVAILABLE, Html(page(title, text))).into_response();
    let headers = res.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_SECONDS));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Our own page on the app's origin: no script, nothing loaded from anywhere.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    res
}

fn page(title: &str, text: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="{RETRY_SECONDS}">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>{title}</title>
<style>body{{margin:0;height:100vh;display:flex;align-items:center;justify-content:center;
font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2937;background:#fff}}
main{{text-align:center;max-width:28rem;padding:1rem}}h1{{font-size:1.15rem;margin:.8rem 0 .4rem}}
p{{color:#6b7280;font-size:.9rem;margin:0}}.spin{{width:28px;height:28px;margin:auto;border-radius:50%;
border:3px solid #e5e7eb;border-top-color:#228be6;animation:s 1s linear infinite}}
@keyframes s{{to{{transform:rotate(360deg)}}}}</style></head>
<body><main role="status" aria-live="polite"><div class="spin" aria-hidden="true"></div>
<h1>{title}</h1><p>{text}</p></main></body></html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn navigations_are_told_from_programs() {
        let mut h = HeaderMap::new();
        assert!(!is_navigation(&Method::GET, &h), "a program that says nothing");
        h.insert(
            header::ACCEPT,
            HeaderValue::from_static("text/html,application/xhtml+xml"),
        );
        assert!(is_navigation(&Method::GET, &h));
        assert!(!is_navigation(&Method::POST, &h));
        h.insert("sec-fetch-mode", HeaderValue::from_static("cors"));
        assert!(!is_navigation(&Method::GET, &h), "a page's fetch");
        h.insert("sec-fetch-mode", HeaderValue::from_static("navigate"));
        assert!(is_navigation(&Method::GET, &h));
    }

    #[test]
    fn an_app_that_does_not_answer_gets_a_page_that_tries_again() {
        let res = answer(ApiError::unavailable(
            "app_not_running",
            "The application is not running",
        ));
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], "2");
        assert!(
            res.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        let res = answer(ApiError::new(StatusCode::BAD_GATEWAY, "app_unreachable", "x"));
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        // Other refusals stay what they are.
        let res = answer(ApiError::not_found(
            "application_not_found",
            "Application not found",
        ));
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        assert!(page("T", "x").contains(r#"<meta http-equiv="refresh" content="2">"#));
    }
}
