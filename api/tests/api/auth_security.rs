//! Regression tests of the identity findings of the security review (issue 12): nothing secret
//! before full sign-in, API keys bound to full sessions and to the organization's 2FA rule and
//! revoked with the password, atomic sign-in and 2FA throttling, and re-authentication to switch
//! 2FA off. On SQLite and PostgreSQL.

use futures::future::join_all;
use ludis_api::db;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    auth::enrol,
    helpers::{TestApp, apps, login_body, totp_code},
};

/// Sends a request authenticated with an API key; returns status and JSON body.
async fn with_key(app: &TestApp, method: Method, path: &str, key: &str) -> (StatusCode, Value) {
    let res = app
        .http
        .request(method, app.url(path))
        .header("x-api-key", key)
        .json(&json!({}))
        .send()
        .await
        .expect("the request is sent");
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// A new API key for the holder of a full-session `token`.
async fn api_key(app: &TestApp, token: &str, uid: &str) -> String {
    let (s, b) = app
        .post(&format!("/v1/users/{uid}/api_key"), Some(token), json!({}))
        .await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    b["api_key"].as_str().unwrap().to_owned()
}

/// Enrols and confirms 2FA for the holder of `token` (a full session or an enrolment token);
/// returns the secret, the full session the confirmation starts and the code it spent.
async fn enable_2fa(app: &TestApp, token: &str, uid: &str) -> (String, String, String) {
    let secret = enrol(app, token, uid).await;
    let code = totp_code(&secret, db::now());
    let (s, b) = app
        .post(
            "/v1/auth/verify2fa",
            Some(token),
            json!({"secret": secret, "token": code}),
        )
        .await;
    assert_eq!(s, 200, "{}: {b}", app.kind);
    (secret, b["token"].as_str().unwrap().to_owned(), code)
}

/// Of 20 concurrent guesses, 5 were checked (401) and the other 15 refused unchecked (429).
fn assert_five_checked(k: &str, answers: &[(StatusCode, Value)]) {
    let checked = answers.iter().filter(|(s, _)| *s == 401).count();
    let throttled = answers.iter().filter(|(s, _)| *s == 429).count();
    assert_eq!(
        (checked, throttled),
        (5, 15),
        "{k}: {:?}",
        answers.iter().map(|(s, _)| s.as_u16()).collect::<Vec<_>>()
    );
}

/// A six-digit code that no step around now accepts.
fn wrong_code(secret: &str) -> String {
    let now = db::now();
    let valid: Vec<String> = [now - 30, now, now + 30]
        .iter()
        .map(|t| totp_code(secret, *t))
        .collect();
    (0..10)
        .map(|d| d.to_string().repeat(6))
        .find(|c| !valid.contains(c))
        .unwrap()
}

async fn require_2fa(app: &TestApp, org: &str) {
    sqlx::query("UPDATE organizations SET is_2fa_required = 1 WHERE id = $1")
        .bind(org)
        .execute(&app.state.db)
        .await
        .unwrap();
}

/// Finding 1: the answer to the password step carries no API key, git token or TOTP secret, both
/// for a user with 2FA and for one whose organization requires enrolment.
#[tokio::test]
async fn no_secret_is_answered_before_the_second_factor() {
    for app in apps().await {
        let k = app.kind;
        let org = app.org("Acme", 10).await;
        for (email, required) in [("ann@acme.example", false), ("bob@acme.example", true)] {
            let uid = app.user(email, "pass-word", "developer", &org).await;
            let (token, _) = app.login(email, "pass-word").await;
            let key = api_key(&app, &token, &uid).await;
            let (s, _) = app
                .put(
                    "/v1/git_detail",
                    &token,
                    json!({"git_username": "dee", "git_token": "ghp_very_secret"}),
                )
                .await;
            assert_eq!(s, 200);
            let secret = if required {
                require_2fa(&app, &org).await;
                None
            } else {
                Some(enable_2fa(&app, &token, &uid).await.0)
            };
            let (s, b) = app
                .post("/v1/auth/login", None, login_body(email, "pass-word"))
                .await;
            assert_eq!(s, 200, "{k}: {b}");
            assert_eq!(b["verified_2fa"], false, "{k}: {b}");
            assert_eq!(b["user"]["api_key"], Value::Null, "{k} {email}: {b}");
            let text = b.to_string();
            for leaked in [Some(key.as_str()), Some("ghp_very_secret"), secret.as_deref()]
                .into_iter()
                .flatten()
            {
                assert!(!text.contains(leaked), "{k} {email}: {leaked} in {text}");
            }
        }
    }
}

/// Finding 1: an API key is shown and made only for a full session: a request signed with the
/// key itself neither reads it back nor makes a new one.
#[tokio::test]
async fn an_api_key_is_shown_and_made_only_for_a_full_session() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let key = api_key(&app, &t.dev_token, &t.dev).await;
        let (s, b) = with_key(&app, Method::GET, &format!("/v1/users/{}", t.dev), &key).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["user"]["api_key"], Value::Null, "{k}: {b}");
        let (s, b) = with_key(&app, Method::GET, "/v1/users", &key).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert!(!b.to_string().contains(&key), "{k}: {b}");
        let (s, b) = with_key(&app, Method::POST, &format!("/v1/users/{}/api_key", t.dev), &key).await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (403, Some("full_session_required")),
            "{k}: {b}"
        );
        assert_eq!(
            b["message"],
            "This needs a signed-in session: an API key is not enough"
        );
        // The full session still sees it.
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &t.dev_token).await;
        assert_eq!(b["user"]["api_key"], key.as_str(), "{k}");
    }
}

