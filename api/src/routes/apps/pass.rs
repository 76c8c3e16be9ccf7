//! Signing in to an app: the ticket of `open_url` and the app cookie it is traded for.
//!
//! - A **ticket** (`…/apps/{id}/?ticket=…`) names the user, the app, the console session
//!   (refresh-token family) that asked for it and a random id, and is valid 60 seconds. It opens
//!   the app **once**: its id is recorded in the database until it expires
//!   ([`db::app_passes::spend_ticket`]), so a replayed link fails on every API replica.
//! - The **app cookie** (`ludis_app`: HttpOnly, host-only, `Path=/apps/{id}/`, one hour, SameSite
//!   per [`cookie_attributes`]) names the user, the app and the same session. Every request with
//!   it checks that the session is live and the user active ([`session_user`], one indexed
//!   query): signing out, a password change, a deactivation or any other revocation of the
//!   session ends the app sessions it opened.
//! - Both are `base64url(payload).base64url(HMAC-SHA256(purpose \n payload))` with the API's key;
//!   the purpose is inside the signed text, so a ticket is never a cookie, and neither is ever a
//!   JWT (whose signed text is two base64 parts joined by a dot).

use axum::http::{HeaderMap, HeaderValue, header};
use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use ring::hmac;

use crate::{
    app::AppState,
    db::{self, users::UserRow},
    error::{ApiError, Result},
    settings::{AppsPlacement, Origin},
};

/// The name of the app session cookie (one per app, by its path).
pub const COOKIE: &str = "ludis_app";
/// A ticket opens the app for this long, once.
pub const TICKET_TTL: i64 = 60;
/// The app session cookie lives this long (and never longer than its console session).
pub const SESSION_TTL: i64 = 3600;

const TICKET: &str = "ludis-app-ticket";
const SESSION: &str = "ludis-app-session";

/// What a ticket or an app cookie says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    pub uid: String,
    pub app: String,
    /// The console session (refresh-token family) it was issued to.
    pub sid: String,
    /// A random id: a ticket is used once.
    pub id: String,
    /// Unix seconds.
    pub exp: i64,
}

/// `base64url(uid.app.sid.id.exp).base64url(HMAC(purpose \n uid.app.sid.id.exp))`.
fn sign(key: &hmac::Key, purpose: &str, p: &Pass) -> String {
    let payload = format!("{}.{}.{}.{}.{}", p.uid, p.app, p.sid, p.id, p.exp);
    let tag = hmac::sign(key, format!("{purpose}\n{payload}").as_bytes());
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(&payload),
        URL_SAFE_NO_PAD.encode(tag.as_ref())
    )
}

