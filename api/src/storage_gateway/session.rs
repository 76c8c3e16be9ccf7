//! The credentials the gateway's STS hands a pod: an access key id, its secret and a session
//! token, AWS's three. Nothing is stored: the session token is a JWT (kind
//! [`TokenKind::StorageSession`]) naming the pod, its uid and the access key id; the secret is the
//! HMAC of the access key id under the API's key, so the gateway derives it again for SigV4. A
//! session is good until its `exp` and only while its pod lives; what it reaches is decided again
//! at every request ([`super::grants`]).

use serde::{Deserialize, Serialize};

use crate::{
    auth::jwt::{Claims, JwtError, Keys, TokenKind},
    crypto,
};

/// Which token a pod showed: what its credentials are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The datasets the pod's workload references (`ludis.dev/datasets`), token audience
    /// [`ludis_crds::STORAGE_AUDIENCE`].
    Datasets,
    /// The one location a report's publish container writes (`ludis.dev/output`), token
    /// audience [`ludis_crds::OUTPUT_AUDIENCE`].
    Output,
}

impl Scope {
    /// The scope of a token audience.
    pub fn of_audience(audience: &str) -> Option<Self> {
        match audience {
            ludis_crds::STORAGE_AUDIENCE => Some(Self::Datasets),
            ludis_crds::OUTPUT_AUDIENCE => Some(Self::Output),
            _ => None,
        }
    }
}

/// The claims of a session token beyond the registered ones (`sub` is `<namespace>/<pod>`, `sid`
/// the pod's uid).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionClaims {
    /// The access key id the session token goes with.
    pub akid: String,
    pub scope: Scope,
}

/// A pod's session, as the gateway reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub namespace: String,
    pub pod: String,
    pub pod_uid: String,
    pub access_key_id: String,
    pub scope: Scope,
    pub expires_at: i64,
}

/// Credentials as STS returns them.
#[derive(Debug, Clone)]
pub struct Issued {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: String,
    pub expires_at: i64,
}

/// The length of an access key id (AWS's: `ASIA` and 16 more).
const ACCESS_KEY_ID_LEN: usize = 20;
/// Domain separation of the secrets derived from the API's key.
const SECRET_CONTEXT: &[u8] = b"ludis/storage-secret/";

/// New credentials for the pod `namespace/pod` (uid `pod_uid`), valid `ttl` seconds from `now`.
pub fn issue(
    keys: &Keys,
    key: &ring::hmac::Key,
    (namespace, pod, pod_uid): (&str, &str, &str),
    scope: Scope,
    now: i64,
    ttl: i64,
) -> Issued {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let random = crypto::random_bytes(ACCESS_KEY_ID_LEN - 4);
    let access_key_id: String = "ASIA"
        .chars()
        .chain(random.iter().map(|b| ALPHABET[usize::from(b % 32)] as char))
        .collect();
    let claims = Claims::with(
        TokenKind::StorageSession,
        &format!("{namespace}/{pod}"),
        pod_uid,
        now,
        ttl,
        SessionClaims {
            akid: access_key_id.clone(),
            scope,
        },
    );
    Issued {
        secret_access_key: secret_of(key, &access_key_id),
        session_token: keys.encode(&claims),
        access_key_id,
        expires_at: now + ttl,
    }
}

/// The secret of an access key id.
pub fn secret_of(key: &ring::hmac::Key, access_key_id: &str) -> String {
    use base64::Engine as _;
    let mut message = SECRET_CONTEXT.to_vec();
    message.extend_from_slice(access_key_id.as_bytes());
    let tag = ring::hmac::sign(key, &message);
    // 40 characters, as AWS's secrets.
    base64::engine::general_purpose::STANDARD.encode(&tag.as_ref()[..30])
}

/// The session of `token` for `access_key_id`: signed by us, current, and issued with that key.
pub fn verify(keys: &Keys, token: &str, access_key_id: &str) -> Result<Session, JwtError> {
    let claims: Claims<SessionClaims> = keys.decode(token, &[TokenKind::StorageSession])?;
    if claims.extra.akid != access_key_id {
        return Err(JwtError::Invalid);
    }
    let (namespace, pod) = claims.sub.split_once('/').ok_or(JwtError::Invalid)?;
    Ok(Session {
        namespace: namespace.to_owned(),
        pod: pod.to_owned(),
        pod_uid: claims.sid,
        access_key_id: claims.extra.akid,
        scope: claims.extra.scope,
        expires_at: claims.exp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> (Keys, ring::hmac::Key) {
        (
            Keys::new("a-test-secret-that-is-long-enough-0123456789"),
            ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"another-test-key"),
        )
    }

    #[test]
    fn issued_credentials_verify_only_with_their_own_access_key_id() {
        let (keys, key) = keys();
        let now = crate::db::now();
        let issued = issue(
            &keys,
            &key,
            ("ludis-a", "p-1", "uid-1"),
            Scope::Datasets,
            now,
            3600,
        );
        assert_eq!(issued.access_key_id.len(), 20);
        assert!(issued.access_key_id.starts_with("ASIA"));
        assert_eq!(issued.secret_access_key.len(), 40);
        assert_eq!(issued.secret_access_key, secret_of(&key, &issued.access_key_id));
        let session = verify(&keys, &issued.session_token, &issued.access_key_id).unwrap();
        assert_eq!(
            (
                session.namespace.as_str(),
                session.pod.as_str(),
                session.pod_uid.as_str()
            ),
            ("ludis-a", "p-1", "uid-1")
        );
        assert_eq!(session.scope, Scope::Datasets);
        assert_eq!(session.expires_at, now + 3600);

        let other = issue(
            &keys,
            &key,
            ("ludis-a", "p-1", "uid-1"),
            Scope::Datasets,
            now,
            3600,
        );
        assert_ne!(other.access_key_id, issued.access_key_id);
        assert_ne!(other.secret_access_key, issued.secret_access_key);
        assert_eq!(
            verify(&keys, &issued.session_token, &other.access_key_id),
            Err(JwtError::Invalid)
        );
    }

    #[test]
    fn an_expired_or_foreign_session_token_is_refused() {
        let (keys, key) = keys();
        let old = issue(
            &keys,
            &key,
            ("n", "p", "u"),
            Scope::Output,
            crate::db::now() - 7200,
            3600,
        );
        assert_eq!(
            verify(&keys, &old.session_token, &old.access_key_id),
            Err(JwtError::Expired)
        );
        let foreign = Keys::new("someone-else's-secret-that-is-long-enough-0123");
        let theirs = issue(
            &foreign,
            &key,
            ("n", "p", "u"),
            Scope::Datasets,
            crate::db::now(),
            3600,
        );
        assert_eq!(
            verify(&keys, &theirs.session_token, &theirs.access_key_id),
            Err(JwtError::Invalid)
        );
        // An access token of a person is not a session token.
        let access = keys.encode(&Claims::new(
            TokenKind::Access,
            "uid",
            "sid",
            crate::db::now(),
            60,
        ));
        assert!(verify(&keys, &access, "ASIA").is_err());
    }
}