/// Finding 1: an organization that requires 2FA refuses the API keys of users who have not
/// enrolled; enrolling makes the key usable again.
#[tokio::test]
async fn an_organization_that_requires_2fa_refuses_keys_of_users_without_it() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let key = api_key(&app, &t.dev_token, &t.dev).await;
        let path = format!("/v1/users/{}", t.dev);
        assert_eq!(with_key(&app, Method::GET, &path, &key).await.0, 200, "{k}");
        require_2fa(&app, &t.org).await;
        let (s, b) = with_key(&app, Method::GET, &path, &key).await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str(), b["message"].as_str()),
            (
                403,
                Some("two_factor_enrollment_required"),
                Some(
                    "Your organization requires two-factor authentication: API keys of users without it are refused. Sign in and enable it."
                )
            ),
            "{k}: {b}"
        );
        let (s, b) = app
            .post("/v1/auth/login", None, login_body("dev@acme.example", "dev-pass"))
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        enable_2fa(&app, b["token"].as_str().unwrap(), &t.dev).await;
        assert_eq!(with_key(&app, Method::GET, &path, &key).await.0, 200, "{k}");
    }
}

/// Finding 1: a password change or reset, a deactivation and an administrator's 2FA reset end the
/// API key as well as the sessions.
#[tokio::test]
async fn password_changes_deactivation_and_2fa_resets_revoke_the_api_key() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let me = format!("/v1/users/{}", t.dev);
        let mut password = "dev-pass".to_owned();

        // The user changes their password.
        let key = api_key(&app, &t.dev_token, &t.dev).await;
        let (s, b) = app
            .put(
                "/v1/auth/changepassword",
                &t.dev_token,
                json!({"currentPassword": password, "newPassword": "pass-two", "confirmPassword": "pass-two"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        password = "pass-two".into();
        let (s, b) = with_key(&app, Method::GET, &me, &key).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (401, Some("Invalid API key")),
            "{k}: a password change revokes the key"
        );

        // An administrator resets it.
        let (session, _) = app.login("dev@acme.example", &password).await;
        let key = api_key(&app, &session, &t.dev).await;
        let (s, _) = app
            .put(&me, &t.admin_token, json!({"user": {"password": "pass-three"}}))
            .await;
        assert_eq!(s, 200);
        password = "pass-three".into();
        assert_eq!(
            with_key(&app, Method::GET, &me, &key).await.0,
            401,
            "{k}: a password reset revokes the key"
        );

        // An administrator deactivates the account (and later reactivates it).
        let (session, _) = app.login("dev@acme.example", &password).await;
        let key = api_key(&app, &session, &t.dev).await;
        for status in ["inactive", "active"] {
            let (s, b) = app
                .put(&me, &t.admin_token, json!({"user": {"status": status}}))
                .await;
            assert_eq!(s, 200, "{k}: {b}");
        }
        assert_eq!(
            with_key(&app, Method::GET, &me, &key).await.0,
            401,
            "{k}: a deactivation revokes the key"
        );

        // An administrator switches the user's 2FA off.
        let (session, _) = app.login("dev@acme.example", &password).await;
        let (_, full, _) = enable_2fa(&app, &session, &t.dev).await;
        let key = api_key(&app, &full, &t.dev).await;
        let (s, b) = app
            .post(
                &format!("/v1/auth/enable2fa/{}", t.dev),
                Some(&t.admin_token),
                json!({"enabled_2fa": false, "password": "admin-pass"}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("2FA Status Updated Successfully!")),
            "{k}: {b}"
        );
        assert_eq!(
            with_key(&app, Method::GET, &me, &key).await.0,
            401,
            "{k}: a 2FA reset revokes the key"
        );
        let (s, b) = app.get(&me, &full).await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (401, Some("session_revoked")),
            "{k}: a 2FA reset ends the sessions"
        );
    }
}