/// What a token of `purpose` says about app `app_id`, if it is genuine and not expired.
fn verify(key: &hmac::Key, purpose: &str, token: &str, app_id: &str, now: i64) -> Option<Pass> {
    let (payload, tag) = token.split_once('.')?;
    let payload = String::from_utf8(URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    hmac::verify(key, format!("{purpose}\n{payload}").as_bytes(), &tag).ok()?;
    let parts: Vec<&str> = payload.split('.').collect();
    let &[uid, app, sid, id, exp] = parts.as_slice() else {
        return None;
    };
    let exp = exp.parse::<i64>().ok()?;
    (app == app_id && now < exp && [uid, sid, id].iter().all(|f| !f.is_empty())).then(|| Pass {
        uid: uid.to_owned(),
        app: app.to_owned(),
        sid: sid.to_owned(),
        id: id.to_owned(),
        exp,
    })
}

/// A ticket that opens app `app_id` once, within 60 seconds, for user `uid` in console session
/// `sid`.
pub fn ticket(state: &AppState, uid: &str, sid: &str, app_id: &str) -> String {
    let pass = Pass {
        uid: uid.to_owned(),
        app: app_id.to_owned(),
        sid: sid.to_owned(),
        id: db::new_id(),
        exp: db::now() + TICKET_TTL,
    };
    sign(&state.auth.jwt_key, TICKET, &pass)
}

/// The URL that opens app `app_id` in a browser for user `uid`: on the apps origin (or a path on
/// the console's, when allowed), with a ticket for a console session; a program signed in with
/// an API key (no session) gets the address alone and sends its key there. `None` when no app is
/// served ([`AppsPlacement::Refused`]).
pub fn open_url(state: &AppState, uid: &str, session: Option<&str>, app_id: &str) -> Option<String> {
    let origin = match state.settings.apps_placement() {
        AppsPlacement::Origin(o) => o.of_app(app_id),
        AppsPlacement::ConsoleOrigin => String::new(),
        AppsPlacement::Refused => return None,
    };
    Some(match session {
        Some(sid) => format!(
            "{origin}/apps/{app_id}/?ticket={}",
            ticket(state, uid, sid, app_id)
        ),
        None => format!("{origin}/apps/{app_id}/"),
    })
}

/// The user and the pass of a genuine, unexpired, unused ticket for app `app_id` whose session is
/// live; the ticket is spent whatever follows. `None` otherwise.
pub async fn redeem(state: &AppState, ticket: &str, app_id: &str) -> Result<Option<(UserRow, Pass)>> {
    let now = db::now();
    let Some(pass) = verify(&state.auth.jwt_key, TICKET, ticket, app_id, now) else {
        return Ok(None);
    };
    if !db::app_passes::spend_ticket(&state.db, &pass.id, pass.exp, now).await? {
        tracing::info!(app = %app_id, user = %pass.uid, "rejected: an app ticket used again");
        return Ok(None);
    }
    Ok(session_user(state, &pass.uid, &pass.sid)
        .await?
        .map(|user| (user, pass)))
}

/// The `Set-Cookie` value of the app session a redeemed ticket opens.
pub fn cookie(state: &AppState, ticket: &Pass, attributes: &str) -> Result<HeaderValue> {
    let pass = Pass {
        exp: db::now() + SESSION_TTL,
        ..ticket.clone()
    };
    let token = sign(&state.auth.jwt_key, SESSION, &pass);
    let cookie = format!(
        "{COOKIE}={token}; Path=/apps/{}/; Max-Age={SESSION_TTL}; HttpOnly; {attributes}",
        pass.app
    );
    HeaderValue::from_str(&cookie).map_err(ApiError::internal)
}

/// The user and session of a request's app cookie for app `app_id`, when it is genuine and its
/// session live.
pub async fn cookie_user(
    state: &AppState,
    headers: &HeaderMap,
    app_id: &str,
) -> Result<Option<(UserRow, String)>> {
    let Some(token) = session_cookie(headers) else {
        return Ok(None);
    };
    let Some(pass) = verify(&state.auth.jwt_key, SESSION, &token, app_id, db::now()) else {
        return Ok(None);
    };
    let user = session_user(state, &pass.uid, &pass.sid).await?;
    if user.is_none() {
        tracing::info!(app = %app_id, user = %pass.uid, "rejected: the app cookie's session ended");
    }
    Ok(user.map(|u| (u, pass.sid)))
}

/// User `uid` if session `sid` is theirs and live, the user active, and the organization's 2FA
/// requirement met — what the console's own requests need ([`crate::auth::AuthUser`]).
pub async fn session_user(state: &AppState, uid: &str, sid: &str) -> Result<Option<UserRow>> {
    Ok(db::app_passes::session_user(&state.db, uid, sid, db::now())
        .await?
        .filter(|(user, org_requires_2fa)| !org_requires_2fa || user.has_2fa())
        .map(|(user, _)| user))
}

/// Our cookie's value (the last one when several are sent).
pub fn session_cookie(headers: &HeaderMap) -> Option<String> {
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

/// Whether the browser loads this request into a frame (`Sec-Fetch-Dest` other than `document`;
/// a client that does not say is taken as one, since a frame needs the laxer cookie).
pub fn framed(headers: &HeaderMap) -> bool {
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
pub fn cookie_attributes(apps_origin: Option<&Origin>, forwarded_https: bool, framed: bool) -> &'static str {
    match apps_origin {
        None if forwarded_https => "SameSite=Lax; Secure",
        None => "SameSite=Lax",
        Some(o) if framed && o.is_potentially_trustworthy() => "SameSite=None; Secure; Partitioned",
        Some(o) if o.is_https() => "SameSite=Lax; Secure",
        Some(_) => "SameSite=Lax",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(exp: i64) -> Pass {
        Pass {
            uid: "u1".into(),
            app: "a1".into(),
            sid: "s1".into(),
            id: "t1".into(),
            exp,
        }
    }

    #[test]
    fn passes_are_bound_to_user_app_session_purpose_and_time() {
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"k");
        let t = sign(&key, TICKET, &pass(100));
        assert_eq!(verify(&key, TICKET, &t, "a1", 99), Some(pass(100)));
        assert_eq!(verify(&key, TICKET, &t, "a1", 100), None, "expired");
        assert_eq!(verify(&key, TICKET, &t, "a2", 99), None, "another app");
        assert_eq!(verify(&key, SESSION, &t, "a1", 99), None, "not a session cookie");
        let other = hmac::Key::new(hmac::HMAC_SHA256, b"other");
        assert_eq!(verify(&other, TICKET, &t, "a1", 99), None, "forged");
        for bad in ["", "x", "a.b", "a.b.c"] {
            assert_eq!(verify(&key, TICKET, bad, "a1", 0), None, "{bad}");
        }
        // A changed payload with the old tag: another user, session or ticket id.
        let (_, tag) = t.split_once('.').unwrap();
        for payload in [
            "u2.a1.s1.t1.100",
            "u1.a1.s2.t1.100",
            "u1.a1.s1.t2.100",
            "u1.a1.s1.t1.999",
        ] {
            let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode(payload));
            assert_eq!(verify(&key, TICKET, &forged, "a1", 0), None, "{payload}");
        }
        // The old shape (no session, no id) and empty fields are not passes.
        for payload in ["u1.a1.100", "u1.a1..t1.100", "u1.a1.s1..100", ".a1.s1.t1.100"] {
            let tag = hmac::sign(&key, format!("{TICKET}\n{payload}").as_bytes());
            let t = format!(
                "{}.{}",
                URL_SAFE_NO_PAD.encode(payload),
                URL_SAFE_NO_PAD.encode(tag.as_ref())
            );
            assert_eq!(verify(&key, TICKET, &t, "a1", 0), None, "{payload}");
        }
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
}
