//! The app proxy's defences (issue 12, findings 3, 6 and 8): no cluster app is served without an
//! apps origin of its own, requests that change an app must come from that app's own page, the
//! app ticket opens an app once (on every replica), the app cookie ends with the session it was
//! issued to, and no answer sends the browser to another site.

use reqwest::{Method, StatusCode, header};
use serde_json::Value;
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest as _};

use crate::{
    helpers::{InsightSeed, Team, TestApp, apps, apps_with, spawn_app_with},
    proxy::{no_redirects, on_host, open_on, path_of, running_app, upstream},
};

/// An origin per app, as `dev/up.sh` configures it.
const PER_APP: &str = "http://*.apps.localhost:7777";

fn per_app(s: &mut ludis_api::Settings) {
    s.apps_origin = PER_APP.parse().unwrap();
}

/// A team of `name` and a running app of its developer on `upstream`: (team, app id).
async fn team_with_app(app: &TestApp, name: &str, upstream: &str) -> (Team, String) {
    let team = app.org_with_admin_and_dev(name).await;
    let id = running_app(app, &team.org, &team.dev, upstream).await;
    (team, id)
}

fn host_of(id: &str) -> String {
    format!("{id}.apps.localhost:7777")
}

fn origin_of(id: &str) -> String {
    format!("http://{}", host_of(id))
}

/// An external app of the team's developer, and what `GET /v1/applications/{id}` says of it.
async fn external_app(app: &TestApp, team: &Team) -> (String, Value) {
    let id = app
        .insight(&team.org, Some(&team.dev), InsightSeed::external("Elsewhere"))
        .await;
    let (s, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    (id, b)
}

/// The `open_url` the API gives `token`'s session for app `id`.
async fn open_url(app: &TestApp, token: &str, id: &str) -> String {
    let (s, b) = app.get(&format!("/v1/applications/{id}"), token).await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    b["open_url"]
        .as_str()
        .unwrap_or_else(|| panic!("{}: no open_url in {b}", app.kind))
        .to_owned()
}

/// Opens app `id` on its own origin for `token`'s session; returns the `ludis_app=…` pair.
async fn cookie_for(app: &TestApp, token: &str, id: &str) -> String {
    let url = open_url(app, token, id).await;
    let set_cookie = open_on(app, &host_of(id), &url, Some("iframe")).await;
    set_cookie.split(';').next().unwrap().to_owned()
}

/// A request to app `id` at the root of its own origin, with the app cookie and an `Origin` (or
/// none).
fn to_app(
    app: &TestApp,
    method: Method,
    id: &str,
    cookie: &str,
    origin: Option<&str>,
) -> reqwest::RequestBuilder {
    let mut req = no_redirects()
        .request(method, app.url("/echo"))
        .header(header::HOST, host_of(id))
        .header(header::COOKIE, cookie);
    if let Some(o) = origin {
        req = req.header(header::ORIGIN, o);
    }
    req
}

/// The status of a websocket upgrade to app `id` with the app cookie and an `Origin` (or none).
async fn upgrade(app: &TestApp, id: &str, cookie: &str, origin: Option<&str>) -> StatusCode {
    let url = format!("{}/ws", app.address.replace("http://", "ws://"));
    let mut request = url.as_str().into_client_request().unwrap();
    let headers = request.headers_mut();
    headers.insert(header::HOST, host_of(id).parse().unwrap());
    headers.insert(header::COOKIE, cookie.parse().unwrap());
    if let Some(o) = origin {
        headers.insert(header::ORIGIN, o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut socket, response)) => {
            socket.close(None).await.ok();
            response.status()
        }
        Err(tungstenite::Error::Http(res)) => res.status(),
        Err(e) => panic!("{}: {e}", app.kind),
    }
}

const UNSAFE: [Method; 4] = [Method::POST, Method::PUT, Method::PATCH, Method::DELETE];

#[tokio::test]
async fn without_an_apps_origin_cluster_apps_are_not_served() {
    let upstream = upstream().await;
    // The defaults: no LUDIS_APPS_ORIGIN, and apps on the console's origin not allowed.
    for app in apps().await {
        let (team, id) = team_with_app(&app, "NoAppsOrigin", &upstream).await;
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &team.dev_token).await;
        assert_eq!(s, 200, "{}: {b}", app.kind);
        assert_eq!(b["open_url"], Value::Null, "{}: {b}", app.kind);
        let why = b["open_error"].as_str().unwrap_or_default().to_owned();
        assert!(
            why.contains("LUDIS_APPS_ORIGIN"),
            "{}: the app page says why: {b}",
            app.kind
        );

        // The proxy refuses too, with the same message, whatever the credential.
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/echo")))
            .bearer_auth(&team.dev_token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "apps_origin_missing");
        assert_eq!(body["message"], why.as_str());

        // An external app still opens: the console frames its URL itself.
        let (_, b) = external_app(&app, &team).await;
        assert_eq!(b["open_url"], "https://example.com/app");
        assert_eq!(b["open_error"], Value::Null);
    }
}