/// Finding 2: the attempt is reserved before the password is checked, so concurrent guesses
/// cannot outrun the lock.
#[tokio::test]
async fn concurrent_wrong_passwords_are_checked_at_most_five_times() {
    for app in apps().await {
        let k = app.kind;
        let org = app.org("Acme", 10).await;
        app.user("ann@acme.example", "ann-password", "developer", &org)
            .await;
        let answers = join_all((0..20).map(|i| {
            app.post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", &format!("guess-{i}")),
            )
        }))
        .await;
        assert_five_checked(k, &answers);
        let (s, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (429, Some("too_many_attempts")),
            "{k}: the right password waits too"
        );
    }
}

/// Finding 2: the same for 2FA codes.
#[tokio::test]
async fn concurrent_wrong_2fa_codes_are_checked_at_most_five_times() {
    for app in apps().await {
        let k = app.kind;
        let org = app.org("Acme", 10).await;
        let uid = app
            .user("ann@acme.example", "ann-password", "developer", &org)
            .await;
        let (token, _) = app.login("ann@acme.example", "ann-password").await;
        let (secret, _, _) = enable_2fa(&app, &token, &uid).await;
        let (_, b) = app
            .post(
                "/v1/auth/login",
                None,
                login_body("ann@acme.example", "ann-password"),
            )
            .await;
        let pending = b["token"].as_str().unwrap().to_owned();
        let wrong = wrong_code(&secret);
        let answers = join_all(
            (0..20).map(|_| app.post("/v1/auth/verify2fa", Some(&pending), json!({"token": wrong}))),
        )
        .await;
        assert_five_checked(k, &answers);
        let (s, b) = app
            .post(
                "/v1/auth/verify2fa",
                Some(&pending),
                json!({"token": totp_code(&secret, db::now() + 30)}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (429, Some("too_many_attempts")),
            "{k}: the right code waits too"
        );
    }
}

/// Finding 8: switching 2FA off needs the caller's current password or a current code, for the
/// user themself and for an administrator resetting someone else's.
#[tokio::test]
async fn switching_2fa_off_needs_the_password_or_a_current_code() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let path = format!("/v1/auth/enable2fa/{}", t.dev);
        let (secret, full, _) = enable_2fa(&app, &t.dev_token, &t.dev).await;
        let cases = [
            (
                json!({"enabled_2fa": false}),
                "reauthentication_required",
                "Enter your password or a current 2FA code to switch two-factor authentication off",
            ),
            (
                json!({"enabled_2fa": false, "password": "wrong"}),
                "wrong_password",
                "Current password is incorrect",
            ),
            (
                json!({"enabled_2fa": false, "code": wrong_code(&secret)}),
                "invalid_2fa_code",
                "Invalid 2FA Code",
            ),
        ];
        for (body, code, message) in cases {
            let (s, b) = app.post(&path, Some(&full), body.clone()).await;
            assert_eq!(
                (s.as_u16(), b["code"].as_str(), b["message"].as_str()),
                (400, Some(code), Some(message)),
                "{k}: {body}"
            );
        }
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &full).await;
        assert_eq!(b["user"]["enabled_2fa"], true, "{k}: still on");

        // The password does it.
        let (s, b) = app
            .post(
                &path,
                Some(&full),
                json!({"enabled_2fa": false, "password": "dev-pass"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        // So does a current code (not one already used).
        let (secret, full, used) = enable_2fa(&app, &full, &t.dev).await;
        let (s, _) = app
            .post(&path, Some(&full), json!({"enabled_2fa": false, "code": used}))
            .await;
        assert_eq!(s, 400, "{k}: a code is accepted once");
        let (s, b) = app
            .post(
                &path,
                Some(&full),
                json!({"enabled_2fa": false, "code": totp_code(&secret, db::now() + 30)}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");

        // An administrator proves it is them too.
        let (_, full, _) = enable_2fa(&app, &full, &t.dev).await;
        let (s, b) = app
            .post(&path, Some(&t.admin_token), json!({"enabled_2fa": false}))
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (400, Some("reauthentication_required")),
            "{k}: {b}"
        );
        let (s, b) = app
            .post(
                &path,
                Some(&t.admin_token),
                json!({"enabled_2fa": false, "password": "admin-pass"}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        let (s, _) = app.get(&format!("/v1/users/{}", t.dev), &full).await;
        assert_eq!(s, 401, "{k}: the reset ends the user's sessions");
    }
}

/// Finding 2, the counter itself: reservations per key and window, the lock, its end, the
/// window's end, and giving a granted attempt back, at chosen times.
#[tokio::test]
async fn the_throttle_counts_reservations_per_window() {
    use ludis_api::db::throttle::{LOCK_SECONDS, Reservation, WINDOW_SECONDS, release, reserve};
    for app in apps().await {
        let k = app.kind;
        let db = &app.state.db;
        let t0 = 1_000_000;
        for i in 1..=3 {
            assert_eq!(
                reserve(db, "k", 3, t0 + i).await.unwrap(),
                Reservation::Granted,
                "{k} {i}"
            );
        }
        // The third locked the key until t0 + 3 + LOCK.
        assert_eq!(
            reserve(db, "k", 3, t0 + 10).await.unwrap(),
            Reservation::Locked {
                wait: LOCK_SECONDS - 7
            },
            "{k}"
        );
        assert_eq!(
            reserve(db, "k", 3, t0 + 3 + LOCK_SECONDS).await.unwrap(),
            Reservation::Granted,
            "{k}: the lock is over"
        );
        // A window without a lock ends too.
        assert_eq!(reserve(db, "w", 3, t0).await.unwrap(), Reservation::Granted);
        assert_eq!(reserve(db, "w", 3, t0 + 1).await.unwrap(), Reservation::Granted);
        let later = t0 + WINDOW_SECONDS;
        for i in 0..3 {
            assert_eq!(
                reserve(db, "w", 3, later + i).await.unwrap(),
                Reservation::Granted,
                "{k}: a new window {i}"
            );
        }
        // The third locked it; given back (it was no failure), it unlocks the key.
        release(db, "w", 3).await.unwrap();
        assert_eq!(
            reserve(db, "w", 3, later + 5).await.unwrap(),
            Reservation::Granted,
            "{k}"
        );
        assert!(matches!(
            reserve(db, "w", 3, later + 6).await.unwrap(),
            Reservation::Locked { .. }
        ));
        // Keys are independent.
        assert_eq!(
            reserve(db, "other", 3, t0 + 10).await.unwrap(),
            Reservation::Granted
        );
    }
}
