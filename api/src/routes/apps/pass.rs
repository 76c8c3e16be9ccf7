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
//! - Both are JWTs ([`crate::auth::jwt`]: HS256 pinned; `exp`, `nbf`, `iss` and `aud` validated),
//!   each kind its own audience (`ludis/app-ticket`, `ludis/app-pass`), so a ticket is never an
//!   app cookie nor an access token, and neither is ever a ticket. Both carry the app (`app`), the
//!   user (`sub`), the console session (`sid`) and an id (`jti`).

use axum::http::{HeaderMap, HeaderValue, header};
use serde::{Deserialize, Serialize};

use crate::{
    auth::jwt::{self, Claims, TokenKind},
    db::{self, users::UserRow},
    error::{ApiError, Result},
    settings::{AppsPlacement, Origin},
    state::AppState,
};

/// The name of the app session cookie (one per app, by its path).
pub const COOKIE: &str = "ludis_app";
/// A ticket opens the app for this long, once.
pub const TICKET_TTL: i64 = 60;
/// The app session cookie lives this long (and never longer than its console session).
pub const SESSION_TTL: i64 = 3600;

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

/// The claims of a ticket or an app cookie beyond the registered ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct AppClaims {
    app: String,
    jti: String,
}

/// A token of `kind` (a ticket or an app cookie) saying `p`.
fn sign(keys: &jwt::Keys, kind: TokenKind, p: &Pass, now: i64) -> String {
    let extra = AppClaims {
        app: p.app.clone(),
        jti: p.id.clone(),
    };
    keys.encode(&Claims::with(kind, &p.uid, &p.sid, now, p.exp - now, extra))
}

/// What a token of `kind` says about app `app_id`, if it is genuine, current and names a user, a
/// session and an id.
fn verify(keys: &jwt::Keys, kind: TokenKind, token: &str, app_id: &str) -> Option<Pass> {
    let c = keys.decode::<AppClaims>(token, &[kind]).ok()?;
    let complete = [&c.sub, &c.sid, &c.extra.jti].iter().all(|f| !f.is_empty());
    (c.extra.app == app_id && complete).then_some(Pass {
        uid: c.sub,
        app: c.extra.app,
        sid: c.sid,
        id: c.extra.jti,
        exp: c.exp,
    })
}

/// A ticket that opens app `app_id` once, within 60 seconds, for user `uid` in console session
/// `sid`.
pub fn ticket(state: &AppState, uid: &str, sid: &str, app_id: &str) -> String {
    let now = db::now();
    let pass = Pass {
        uid: uid.to_owned(),
        app: app_id.to_owned(),
        sid: sid.to_owned(),
        id: db::new_id(),
        exp: now + TICKET_TTL,
    };
    sign(&state.auth.tokens, TokenKind::AppTicket, &pass, now)
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
    let prefix = super::mount_prefix(state, app_id);
    Some(match session {
        Some(sid) => format!("{origin}{prefix}/?ticket={}", ticket(state, uid, sid, app_id)),
        None => format!("{origin}{prefix}/"),
    })
}

/// The user and the pass of a genuine, unexpired, unused ticket for app `app_id` whose session is
/// live; the ticket is spent whatever follows. `None` otherwise.
pub async fn redeem(state: &AppState, ticket: &str, app_id: &str) -> Result<Option<(UserRow, Pass)>> {
    let now = db::now();
    let Some(pass) = verify(&state.auth.tokens, TokenKind::AppTicket, ticket, app_id) else {
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

/// The `Set-Cookie` value of the app session a redeemed ticket opens, for the app mounted at
/// `prefix` (`""`: the root of its own origin).
pub fn cookie(state: &AppState, ticket: &Pass, prefix: &str, attributes: &str) -> Result<HeaderValue> {
    let now = db::now();
    let pass = Pass {
        exp: now + SESSION_TTL,
        ..ticket.clone()
    };
    let token = sign(&state.auth.tokens, TokenKind::AppPass, &pass, now);
    let cookie = format!("{COOKIE}={token}; Path={prefix}/; Max-Age={SESSION_TTL}; HttpOnly; {attributes}");
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
    let Some(pass) = verify(&state.auth.tokens, TokenKind::AppPass, &token, app_id) else {
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

    const SECRET: &str = "test-secret-that-is-long-enough-0123456789";

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
    fn passes_are_jwts_bound_to_user_app_session_kind_and_time() {
        let keys = jwt::Keys::new(SECRET);
        let now = db::now();
        let t = sign(&keys, TokenKind::AppTicket, &pass(now + 60), now);
        assert_eq!(
            verify(&keys, TokenKind::AppTicket, &t, "a1"),
            Some(pass(now + 60))
        );
        // A JWT of its own audience, checked by the library.
        let claims = keys
            .decode::<serde_json::Value>(&t, &[TokenKind::AppTicket])
            .unwrap();
        assert_eq!(claims.extra["app"], "a1");
        assert_eq!(claims.extra["jti"], "t1");
        for other in TokenKind::ALL.iter().filter(|k| **k != TokenKind::AppTicket) {
            assert!(
                keys.decode::<serde_json::Value>(&t, &[*other]).is_err(),
                "{other:?}"
            );
        }

        let expired = sign(&keys, TokenKind::AppTicket, &pass(now), now - 60);
        assert_eq!(
            verify(&keys, TokenKind::AppTicket, &expired, "a1"),
            None,
            "expired"
        );
        assert_eq!(verify(&keys, TokenKind::AppTicket, &t, "a2"), None, "another app");
        assert_eq!(
            verify(&keys, TokenKind::AppPass, &t, "a1"),
            None,
            "not an app cookie"
        );
        let cookie = sign(&keys, TokenKind::AppPass, &pass(now + 60), now);
        assert_eq!(
            verify(&keys, TokenKind::AppTicket, &cookie, "a1"),
            None,
            "not a ticket"
        );
        let other = jwt::Keys::new("another-secret-that-is-long-enough-012345");
        assert_eq!(verify(&other, TokenKind::AppTicket, &t, "a1"), None, "forged");
        for bad in ["", "x", "a.b", "a.b.c"] {
            assert_eq!(verify(&keys, TokenKind::AppTicket, bad, "a1"), None, "{bad}");
        }
        // Empty user, session or id: not a pass.
        for p in [
            Pass {
                uid: String::new(),
                ..pass(now + 60)
            },
            Pass {
                sid: String::new(),
                ..pass(now + 60)
            },
            Pass {
                id: String::new(),
                ..pass(now + 60)
            },
        ] {
            let t = sign(&keys, TokenKind::AppTicket, &p, now);
            assert_eq!(verify(&keys, TokenKind::AppTicket, &t, "a1"), None, "{p:?}");
        }
        // An access token of the same user and session is neither.
        let access = keys.encode(&Claims::new(TokenKind::Access, "u1", "s1", now, 60));
        for kind in [TokenKind::AppTicket, TokenKind::AppPass] {
            assert_eq!(verify(&keys, kind, &access, "a1"), None, "{kind:?}");
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