#[tokio::test]
async fn an_apps_page_cannot_drive_another_app() {
    let upstream = upstream().await;
    for app in apps_with(per_app).await {
        let k = app.kind;
        let (team, a) = team_with_app(&app, "Origins", &upstream).await;
        let b = running_app(&app, &team.org, &team.dev, &upstream).await;
        let cookie = cookie_for(&app, &team.dev_token, &b).await;

        // B's own page changes B and opens its websockets.
        for method in UNSAFE {
            let res = to_app(&app, method.clone(), &b, &cookie, Some(&origin_of(&b)))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200, "{k} {method}");
            let echo: Value = res.json().await.unwrap();
            assert_eq!(echo["method"], method.as_str());
        }
        assert_eq!(
            upgrade(&app, &b, &cookie, Some(&origin_of(&b))).await,
            StatusCode::SWITCHING_PROTOCOLS,
            "{k}"
        );

        // A's page, another site, the console, an opaque origin, or none at all: refused before
        // anything reaches B.
        for origin in [
            Some(origin_of(&a)),
            Some("http://evil.example".to_owned()),
            Some(app.address.clone()),
            Some("null".to_owned()),
            Some(origin_of(&b).replace("7777", "7778")),
            None,
        ] {
            for method in UNSAFE {
                let res = to_app(&app, method.clone(), &b, &cookie, origin.as_deref())
                    .send()
                    .await
                    .unwrap();
                assert_eq!(
                    res.status(),
                    StatusCode::FORBIDDEN,
                    "{k} {method} from {origin:?}"
                );
                let body: Value = res.json().await.unwrap();
                assert_eq!(body["code"], "foreign_origin", "{k}: {body}");
            }
            assert_eq!(
                upgrade(&app, &b, &cookie, origin.as_deref()).await,
                StatusCode::FORBIDDEN,
                "{k}: websocket from {origin:?}"
            );
        }

        // Reading is not driving: links and reloads carry no Origin.
        for method in [Method::GET, Method::HEAD] {
            let res = to_app(&app, method.clone(), &b, &cookie, None)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200, "{k} {method}");
        }
        // Programs sign in with a header, not the cookie, and send no Origin.
        let res = no_redirects()
            .post(app.url("/echo"))
            .header(header::HOST, host_of(&b))
            .bearer_auth(&team.dev_token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{k}");
    }
}

#[tokio::test]
async fn a_ticket_opens_the_app_once_on_every_replica() {
    let upstream = upstream().await;
    for app in apps_with(per_app).await {
        let k = app.kind;
        let (team, id) = team_with_app(&app, "Tickets", &upstream).await;
        // A second API replica: the same database and keys.
        let settings = (*app.state.settings).clone();
        let replica = spawn_app_with(move |_| settings).await;

        let url = open_url(&app, &team.dev_token, &id).await;
        let path = path_of(&url);
        let res = on_host(&app, &host_of(&id), path).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{k}: the first use");
        // Used: refused here and on the other replica.
        for server in [&app, &replica] {
            let res = on_host(server, &host_of(&id), path).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{k}: a used ticket");
            assert!(res.headers().get(header::SET_COOKIE).is_none());
            let body: Value = res.json().await.unwrap();
            assert_eq!(
                body["message"],
                "This link has expired. Open the application again from Ludis."
            );
        }
        // A new ticket opens it on either replica.
        let url = open_url(&app, &team.dev_token, &id).await;
        let res = on_host(&replica, &host_of(&id), path_of(&url))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{k}");
    }
}

