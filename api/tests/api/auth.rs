//! Sign-in, tokens, password change and 2FA, on SQLite and PostgreSQL.

use ludis_api::{
    auth::jwt::{self, Claims, NoExtra, TokenKind},
    db,
};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, apps, login_body, totp_code};

async fn setup(app: &TestApp) -> (String, String) {
    let org = app.org("Acme", 10).await;
    let uid = app
        .user("ann@acme.example", "ann-password", "developer", &org)
        .await;
    (org, uid)
}

#[tokio::test]
async fn login_issues_tokens_and_rejects_bad_credentials() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let k = app.kind;

        let (s, b) = app.post("/v1/auth/login", None, login_body("", "")).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (400, Some("Email and password are required")),
            "{k}"
        );
        assert_eq!(b["success"], false);
        assert_eq!(b["code"], "credentials_required");

        for (email, password) in [
            ("ann@acme.example", "wrong"),
            ("nobody@acme.example", "ann-password"),
        ] {
            let (s, b) = app
                .post("/v1/auth/login", None, login_body(email, password))
                .await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (401, Some("Invalid email or password")),
                "{k}"
            );
        }

        // E-mail is matched case-insensitively.
        let (s, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body(" Ann@ACME.example ", "ann-password"),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["success"], true);
        assert_eq!(b["message"], "Signed in successfully!");
        assert_eq!(b["verified_2fa"], true);
        assert_eq!(b["user"]["uid"], uid.as_str());
        assert_eq!(b["user"]["email"], "ann@acme.example");
        assert!(b["refresh_token"].as_str().unwrap().len() > 30);
        let text = b.to_string();
        assert!(!text.contains("argon2"), "no password hash in the answer: {text}");

        let token = b["token"].as_str().unwrap();
        let (s, b) = app.get(&format!("/v1/users/{uid}"), token).await;
        assert_eq!(s, 200, "{k}: {b}");
        let (s, b) = app
            .call(Method::GET, &format!("/v1/users/{uid}"), None, None)
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Authorization token is missing")),
            "{k}"
        );
        let (s, b) = app.get(&format!("/v1/users/{uid}"), "not.a.token").await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Invalid token")),
            "{k}"
        );
    }
}

#[tokio::test]
async fn an_inactive_account_cannot_sign_in() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        sqlx::query("UPDATE users SET status = 'inactive' WHERE uid = $1")
            .bind(&uid)
            .execute(&app.state.db)
            .await
            .unwrap();
        let (s, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Your account is inactive")),
            "{}",
            app.kind
        );
    }
}

#[tokio::test]
async fn password_guessing_is_throttled_per_account() {
    for app in apps().await {
        let (org, _) = setup(&app).await;
        app.user("bob@acme.example", "bob-password", "developer", &org)
            .await;
        for _ in 0..5 {
            let (s, _) = app
                .post("/v1/auth/login", None, login_body("ann@acme.example", "guess"))
                .await;
            assert_eq!(s, 401, "{}", app.kind);
        }
        // Even the right password waits now.
        let res = app
            .http
            .post(app.url("/v1/auth/login"))
            .json(&login_body("ann@acme.example", "ann-password"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 429, "{}", app.kind);
        let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((890..=900).contains(&retry), "{retry}");
        let b: Value = res.json().await.unwrap();
        assert_eq!(b["message"], "Too many failed attempts. Try again in 15 minutes.");
        assert_eq!(b["code"], "too_many_attempts");
        // Another account from the same address is not locked.
        app.login("bob@acme.example", "bob-password").await;
    }
}

#[tokio::test]
async fn password_guessing_is_throttled_per_address() {
    for app in crate::helpers::apps_with(|s| s.throttle_address_failures = 3).await {
        let (org, _) = setup(&app).await;
        app.user("bob@acme.example", "bob-password", "developer", &org)
            .await;
        for email in ["x1@acme.example", "x2@acme.example", "x3@acme.example"] {
            let (s, _) = app.post("/v1/auth/login", None, login_body(email, "guess")).await;
            assert_eq!(s, 401);
        }
        let (s, _) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("bob@acme.example", "bob-password"),
            )
            .await;
        assert_eq!(s, 429, "{}: the address is locked", app.kind);
    }
}

