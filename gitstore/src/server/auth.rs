//! Who may clone or push: the caller of [`super::router`] decides, given the Basic credentials a
//! git client sent and the repository it asked for.

use std::fmt;
use std::future::Future;

use axum::http::{HeaderMap, header};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::input::RepoId;

/// What a caller may do with a hosted repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The credentials are not valid (unknown user, wrong token): 401, and git asks again.
    Unauthenticated,
    /// Valid credentials, but the repository is unknown or not theirs to see: 404 (the same
    /// answer for both, so repositories cannot be probed).
    None,
    /// Clone and fetch (the project's view access).
    Read,
    /// Clone, fetch and push (the project's edit access).
    Write,
    /// Clone and fetch the mirror of an external remote ([`crate::GitStore::mirror`], under
    /// [`super::ServerConfig::mirror_root`]): what pods of an imported project clone, so the
    /// token that reaches the remote never leaves the API.
    ReadMirror,
}

/// The access rule the server asks before every request that passed the protocol checks.
pub trait Authorize: Send + Sync + 'static {
    fn authorize(&self, credentials: &BasicCredentials, repo: &RepoId)
    -> impl Future<Output = Access> + Send;
}

/// The username and password (a token) of an `Authorization: Basic` header. `Debug` hides the
/// password.
#[derive(Clone, PartialEq, Eq)]
pub struct BasicCredentials {
    pub username: String,
    pub password: String,
}

impl fmt::Debug for BasicCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BasicCredentials")
            .field("username", &self.username)
            .field("password", &"***")
            .finish()
    }
}

impl BasicCredentials {
    /// From the request's `Authorization` header; `None` when there is none, it is not Basic, or
    /// it is malformed (the client is asked for credentials again).
    pub fn from_headers(headers: &HeaderMap) -> Option<Self> {
        let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
        let (scheme, encoded) = value.trim().split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return None;
        }
        let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
        let (username, password) = decoded.split_once(':')?;
        Some(BasicCredentials {
            username: username.to_owned(),
            password: password.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn parse(value: &str) -> Option<BasicCredentials> {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        BasicCredentials::from_headers(&headers)
    }

    #[test]
    fn reads_basic_credentials_only() {
        let expected = BasicCredentials {
            username: "ada".into(),
            password: "to:ken".into(),
        };
        assert_eq!(
            parse(&format!("Basic {}", STANDARD.encode("ada:to:ken"))),
            Some(expected.clone())
        );
        assert_eq!(
            parse(&format!("basic  {} ", STANDARD.encode("ada:to:ken"))),
            Some(expected)
        );
        for value in [
            "Bearer abc",
            "Basic",
            "Basic !!!",
            &format!("Basic {}", STANDARD.encode("no-colon")),
        ] {
            assert_eq!(parse(value), None, "{value}");
        }
        assert_eq!(BasicCredentials::from_headers(&HeaderMap::new()), None);
        let shown = format!(
            "{:?}",
            parse(&format!("Basic {}", STANDARD.encode("ada:secret"))).unwrap()
        );
        assert!(!shown.contains("secret"), "{shown}");
    }
}