#[tokio::test]
async fn the_app_cookie_ends_with_its_session() {
    let upstream = upstream().await;
    for app in apps_with(per_app).await {
        let k = app.kind;
        let (team, id) = team_with_app(&app, "Sessions", &upstream).await;
        let (first, _) = app.login("dev@sessions.example", "dev-pass").await;
        let (second, _) = app.login("dev@sessions.example", "dev-pass").await;
        let (c1, c2) = (
            cookie_for(&app, &first, &id).await,
            cookie_for(&app, &second, &id).await,
        );
        let status = |cookie: String| {
            let app = &app;
            let id = id.clone();
            async move {
                to_app(app, Method::GET, &id, &cookie, None)
                    .send()
                    .await
                    .unwrap()
                    .status()
            }
        };
        assert_eq!(status(c1.clone()).await, 200, "{k}");
        assert_eq!(status(c2.clone()).await, 200, "{k}");

        // Signing out ends that session's app cookie, and only that one.
        let (s, b) = app
            .post("/v1/auth/logout", Some(&first), serde_json::json!({}))
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(status(c1).await, StatusCode::UNAUTHORIZED, "{k}: signed out");
        assert_eq!(status(c2.clone()).await, 200, "{k}");

        // A password change from a third session signs the others out, app cookies included.
        let (s, b) = app
            .put(
                "/v1/auth/changepassword",
                &team.dev_token,
                serde_json::json!({"currentPassword": "dev-pass", "newPassword": "new-pass-1",
                    "confirmPassword": "new-pass-1"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(
            status(c2).await,
            StatusCode::UNAUTHORIZED,
            "{k}: password changed"
        );
        let c3 = cookie_for(&app, &team.dev_token, &id).await;
        assert_eq!(status(c3).await, 200, "{k}: the session that changed it goes on");
    }
}

#[tokio::test]
async fn no_answer_sends_the_browser_to_another_site() {
    let upstream = upstream().await;
    for app in apps_with(per_app).await {
        let k = app.kind;
        let (team, id) = team_with_app(&app, "Redirects", &upstream).await;

        // An external app: the console frames its URL itself; its proxy path sends nobody there.
        let (external, b) = external_app(&app, &team).await;
        assert_eq!(b["open_url"], "https://example.com/app", "{k}");
        let res = on_host(&app, &host_of(&external), "/")
            .bearer_auth(&team.dev_token)
            .send()
            .await
            .unwrap();
        assert!(
            !res.status().is_redirection() && res.headers().get(header::LOCATION).is_none(),
            "{k}: {} {:?}",
            res.status(),
            res.headers().get(header::LOCATION)
        );

        // The proxy's own redirects stay on the app's origin, whatever the request says.
        let url = open_url(&app, &team.dev_token, &id).await;
        let ticket = &url[url.find("ticket=").unwrap()..];
        for path in [
            format!("/apps/{id}"),
            format!("/apps/{id}?next=//evil.example/"),
            format!("/apps/{id}?//evil.example"),
            format!("/apps/{id}//evil.example/?{ticket}"),
        ] {
            let res = on_host(&app, &host_of(&id), &path)
                .bearer_auth(&team.dev_token)
                .send()
                .await
                .unwrap();
            if let Some(location) = res.headers().get(header::LOCATION) {
                let location = location.to_str().unwrap();
                assert!(
                    location.starts_with('/') && !location.starts_with("//"),
                    "{k}: {path} → {location}"
                );
            }
        }
    }
}

/// The `ticket=` value of an `open_url`.
fn ticket_of(url: &str) -> String {
    url[url.find("ticket=").unwrap() + "ticket=".len()..].to_owned()
}

#[tokio::test]
async fn tickets_app_cookies_and_access_tokens_are_never_taken_for_one_another() {
    let upstream = upstream().await;
    for app in apps_with(per_app).await {
        let k = app.kind;
        let (team, a) = team_with_app(&app, "TokenKinds", &upstream).await;
        let b = running_app(&app, &team.org, &team.dev, &upstream).await;
        let access = team.dev_token.clone();
        let ticket = ticket_of(&open_url(&app, &access, &a).await);
        let cookie = cookie_for(&app, &access, &a).await;
        let cookie_value = cookie.strip_prefix("ludis_app=").unwrap().to_owned();

        // Neither a ticket nor an app cookie is an access token, on the API or on the app.
        for (what, token) in [("ticket", &ticket), ("app cookie", &cookie_value)] {
            let (s, body) = app.get(&format!("/v1/applications/{a}"), token).await;
            assert_eq!(
                s,
                StatusCode::UNAUTHORIZED,
                "{k}: a {what} as a bearer token: {body}"
            );
            let res = on_host(&app, &host_of(&a), "/echo")
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
            assert_eq!(
                res.status(),
                StatusCode::UNAUTHORIZED,
                "{k}: a {what} as a bearer token on the app"
            );
        }
        // Neither an access token nor a ticket is an app cookie.
        for (what, token) in [("access token", &access), ("ticket", &ticket)] {
            let res = to_app(&app, Method::GET, &a, &format!("ludis_app={token}"), None)
                .send()
                .await
                .unwrap();
            assert_eq!(
                res.status(),
                StatusCode::UNAUTHORIZED,
                "{k}: an {what} as the app cookie"
            );
        }
        // Neither an access token nor an app cookie is a ticket.
        for (what, token) in [("access token", &access), ("app cookie", &cookie_value)] {
            let res = on_host(&app, &host_of(&a), &format!("/?ticket={token}"))
                .send()
                .await
                .unwrap();
            assert_eq!(
                res.status(),
                StatusCode::UNAUTHORIZED,
                "{k}: an {what} as a ticket"
            );
            assert!(res.headers().get(header::SET_COOKIE).is_none(), "{k}: {what}");
        }

        // App A's ticket and cookie do not open app B (B's origin serves only B, at its root;
        // the earlier /apps/{b}/ form only moves there).
        for path in [
            format!("/?ticket={ticket}"),
            format!("/apps/{b}/?ticket={ticket}"),
        ] {
            let res = on_host(&app, &host_of(&b), &path).send().await.unwrap();
            assert_ne!(
                res.status(),
                StatusCode::SEE_OTHER,
                "{k}: A's ticket on B ({path})"
            );
            assert!(res.headers().get(header::SET_COOKIE).is_none(), "{k}: {path}");
        }
        let res = to_app(&app, Method::GET, &b, &cookie, None).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{k}: A's cookie on B");

        // A's ticket still opens A, once: a replay fails.
        let path = format!("/?ticket={ticket}");
        let res = on_host(&app, &host_of(&a), &path).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{k}: A's ticket on A");
        let res = on_host(&app, &host_of(&a), &path).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{k}: A's ticket again");
    }
}