/// A sign-in attempt of `email` from the local address `from` (all of 127.0.0.0/8 is this
/// machine), with `X-Forwarded-For: forwarded` when given; the status.
async fn sign_in_from(
    app: &TestApp,
    from: &str,
    forwarded: Option<&str>,
    email: &str,
    password: &str,
) -> u16 {
    let client = reqwest::Client::builder()
        .local_address(from.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let mut req = client
        .post(app.url("/v1/auth/login"))
        .json(&login_body(email, password));
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    req.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn behind_a_trusted_proxy_one_client_locks_out_only_itself() {
    // The proxy is 127.0.0.1; clients reach it from 127.0.0.2 and 127.0.0.3.
    for app in crate::helpers::apps_with(|s| {
        s.throttle_address_failures = 3;
        s.trusted_proxies = "127.0.0.1/32".parse().unwrap();
    })
    .await
    {
        let (org, _) = setup(&app).await;
        app.user("bob@acme.example", "bob-password", "developer", &org)
            .await;
        // One client guesses through the proxy until its address is locked …
        for email in ["x1@acme.example", "x2@acme.example", "x3@acme.example"] {
            assert_eq!(
                sign_in_from(&app, "127.0.0.1", Some("203.0.113.9"), email, "guess").await,
                401
            );
        }
        assert_eq!(
            sign_in_from(
                &app,
                "127.0.0.1",
                Some("203.0.113.9"),
                "bob@acme.example",
                "bob-password"
            )
            .await,
            429,
            "{}: the guessing client is locked",
            app.kind
        );
        // … and another client through the same proxy signs in.
        assert_eq!(
            sign_in_from(
                &app,
                "127.0.0.1",
                Some("198.51.100.7"),
                "bob@acme.example",
                "bob-password"
            )
            .await,
            200,
            "{}: another client behind the proxy is not",
            app.kind
        );
        // A client that is not the proxy cannot choose its address: its header is ignored.
        for (i, email) in ["y1@acme.example", "y2@acme.example", "y3@acme.example"]
            .iter()
            .enumerate()
        {
            let forged = format!("192.0.2.{}", i + 10);
            assert_eq!(
                sign_in_from(&app, "127.0.0.2", Some(&forged), email, "guess").await,
                401
            );
        }
        assert_eq!(
            sign_in_from(
                &app,
                "127.0.0.2",
                Some("192.0.2.200"),
                "bob@acme.example",
                "bob-password"
            )
            .await,
            429,
            "{}: forged addresses do not escape the lock",
            app.kind
        );
        assert_eq!(
            sign_in_from(&app, "127.0.0.3", None, "bob@acme.example", "bob-password").await,
            200
        );
    }
    // Without trusted proxies nobody's header counts: rotating it escapes nothing.
    for app in crate::helpers::apps_with(|s| s.throttle_address_failures = 3).await {
        let (org, _) = setup(&app).await;
        app.user("bob@acme.example", "bob-password", "developer", &org)
            .await;
        for (email, forged) in [
            ("x1@acme.example", "192.0.2.1"),
            ("x2@acme.example", "192.0.2.2"),
            ("x3@acme.example", "192.0.2.3"),
        ] {
            assert_eq!(
                sign_in_from(&app, "127.0.0.4", Some(forged), email, "guess").await,
                401
            );
        }
        assert_eq!(
            sign_in_from(
                &app,
                "127.0.0.4",
                Some("192.0.2.4"),
                "bob@acme.example",
                "bob-password"
            )
            .await,
            429,
            "{}",
            app.kind
        );
    }
}

#[tokio::test]
async fn a_successful_sign_in_resets_the_account_count() {
    for app in apps().await {
        setup(&app).await;
        for round in 0..2 {
            for _ in 0..4 {
                let (s, _) = app
                    .post("/v1/auth/login", None, login_body("ann@acme.example", "guess"))
                    .await;
                assert_eq!(s, 401, "{} round {round}", app.kind);
            }
            app.login("ann@acme.example", "ann-password").await;
        }
    }
}

#[tokio::test]
async fn refresh_rotates_and_a_spent_token_revokes_its_family() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let k = app.kind;
        let (access1, refresh1) = app.login("ann@acme.example", "ann-password").await;

        // The refresh token may come in a header (spec) or the body.
        let res = app
            .http
            .post(app.url("/v1/auth/refreshtoken"))
            .header("refresh_token", &refresh1)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{k}");
        let b: Value = res.json().await.unwrap();
        let access2 = b["token"].as_str().unwrap().to_owned();
        let refresh2 = b["refresh_token"].as_str().unwrap().to_owned();
        assert_ne!(refresh1, refresh2);
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &access2).await.0, 200);

        // Reusing the spent token revokes the whole family…
        let (s, b) = app
            .post("/v1/auth/refreshtoken", None, json!({"refresh_token": refresh1}))
            .await;
        assert_eq!(s, 401, "{k}");
        assert_eq!(
            b["message"],
            "Refresh token reuse detected; the session has been revoked. Please sign in again."
        );
        assert_eq!(b["code"], "refresh_token_reused");
        // … so the newest refresh token and both access tokens stop working.
        let (s, b) = app
            .post("/v1/auth/refreshtoken", None, json!({"refresh_token": refresh2}))
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (401, Some("session_revoked")),
            "{k}"
        );
        for t in [&access1, &access2] {
            let (s, b) = app.get(&format!("/v1/users/{uid}"), t).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (401, Some("Session has been revoked. Please sign in again."))
            );
        }
        // Another session is untouched.
        let (access3, _) = app.login("ann@acme.example", "ann-password").await;
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &access3).await.0, 200);

        let (s, b) = app
            .post("/v1/auth/refreshtoken", None, json!({"refresh_token": "made-up"}))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Invalid refresh token"))
        );
        let (s, b) = app.post("/v1/auth/refreshtoken", None, json!({})).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Refresh token is missing"))
        );
    }
}

