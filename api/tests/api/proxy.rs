//! The app reverse proxy (`/apps/{id}/…`) against a real upstream on loopback: tickets and the
//! app cookie, access on every request, forwarded requests, streamed bodies, websockets, and no
//! request timeout, on the console's origin (allowed explicitly) and on apps origins. The
//! insight's row points at the upstream directly (no cluster needed). Its defences are in
//! `proxy_security.rs`.

use std::time::Duration;

use axum::{
    Json, Router,
    body::{Body, Bytes},
    extract::{
        Request,
        ws::{Message as WsMessage, WebSocketUpgrade},
    },
    response::{IntoResponse, Response},
    routing::{any, get, post},
};
use futures::{SinkExt as _, StreamExt as _};
use ludis_api::{
    db::{self, assets::AssetRow, insights::InsightRow},
    domain::AccessLevel as Level,
};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest as _};

use crate::helpers::{TestApp, apps_with};

/// The upstream app: echoes, a slow answer, a redirect to itself, cookies (one naming ours) and a
/// websocket echo.
pub(crate) async fn upstream() -> String {
    async fn echo(req: Request) -> Json<Value> {
        let headers: serde_json::Map<String, Value> = req
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), json!(v.to_str().unwrap_or_default())))
            .collect();
        Json(json!({
            "method": req.method().as_str(),
            "path": req.uri().path(),
            "query": req.uri().query(),
            "headers": headers,
        }))
    }
    async fn body(bytes: Bytes) -> Response {
        Response::new(Body::from(bytes))
    }
    async fn slow() -> &'static str {
        tokio::time::sleep(Duration::from_millis(2500)).await;
        "done"
    }
    async fn ws(upgrade: WebSocketUpgrade) -> Response {
        upgrade.on_upgrade(|mut socket| async move {
            while let Some(Ok(msg)) = socket.recv().await {
                let reply = match msg {
                    WsMessage::Text(t) => WsMessage::Text(format!("echo: {}", t.as_str()).into()),
                    WsMessage::Binary(b) => WsMessage::Binary(b),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                if socket.send(reply).await.is_err() {
                    break;
                }
            }
        })
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let own = base.clone();
    let app = Router::new()
        .route("/ws", get(ws))
        .route("/body", post(body))
        .route("/slow", get(slow))
        .route(
            "/set-cookies",
            get(|| async {
                let mut res = "ok".into_response();
                for c in ["ludis_app=planted; Path=/", "theme=dark; Path=/"] {
                    res.headers_mut().append(header::SET_COOKIE, c.parse().unwrap());
                }
                res
            }),
        )
        .route(
            "/moved",
            get(move || async move {
                (
                    StatusCode::FOUND,
                    [(header::LOCATION, format!("{own}/there?x=1"))],
                )
                    .into_response()
            }),
        )
        .fallback(any(echo))
        .layer(axum::extract::DefaultBodyLimit::disable());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// A running application of `owner` whose upstream is `upstream`; returns its id.
pub(crate) async fn running_app(app: &TestApp, org: &str, owner: &str, upstream: &str) -> String {
    let id = db::new_id();
    let now = db::now();
    db::details::insert(
        &app.state.db,
        &db::insights::Insight {
            asset: AssetRow {
                id: id.clone(),
                kind: "application".parse().unwrap(),
                organization_id: org.into(),
                owner_uid: Some(owner.into()),
                name: "Echo".into(),
                description: String::new(),
                img_path: None,
                namespace: None,
                resource_name: None,
                origin: "api".parse().unwrap(),
                views: 0,
                created_at: now,
                updated_at: now,
            },
            details: InsightRow {
                id: id.clone(),
                app_type: "application".parse().unwrap(),
                status: "starting".parse().unwrap(),
                container_name: Some("echo".into()),
                language: "python".parse().unwrap(),
                ..InsightRow::default()
            },
        },
    )
    .await
    .unwrap();
    // As the watcher writes what the operator observed.
    db::insights::set_observed(
        &app.state.db,
        &id,
        "running".parse().unwrap(),
        None,
        Some(upstream),
        None,
    )
    .await
    .unwrap();
    id
}

/// The upgrade request of app `id`'s websocket echo, with its app cookie, from the console's
/// origin.
pub(crate) fn socket_request(
    app: &TestApp,
    id: &str,
    cookie: &str,
) -> tungstenite::handshake::client::Request {
    let url = format!("{}/apps/{id}/ws", app.address.replace("http://", "ws://"));
    let mut request = url.as_str().into_client_request().unwrap();
    request
        .headers_mut()
        .insert(header::COOKIE, cookie.parse().unwrap());
    request
        .headers_mut()
        .insert(header::ORIGIN, app.address.parse().unwrap());
    request
}

pub(crate) fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Apps on the console's origin, allowed explicitly (without an apps origin none is served).
pub(crate) fn console_origin(s: &mut ludis_api::Settings) {
    s.allow_apps_on_console_origin = true;
}

/// A ticket for app `id` from the `open_url` the API gives `token`'s session.
async fn ticket(app: &TestApp, token: &str, id: &str) -> String {
    let (s, b) = app.get(&format!("/v1/applications/{id}"), token).await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    let url = b["open_url"].as_str().unwrap();
    url[url.find("ticket=").unwrap() + "ticket=".len()..].to_owned()
}

/// Opens the app at `path` with a ticket of `token`'s session; returns the `ludis_app=…` cookie
/// pair.
pub(crate) async fn open(app: &TestApp, token: &str, id: &str, path: &str) -> String {
    let ticket = ticket(app, token, id).await;
    let res = no_redirects()
        .get(app.url(&format!("/apps/{id}{path}?x=1&ticket={ticket}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "{}", app.kind);
    assert_eq!(
        res.headers()[header::LOCATION],
        format!("/apps/{id}{path}?x=1"),
        "the same URL without the ticket"
    );
    let cookie = res.headers()[header::SET_COOKIE].to_str().unwrap().to_owned();
    for attribute in [
        format!("Path=/apps/{id}/"),
        "HttpOnly".into(),
        "SameSite=Lax".into(),
        "Max-Age=3600".into(),
    ] {
        assert!(cookie.contains(&attribute), "{attribute} in {cookie}");
    }
    cookie.split(';').next().unwrap().to_owned()
}

async fn get_with_cookie(app: &TestApp, path: &str, cookie: &str) -> reqwest::Response {
    no_redirects()
        .get(app.url(path))
        .header(header::COOKIE, cookie)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_ticket_opens_the_app_and_its_cookie_carries_every_request() {
    let upstream = upstream().await;
    for app in apps_with(console_origin).await {
        let team = app.org_with_admin_and_dev("Proxy").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let cookie = open(&app, &team.dev_token, &id, "/echo/a%20b").await;

        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/echo/a%20b?x=1")))
            .header(header::COOKIE, format!("theme=dark; {cookie}"))
            .header(header::AUTHORIZATION, format!("Bearer {}", team.dev_token))
            .header("x-forwarded-proto", "https")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{}", app.kind);
        let echo: Value = res.json().await.unwrap();
        assert_eq!(echo["path"], "/echo/a%20b");
        assert_eq!(echo["query"], "x=1");
        let h = &echo["headers"];
        assert_eq!(h["x-forwarded-prefix"], format!("/apps/{id}"));
        assert_eq!(h["x-forwarded-for"], "127.0.0.1");
        assert_eq!(h["x-forwarded-proto"], "https");
        assert!(
            h["x-forwarded-host"].as_str().unwrap().starts_with("127.0.0.1:"),
            "{h}"
        );
        assert_eq!(h["cookie"], "theme=dark", "our cookie stays with us");
        assert!(
            h.get("authorization").is_none(),
            "credentials are not forwarded: {h}"
        );
        // The browser's Host goes on (frameworks compare it with the page's Origin).
        assert_eq!(h["host"], h["x-forwarded-host"], "{h}");
        assert_ne!(h["host"], upstream.trim_start_matches("http://"), "{h}");

        // Without the trailing slash the app's relative links would break.
        let res = get_with_cookie(&app, &format!("/apps/{id}?a=1"), &cookie).await;
        assert_eq!(res.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(res.headers()[header::LOCATION], format!("/apps/{id}/?a=1"));

        // A redirect to the app's own address stays under the prefix.
        let res = get_with_cookie(&app, &format!("/apps/{id}/moved"), &cookie).await;
        assert_eq!(res.status(), StatusCode::FOUND);
        assert_eq!(res.headers()[header::LOCATION], format!("/apps/{id}/there?x=1"));

        // Bodies stream both ways, beyond the JSON body limit.
        let big = vec![b'x'; 3 * 1024 * 1024 + 7];
        let res = no_redirects()
            .post(app.url(&format!("/apps/{id}/body")))
            .header(header::COOKIE, &cookie)
            .header(header::ORIGIN, &app.address)
            .body(big.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.bytes().await.unwrap().len(), big.len());

        // The app may set its own cookies, never ours.
        let res = get_with_cookie(&app, &format!("/apps/{id}/set-cookies"), &cookie).await;
        assert_eq!(res.status(), 200);
        let set: Vec<_> = res.headers().get_all(header::SET_COOKIE).iter().collect();
        assert_eq!(set, ["theme=dark; Path=/"]);

        // A cookie opens only its own app.
        let other = running_app(&app, &team.org, &team.dev, &upstream).await;
        let res = get_with_cookie(&app, &format!("/apps/{other}/echo"), &cookie).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn access_is_checked_on_every_request() {
    let upstream = upstream().await;
    for app in apps_with(console_origin).await {
        let team = app.org_with_admin_and_dev("Access").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let viewer = app
            .user("viewer@access.example", "pass-word", "developer", &team.org)
            .await;
        let (viewer_token, _) = app.login("viewer@access.example", "pass-word").await;

        // No share: the app does not exist for them (with a token; with a ticket or a cookie
        // from when they had access, below).
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/echo")))
            .bearer_auth(&viewer_token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);

        // A view share opens it.
        db::shares::set_console(
            &app.state.db,
            &id,
            &[db::shares::Entry {
                to_type: "user".parse().unwrap(),
                to_id: &viewer,
                level: Level::View,
            }],
            &team.dev,
            db::now(),
        )
        .await
        .unwrap();
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/echo")))
            .bearer_auth(&viewer_token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let cookie = open(&app, &viewer_token, &id, "/").await;
        assert_eq!(
            get_with_cookie(&app, &format!("/apps/{id}/"), &cookie)
                .await
                .status(),
            200
        );
        let unused = ticket(&app, &viewer_token, &id).await;

        // Revoked: the very next request is refused, cookie or not.
        db::shares::delete_console(&app.state.db, &id, "user".parse().unwrap(), &viewer)
            .await
            .unwrap();
        let res = get_with_cookie(&app, &format!("/apps/{id}/"), &cookie).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "application_not_found");
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/?ticket={unused}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{}", app.kind);

        // The owner's app stopped: 503 with the spec's message.
        let owner_cookie = open(&app, &team.dev_token, &id, "/").await;
        db::insights::set_observed(&app.state.db, &id, "stopped".parse().unwrap(), None, None, None)
            .await
            .unwrap();
        let res = get_with_cookie(&app, &format!("/apps/{id}/"), &owner_cookie).await;
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["message"], "The application is not running");

        // Running but unreachable: 502.
        db::insights::set_observed(
            &app.state.db,
            &id,
            "running".parse().unwrap(),
            None,
            Some("http://127.0.0.1:9"),
            None,
        )
        .await
        .unwrap();
        let res = get_with_cookie(&app, &format!("/apps/{id}/"), &owner_cookie).await;
        assert_eq!(res.status(), StatusCode::BAD_GATEWAY);

        // An external app is not proxied: the console opens its URL itself (no redirect off-site).
        sqlx::query("UPDATE insights SET status = 'external', app_url = 'https://elsewhere.example/app', upstream_url = NULL WHERE id = $1")
            .bind(&id)
            .execute(&app.state.db)
            .await
            .unwrap();
        let res = get_with_cookie(&app, &format!("/apps/{id}/"), &owner_cookie).await;
        assert_eq!(res.status(), StatusCode::CONFLICT);
        assert!(res.headers().get(header::LOCATION).is_none());

        // Forged and expired tickets open nothing; no credentials at all is a 401.
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/?ticket=forged.ticket")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        // A reloaded link with an expired ticket still works with the cookie.
        let res = get_with_cookie(&app, &format!("/apps/{id}/?ticket=expired.one"), &owner_cookie).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        assert_eq!(res.headers()[header::LOCATION], format!("/apps/{id}/"));
    }
}

#[tokio::test]
async fn websockets_are_piped_both_ways() {
    let upstream = upstream().await;
    for app in apps_with(console_origin).await {
        let team = app.org_with_admin_and_dev("Sockets").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let cookie = open(&app, &team.dev_token, &id, "/").await;
        let url = format!("{}/apps/{id}/ws", app.address.replace("http://", "ws://"));
        let request = socket_request(&app, &id, &cookie);
        let (mut socket, response) = tokio_tungstenite::connect_async(request)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", app.kind));
        assert_eq!(response.status(), StatusCode::SWITCHING_PROTOCOLS);
        for text in ["hello", "again"] {
            socket
                .send(tungstenite::Message::Text(text.into()))
                .await
                .unwrap();
            let reply = socket.next().await.unwrap().unwrap();
            assert_eq!(reply.into_text().unwrap().as_str(), format!("echo: {text}"));
        }
        socket
            .send(tungstenite::Message::Binary(vec![1u8, 2, 3].into()))
            .await
            .unwrap();
        assert_eq!(
            socket.next().await.unwrap().unwrap().into_data().as_ref(),
            [1u8, 2, 3]
        );
        socket.close(None).await.unwrap();

        // Without access the upgrade is refused before it happens.
        let mut request = url.as_str().into_client_request().unwrap();
        request
            .headers_mut()
            .insert(header::COOKIE, "ludis_app=forged".parse().unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Err(tungstenite::Error::Http(res)) => assert_eq!(res.status(), StatusCode::UNAUTHORIZED),
            other => panic!("expected a refused upgrade, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_slow_app_is_not_cut_by_the_request_timeout() {
    let upstream = upstream().await;
    // Every other request ends within 1 s here; the app takes 2.5 s.
    for app in apps_with(|s| {
        console_origin(s);
        s.request_timeout = 1;
    })
    .await
    {
        let team = app.org_with_admin_and_dev("Slow").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let cookie = open(&app, &team.dev_token, &id, "/").await;
        let res = get_with_cookie(&app, &format!("/apps/{id}/slow"), &cookie).await;
        assert_eq!(res.status(), 200, "{}", app.kind);
        assert_eq!(res.text().await.unwrap(), "done");
    }
}

/// The apps origin of these tests; requests reach the test server with this `Host`.
const APPS: &str = "apps.localhost:7777";

/// A request to the test server as if for `host`.
pub(crate) fn on_host(app: &TestApp, host: &str, path: &str) -> reqwest::RequestBuilder {
    no_redirects().get(app.url(path)).header(header::HOST, host)
}

/// The path and query of an absolute URL (`http://host/a?b` → `/a?b`), or the path as it is.
pub(crate) fn path_of(url: &str) -> &str {
    match url.find("://") {
        Some(i) => url[i + 3..].find('/').map_or("/", |j| &url[i + 3 + j..]),
        None => url,
    }
}

/// Opens the app on `host` with a ticket from `open_url`; returns the `Set-Cookie` header.
pub(crate) async fn open_on(app: &TestApp, host: &str, open_url: &str, dest: Option<&str>) -> String {
    let path = path_of(open_url);
    let mut req = on_host(app, host, path);
    if let Some(dest) = dest {
        req = req.header("sec-fetch-dest", dest);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "{}: {path}", app.kind);
    res.headers()[header::SET_COOKIE].to_str().unwrap().to_owned()
}

fn attributes(cookie: &str) -> Vec<String> {
    cookie.split(';').skip(1).map(|a| a.trim().to_owned()).collect()
}

#[tokio::test]
async fn an_apps_origin_serves_the_apps_and_nothing_else() {
    let upstream = upstream().await;
    for app in apps_with(|s| s.apps_origin = format!("http://{APPS}").parse().unwrap()).await {
        let team = app.org_with_admin_and_dev("AppsOrigin").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;

        // The console (on its own host) hands out an absolute URL on the apps origin.
        let (status, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
        assert_eq!(status, 200, "{}", app.kind);
        let open_url = b["open_url"].as_str().unwrap().to_owned();
        assert!(
            open_url.starts_with(&format!("http://{APPS}/apps/{id}/?ticket=")),
            "{open_url}"
        );

        // The console's host does not serve apps, not even with a valid ticket or token.
        let path = &open_url[open_url.find("/apps/").unwrap()..];
        let res = no_redirects().get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/echo")))
            .bearer_auth(&team.dev_token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);

        // The apps host takes the ticket: a host-only cookie for the console's frame.
        let set_cookie = open_on(&app, APPS, &open_url, Some("iframe")).await;
        let attrs = attributes(&set_cookie);
        for a in [
            format!("Path=/apps/{id}/"),
            "Max-Age=3600".into(),
            "HttpOnly".into(),
            "SameSite=None".into(),
            "Secure".into(),
            "Partitioned".into(),
        ] {
            assert!(attrs.contains(&a), "{a} in {set_cookie}");
        }
        assert!(
            !attrs.iter().any(|a| a.to_ascii_lowercase().starts_with("domain")),
            "host-only: {set_cookie}"
        );
        let cookie = set_cookie.split(';').next().unwrap().to_owned();

        // …and proxies with it, without our cookie or credentials.
        let res = on_host(&app, APPS, &format!("/apps/{id}/echo?x=1"))
            .header(header::COOKIE, format!("theme=dark; {cookie}"))
            .header(header::AUTHORIZATION, format!("Bearer {}", team.dev_token))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let echo: Value = res.json().await.unwrap();
        assert_eq!(echo["path"], "/echo");
        let h = &echo["headers"];
        assert_eq!(h["x-forwarded-host"], APPS);
        assert_eq!(h["cookie"], "theme=dark");
        assert!(h.get("authorization").is_none(), "{h}");
        // The app's own cookies pass; one naming ours does not.
        let res = on_host(&app, APPS, &format!("/apps/{id}/set-cookies"))
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        let set: Vec<_> = res.headers().get_all(header::SET_COOKIE).iter().collect();
        assert_eq!(set, ["theme=dark; Path=/"]);

        // Opened top-level, the cookie is Lax (no cross-site request carries it); plain http on
        // localhost needs no Secure then.
        let (_, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
        let top = open_on(&app, APPS, b["open_url"].as_str().unwrap(), Some("document")).await;
        assert_eq!(attributes(&top)[3..], ["SameSite=Lax"], "{top}");

        // Websockets go through the apps host too.
        let url = format!("{}/apps/{id}/ws", app.address.replace("http://", "ws://"));
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert(header::HOST, APPS.parse().unwrap());
        request
            .headers_mut()
            .insert(header::COOKIE, cookie.parse().unwrap());
        request
            .headers_mut()
            .insert(header::ORIGIN, format!("http://{APPS}").parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", app.kind));
        socket
            .send(tungstenite::Message::Text("hi".into()))
            .await
            .unwrap();
        let reply = socket.next().await.unwrap().unwrap();
        assert_eq!(reply.into_text().unwrap().as_str(), "echo: hi");
        socket.close(None).await.unwrap();

        // The apps host serves nothing but apps: no API, no console, no health checks.
        for path in [
            format!("/v1/applications/{id}"),
            "/v1/config".into(),
            "/".into(),
            "/index.html".into(),
            "/healthz".into(),
            "/apps".into(),
        ] {
            let res = on_host(&app, APPS, &path)
                .bearer_auth(&team.dev_token)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        }
        // Another port of the same name is another origin.
        let res = on_host(&app, "apps.localhost:7778", &format!("/apps/{id}/echo"))
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn an_https_apps_origin_sets_secure_cross_site_cookies() {
    let upstream = upstream().await;
    let origin = "https://apps.ludis.example";
    for app in apps_with(|s| s.apps_origin = origin.parse().unwrap()).await {
        let team = app.org_with_admin_and_dev("AppsHttps").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let open_url = || async {
            let (_, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
            b["open_url"].as_str().unwrap().to_owned()
        };
        let url = open_url().await;
        assert!(url.starts_with(&format!("{origin}/apps/{id}/?ticket=")), "{url}");

        // In the console's frame (and for clients that do not say): cross-site.
        for (host, dest) in [
            ("apps.ludis.example", Some("iframe")),
            ("apps.ludis.example:443", None),
        ] {
            let set_cookie = open_on(&app, host, &open_url().await, dest).await;
            assert_eq!(
                attributes(&set_cookie)[3..],
                ["SameSite=None", "Secure", "Partitioned"],
                "{}: {set_cookie}",
                app.kind
            );
        }
        // Top-level: Lax, still Secure although TLS ended before the API.
        let set_cookie = open_on(&app, "apps.ludis.example", &open_url().await, Some("document")).await;
        assert_eq!(
            attributes(&set_cookie)[3..],
            ["SameSite=Lax", "Secure"],
            "{set_cookie}"
        );
        let cookie = set_cookie.split(';').next().unwrap();
        let res = on_host(&app, "apps.ludis.example", &format!("/apps/{id}/echo"))
            .header(header::COOKIE, cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);

        // The http origin of the same name is another origin.
        let res = on_host(&app, "apps.ludis.example:80", &format!("/apps/{id}/echo"))
            .header(header::COOKIE, cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_per_app_origin_serves_its_app_at_the_root_with_the_browsers_host() {
    let upstream = upstream().await;
    for app in apps_with(|s| s.apps_origin = "http://*.apps.localhost:7777".parse().unwrap()).await {
        let team = app.org_with_admin_and_dev("PerApp").await;
        let id = running_app(&app, &team.org, &team.dev, &upstream).await;
        let other = running_app(&app, &team.org, &team.dev, &upstream).await;
        let (host, other_host) = (
            format!("{id}.apps.localhost:7777"),
            format!("{other}.apps.localhost:7777"),
        );

        // The app opens at the root of its own origin, as its framework's documentation runs it.
        let (_, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
        let open_url = b["open_url"].as_str().unwrap().to_owned();
        assert!(
            open_url.starts_with(&format!("http://{host}/?ticket=")),
            "{}: {open_url}",
            app.kind
        );
        let path = &open_url[open_url.find("/?ticket=").unwrap()..];
        let res = on_host(&app, &host, path)
            .header("sec-fetch-dest", "iframe")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{}", app.kind);
        assert_eq!(res.headers()[header::LOCATION], "/");
        let set_cookie = res.headers()[header::SET_COOKIE].to_str().unwrap().to_owned();
        let attrs = attributes(&set_cookie);
        assert!(attrs.contains(&"Path=/".to_owned()), "{set_cookie}");
        assert_eq!(
            attrs[3..],
            ["SameSite=None", "Secure", "Partitioned"],
            "{set_cookie}"
        );
        let cookie = set_cookie.split(';').next().unwrap().to_owned();

        // Every path of its origin is the app's, sent with the browser's Host and no prefix.
        for (path, seen) in [
            ("/echo/a%20b?x=1", "/echo/a%20b"),
            ("/v1/config", "/v1/config"),
            ("/", "/"),
        ] {
            let res = on_host(&app, &host, path)
                .header(header::COOKIE, &cookie)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200, "{path}");
            let echo: Value = res.json().await.unwrap();
            assert_eq!(echo["path"], seen, "{path}");
            let h = &echo["headers"];
            assert_eq!(
                h["host"],
                host.as_str(),
                "Streamlit and Jupyter compare Origin with Host"
            );
            assert_eq!(h["x-forwarded-host"], host.as_str());
            assert!(h.get("x-forwarded-prefix").is_none(), "{h}");
        }
        // An address of the earlier /apps/{id}/ form on its origin moves to the root.
        let res = on_host(&app, &host, &format!("/apps/{id}/echo?x=1"))
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(res.headers()[header::LOCATION], "/echo?x=1");

        // Its cookie opens no other app's origin, the bare apps host serves no app, and the
        // console's host serves none either.
        let res = on_host(&app, &other_host, "/echo")
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "another app's origin");
        for (h, path) in [("apps.localhost:7777", format!("/apps/{id}/echo"))] {
            let res = on_host(&app, h, &path)
                .header(header::COOKIE, &cookie)
                .bearer_auth(&team.dev_token)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::NOT_FOUND, "{h}{path}");
        }
        let res = get_with_cookie(&app, &format!("/apps/{id}/echo"), &cookie).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "the console's host");

        // A page of an app that does not answer gets the waiting page, which tries again; a
        // program gets the error.
        db::insights::set_observed(&app.state.db, &id, "stopped".parse().unwrap(), None, None, None)
            .await
            .unwrap();
        let res = on_host(&app, &host, "/")
            .header(header::COOKIE, &cookie)
            .header("sec-fetch-mode", "navigate")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], "2");
        let page = res.text().await.unwrap();
        assert!(page.contains("This app is not running"), "{page}");
        assert!(page.contains(r#"http-equiv="refresh""#), "{page}");
        let res = on_host(&app, &host, "/echo")
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "app_not_running");
    }
}