#[tokio::test]
async fn an_expired_refresh_token_is_refused() {
    for app in crate::helpers::apps_with(|s| s.refresh_idle_ttl = 0).await {
        setup(&app).await;
        let (_, refresh) = app.login("ann@acme.example", "ann-password").await;
        let (s, b) = app
            .post("/v1/auth/refreshtoken", None, json!({"refresh_token": refresh}))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Refresh token expired. Please sign in again."))
        );
    }
}

#[tokio::test]
async fn an_expired_access_token_answers_jwt_expired() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let (access, _) = app.login("ann@acme.example", "ann-password").await;
        let keys = jwt::Keys::new(app.state.settings.jwt_secret.expose());
        let live: Claims = keys.decode(&access, &[TokenKind::Access]).unwrap();
        let expired = keys.encode(&Claims {
            iat: db::now() - 1000,
            exp: db::now() - 1,
            ..live
        });
        let (s, b) = app.get(&format!("/v1/users/{uid}"), &expired).await;
        assert_eq!(s, 401, "{}", app.kind);
        assert_eq!(b["message"], "jwt expired");
        assert_eq!(b["code"], "jwt_expired");
        // A token signed with another key is not "expired", it is invalid.
        let forged = jwt::Keys::new("another key that is long enough......")
            .encode(&keys.decode::<NoExtra>(&access, &[TokenKind::Access]).unwrap());
        let (s, b) = app.get(&format!("/v1/users/{uid}"), &forged).await;
        assert_eq!((s.as_u16(), b["message"].as_str()), (401, Some("Invalid token")));
    }
}

#[tokio::test]
async fn logout_revokes_the_session() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let (access, refresh) = app.login("ann@acme.example", "ann-password").await;
        let (s, b) = app.post("/v1/auth/logout", Some(&access), json!({})).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Signed out")),
            "{}",
            app.kind
        );
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &access).await.0, 401);
        let (s, b) = app
            .post("/v1/auth/refreshtoken", None, json!({"refresh_token": refresh}))
            .await;
        assert_eq!((s.as_u16(), b["code"].as_str()), (401, Some("session_revoked")));

        // With only the refresh token.
        let (access, refresh) = app.login("ann@acme.example", "ann-password").await;
        let (s, _) = app
            .post("/v1/auth/logout", None, json!({"refresh_token": refresh}))
            .await;
        assert_eq!(s, 200);
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &access).await.0, 401);

        let (s, b) = app.post("/v1/auth/logout", None, json!({})).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Authorization token is missing"))
        );
    }
}

#[tokio::test]
async fn change_password_checks_fields_and_signs_out_other_sessions() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let k = app.kind;
        let (other, _) = app.login("ann@acme.example", "ann-password").await;
        let (token, _) = app.login("ann@acme.example", "ann-password").await;
        let cases = [
            (
                json!({"currentPassword": "ann-password", "newPassword": "", "confirmPassword": ""}),
                "All password fields are required",
            ),
            (
                json!({"currentPassword": "ann-password", "newPassword": "12345", "confirmPassword": "12345"}),
                "Password must be at least 6 characters long",
            ),
            (
                json!({"currentPassword": "ann-password", "newPassword": "123456", "confirmPassword": "1234567"}),
                "New password and confirm password do not match",
            ),
            (
                json!({"currentPassword": "nope", "newPassword": "123456", "confirmPassword": "123456"}),
                "Current password is incorrect",
            ),
        ];
        for (body, message) in cases {
            let (s, b) = app.put("/v1/auth/changepassword", &token, body).await;
            assert_eq!((s.as_u16(), b["message"].as_str()), (400, Some(message)), "{k}");
        }
        let (s, b) = app
            .put(
                "/v1/auth/changepassword",
                &token,
                json!({"currentPassword": "ann-password", "newPassword": "new-secret", "confirmPassword": "new-secret"}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Password Updated")),
            "{k}"
        );
        assert_eq!(
            app.get(&format!("/v1/users/{uid}"), &token).await.0,
            200,
            "this session stays"
        );
        assert_eq!(
            app.get(&format!("/v1/users/{uid}"), &other).await.0,
            401,
            "other sessions end"
        );
        let (s, _) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        assert_eq!(s, 401);
        app.login("ann@acme.example", "new-secret").await;
    }
}

#[tokio::test]
async fn current_password_guessing_is_throttled() {
    for app in apps().await {
        setup(&app).await;
        let (token, _) = app.login("ann@acme.example", "ann-password").await;
        let body = |current: &str| json!({"currentPassword": current, "newPassword": "123456", "confirmPassword": "123456"});
        for _ in 0..5 {
            assert_eq!(
                app.put("/v1/auth/changepassword", &token, body("guess")).await.0,
                400
            );
        }
        assert_eq!(
            app.put("/v1/auth/changepassword", &token, body("ann-password"))
                .await
                .0,
            429,
            "{}",
            app.kind
        );
    }
}

/// Enables 2FA for the holder of `token`; returns the secret.
pub async fn enrol(app: &TestApp, token: &str, uid: &str) -> String {
    let (s, b) = app
        .post(
            &format!("/v1/auth/enable2fa/{uid}"),
            Some(token),
            json!({"enabled_2fa": true}),
        )
        .await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    assert!(
        b["secret_2fa_qr"]
            .as_str()
            .unwrap()
            .starts_with("data:image/svg+xml;base64,")
    );
    let secret = b["secret"].as_str().unwrap().to_owned();
    assert!(
        b["otpauth_url"]
            .as_str()
            .unwrap()
            .contains(&format!("secret={secret}"))
    );
    secret
}

#[tokio::test]
async fn totp_enrolment_sign_in_and_replay() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let k = app.kind;
        let (token, _) = app.login("ann@acme.example", "ann-password").await;
        let secret = enrol(&app, &token, &uid).await;
        let now = db::now();

        let (s, b) = app
            .post("/v1/auth/verify2fa", Some(&token), json!({"token": ""}))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (400, Some("2FA code is required")),
            "{k}"
        );
        let wrong = if totp_code(&secret, now) == "000000" {
            "111111"
        } else {
            "000000"
        };
        let (s, b) = app
            .post(
                "/v1/auth/verify2fa",
                Some(&token),
                json!({"secret": secret, "token": wrong}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Invalid 2FA Code")),
            "{k}"
        );

        let code = totp_code(&secret, now);
        let (s, b) = app
            .post(
                "/v1/auth/verify2fa",
                Some(&token),
                json!({"secret": secret, "token": code}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["message"], "2FA Verified");
        assert_eq!(b["verified_2fa"], true);
        assert_eq!(b["user"]["enabled_2fa"], true);

        // Enabling again is refused while it is on.
        let (s, b) = app
            .post(
                &format!("/v1/auth/enable2fa/{uid}"),
                Some(&token),
                json!({"enabled_2fa": true}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (409, Some("Two-factor authentication is already enabled"))
        );

        // Sign-in now stops at a pending token that opens only verify2fa.
        let (s, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        assert_eq!(s, 200);
        assert_eq!(b["verified_2fa"], false);
        assert_eq!(b["refresh_token"], Value::Null);
        let pending = b["token"].as_str().unwrap().to_owned();
        let (s, b) = app.get(&format!("/v1/users/{uid}"), &pending).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Two-factor verification is required"))
        );
        let (s, _) = app
            .post(
                &format!("/v1/auth/enable2fa/{uid}"),
                Some(&pending),
                json!({"enabled_2fa": false}),
            )
            .await;
        assert_eq!(s, 401, "a pending token cannot switch 2FA off");

        // The code already used is not accepted twice.
        let (s, b) = app
            .post("/v1/auth/verify2fa", Some(&pending), json!({"token": code}))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Invalid 2FA Code")),
            "{k}: replay"
        );
        // The next step's code is.
        let next = totp_code(&secret, now + 30);
        let (s, b) = app
            .post("/v1/auth/verify2fa", Some(&pending), json!({"token": next}))
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        let full = b["token"].as_str().unwrap().to_owned();
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &full).await.0, 200);

        // Switching off works for the user (the organization does not require it), with their
        // password (issue 12: `auth_security::switching_2fa_off_needs_the_password_or_a_current_code`).
        let (s, b) = app
            .post(
                &format!("/v1/auth/enable2fa/{uid}"),
                Some(&full),
                json!({"enabled_2fa": false, "password": "ann-password"}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("2FA Status Updated Successfully!"))
        );
        app.login("ann@acme.example", "ann-password").await;
    }
}

#[tokio::test]
async fn totp_guessing_is_throttled() {
    for app in apps().await {
        let (_, uid) = setup(&app).await;
        let (token, _) = app.login("ann@acme.example", "ann-password").await;
        let secret = enrol(&app, &token, &uid).await;
        let now = db::now();
        let right = totp_code(&secret, now);
        let wrong = if right == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            assert_eq!(
                app.post("/v1/auth/verify2fa", Some(&token), json!({"token": wrong}))
                    .await
                    .0,
                401
            );
        }
        let (s, b) = app
            .post("/v1/auth/verify2fa", Some(&token), json!({"token": right}))
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (429, Some("too_many_attempts")),
            "{}",
            app.kind
        );
    }
}

#[tokio::test]
async fn an_organization_that_requires_2fa_forces_enrolment() {
    for app in apps().await {
        let (org, uid) = setup(&app).await;
        let k = app.kind;
        let (before, _) = app.login("ann@acme.example", "ann-password").await;
        sqlx::query("UPDATE organizations SET is_2fa_required = 1 WHERE id = $1")
            .bind(&org)
            .execute(&app.state.db)
            .await
            .unwrap();
        // A session from before the requirement stops working for normal calls.
        let (s, b) = app.get(&format!("/v1/users/{uid}"), &before).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (
                403,
                Some("Your organization requires two-factor authentication. Enable it to continue.")
            ),
            "{k}"
        );

        let (s, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        assert_eq!(s, 200);
        assert_eq!(b["requires_2fa_enrollment"], true);
        assert_eq!(b["user"]["is_2fa_required"], true);
        assert_eq!(b["refresh_token"], Value::Null);
        let enroll = b["token"].as_str().unwrap().to_owned();
        let claims: Claims = jwt::Keys::new(app.state.settings.jwt_secret.expose())
            .decode(&enroll, TokenKind::SIGN_IN)
            .unwrap();
        assert_eq!(claims.kind, TokenKind::TwoFactorEnroll);
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &enroll).await.0, 401);

        let secret = enrol(&app, &enroll, &uid).await;
        let (s, b) = app
            .post(
                "/v1/auth/verify2fa",
                Some(&enroll),
                json!({"secret": secret, "token": totp_code(&secret, db::now())}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        let full = b["token"].as_str().unwrap().to_owned();
        assert_eq!(app.get(&format!("/v1/users/{uid}"), &full).await.0, 200);

        let (s, b) = app
            .post(
                &format!("/v1/auth/enable2fa/{uid}"),
                Some(&full),
                json!({"enabled_2fa": false}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Your organization requires two-factor authentication")),
            "{k}"
        );
    }
}

#[tokio::test]
async fn bodies_are_limited_and_errors_are_json() {
    for app in apps().await {
        let big = "x".repeat(ludis_api::BODY_LIMIT + 10);
        let res = app
            .http
            .post(app.url("/v1/auth/login"))
            .header("content-type", "application/json")
            .body(format!("{{\"user\":{{\"email\":\"{big}\",\"password\":\"x\"}}}}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 413);
        let b: Value = res.json().await.unwrap();
        assert_eq!(b["message"], "The request body is too large (limit 1 MiB)");

        let res = app
            .http
            .post(app.url("/v1/auth/login"))
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400);
        let b: Value = res.json().await.unwrap();
        assert_eq!(b["code"], "invalid_body");
        assert_eq!(b["success"], false);

        let (s, b) = app.call(Method::GET, "/v1/no-such-route", None, None).await;
        assert_eq!((s.as_u16(), b["message"].as_str()), (404, Some("Not found")));
    }
}
