//! JSON Web Tokens (RFC 7519) with the `jsonwebtoken` crate: HS256 only (the algorithm is
//! pinned on both sides, so `alg: none` and every other algorithm are refused), and `exp`, `nbf`,
//! `iss`, `aud` and `sub` required and validated without leeway.
//!
//! Each [`TokenKind`] is its own audience (`aud`), so a token of one kind is never accepted as
//! another: a caller names the kinds it accepts and the library refuses any other audience. A new
//! kind is one more variant with its audience; claims it needs beyond the registered ones go in
//! its own payload type (`Claims<P>`, flattened into the same JSON object).
//!
//! The HMAC comes from ring through the crate's `CryptoProvider` extension point
//! ([`provider`]), so the binary links one crypto backend (the one rustls and the rest of the API
//! already use) and no RSA/ECDSA/EdDSA code it never runs.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// Who issues every token (`iss`).
pub const ISSUER: &str = "ludis";
/// The one algorithm signed and accepted.
pub const ALGORITHM: Algorithm = Algorithm::HS256;

/// What a token opens; serialized as its audience (`aud`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenKind {
    /// Every authenticated route.
    #[serde(rename = "ludis/access")]
    Access,
    /// Only `POST /v1/auth/verify2fa` (the password was right; the code is still due).
    #[serde(rename = "ludis/2fa-verify")]
    TwoFactorVerify,
    /// Only enrolment: `POST /v1/auth/enable2fa/{uid}` and `POST /v1/auth/verify2fa` (the
    /// organization requires 2FA and the user has none yet).
    #[serde(rename = "ludis/2fa-enroll")]
    TwoFactorEnroll,
    /// Only the app proxy, once: trades itself for an app cookie (`…/apps/{id}/?ticket=…`).
    #[serde(rename = "ludis/app-ticket")]
    AppTicket,
    /// Only the app proxy: the app session cookie (`ludis_app`) of one app.
    #[serde(rename = "ludis/app-pass")]
    AppPass,
    /// Only the storage gateway: the session token of a pod's credentials
    /// (`storage_gateway::session`), never a person's.
    #[serde(rename = "ludis/storage-session")]
    StorageSession,
}

impl TokenKind {
    /// The kinds the bearer extractors tell apart (an access token, or a pending-2FA token that
    /// is refused with its own message).
    pub const SIGN_IN: &[TokenKind] = &[Self::Access, Self::TwoFactorVerify, Self::TwoFactorEnroll];
    /// Every kind.
    pub const ALL: &[TokenKind] = &[
        Self::Access,
        Self::TwoFactorVerify,
        Self::TwoFactorEnroll,
        Self::AppTicket,
        Self::AppPass,
        Self::StorageSession,
    ];

    /// The `aud` value of this kind (the same as its serde name).
    pub fn audience(self) -> &'static str {
        match self {
            Self::Access => "ludis/access",
            Self::TwoFactorVerify => "ludis/2fa-verify",
            Self::TwoFactorEnroll => "ludis/2fa-enroll",
            Self::AppTicket => "ludis/app-ticket",
            Self::AppPass => "ludis/app-pass",
            Self::StorageSession => "ludis/storage-session",
        }
    }
}

/// No claims beyond the registered ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoExtra {}

/// The claims of a token: the registered ones every kind carries, and `P`, the kind's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims<P = NoExtra> {
    /// User uid.
    pub sub: String,
    /// Session (refresh-token family) id; empty for pending-2FA tokens.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sid: String,
    /// The kind, as the audience.
    #[serde(rename = "aud")]
    pub kind: TokenKind,
    pub iss: String,
    pub iat: i64,
    pub nbf: i64,
    pub exp: i64,
    #[serde(flatten)]
    pub extra: P,
}

impl Claims {
    /// Claims of `kind` for user `sub` in session `sid`, valid from `now` for `ttl` seconds.
    pub fn new(kind: TokenKind, sub: &str, sid: &str, now: i64, ttl: i64) -> Self {
        Claims::with(kind, sub, sid, now, ttl, NoExtra {})
    }
}

impl<P> Claims<P> {
    /// As [`Claims::new`], with the kind's own claims.
    pub fn with(kind: TokenKind, sub: &str, sid: &str, now: i64, ttl: i64, extra: P) -> Self {
        Claims {
            sub: sub.to_owned(),
            sid: sid.to_owned(),
            kind,
            iss: ISSUER.to_owned(),
            iat: now,
            nbf: now,
            exp: now + ttl,
            extra,
        }
    }
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    #[error("jwt expired")]
    Expired,
    #[error("invalid token")]
    Invalid,
}

/// Whether [`Keys::decode`] checks `exp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expiry {
    Checked,
    /// Only for naming the session of a token at sign-out.
    Ignored,
}

/// The signing and verification keys of one secret.
#[derive(Clone)]
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Keys {
    pub fn new(secret: &str) -> Self {
        provider::install();
        Self {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
        }
    }

    pub fn encode<P: Serialize>(&self, claims: &Claims<P>) -> String {
        jsonwebtoken::encode(&Header::new(ALGORITHM), claims, &self.encoding)
            .expect("HS256 signing of serializable claims does not fail")
    }

    /// The claims of a token of one of `kinds`, signed with this key, current (`nbf` ≤ now <
    /// `exp`) and issued by us.
    pub fn decode<P: DeserializeOwned>(
        &self,
        token: &str,
        kinds: &[TokenKind],
    ) -> Result<Claims<P>, JwtError> {
        self.decode_with(token, kinds, Expiry::Checked)
    }

    /// As [`Keys::decode`], but an expired token is accepted: for sign-out, where a session is
    /// named by a token the client kept.
    pub fn decode_expired<P: DeserializeOwned>(
        &self,
        token: &str,
        kinds: &[TokenKind],
    ) -> Result<Claims<P>, JwtError> {
        self.decode_with(token, kinds, Expiry::Ignored)
    }

    fn decode_with<P: DeserializeOwned>(
        &self,
        token: &str,
        kinds: &[TokenKind],
        expiry: Expiry,
    ) -> Result<Claims<P>, JwtError> {
        let mut v = Validation::new(ALGORITHM);
        v.leeway = 0;
        v.validate_exp = expiry == Expiry::Checked;
        v.validate_nbf = true;
        v.set_required_spec_claims(&["exp", "nbf", "iss", "aud", "sub"]);
        v.set_issuer(&[ISSUER]);
        v.set_audience(&kinds.iter().map(|k| k.audience()).collect::<Vec<_>>());
        let claims = jsonwebtoken::decode::<Claims<P>>(token, &self.decoding, &v)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => JwtError::Expired,
                _ => JwtError::Invalid,
            })?
            .claims;
        // The library accepts `exp == now`; a token is spent at its expiry second.
        if expiry == Expiry::Checked && claims.exp <= jsonwebtoken::get_current_timestamp() as i64 {
            return Err(JwtError::Expired);
        }
        Ok(claims)
    }
}

/// HS256 over ring's HMAC for `jsonwebtoken`; every other algorithm is refused.
mod provider {
    use jsonwebtoken::{
        Algorithm, AlgorithmFamily, DecodingKey, EncodingKey,
        crypto::{CryptoProvider, JwtSigner, JwtVerifier, KeyUtils},
        errors::{ErrorKind, Result},
        signature::{self, Signer, Verifier},
    };
    use ring::hmac;

    struct Hs256(hmac::Key);

    impl Signer<Vec<u8>> for Hs256 {
        fn try_sign(&self, msg: &[u8]) -> std::result::Result<Vec<u8>, signature::Error> {
            Ok(hmac::sign(&self.0, msg).as_ref().to_vec())
        }
    }

    impl Verifier<Vec<u8>> for Hs256 {
        fn verify(&self, msg: &[u8], tag: &Vec<u8>) -> std::result::Result<(), signature::Error> {
            hmac::verify(&self.0, msg, tag).map_err(|_| signature::Error::new())
        }
    }

    impl JwtSigner for Hs256 {
        fn algorithm(&self) -> Algorithm {
            Algorithm::HS256
        }
    }

    impl JwtVerifier for Hs256 {
        fn algorithm(&self) -> Algorithm {
            Algorithm::HS256
        }
    }

    fn hs256(algorithm: &Algorithm, family: AlgorithmFamily, secret: Result<&[u8]>) -> Result<Hs256> {
        if *algorithm != Algorithm::HS256 || family != AlgorithmFamily::Hmac {
            return Err(ErrorKind::InvalidAlgorithm.into());
        }
        Ok(Hs256(hmac::Key::new(hmac::HMAC_SHA256, secret?)))
    }

    static PROVIDER: CryptoProvider = CryptoProvider {
        signer_factory: |alg, key: &EncodingKey| Ok(Box::new(hs256(alg, key.family(), Ok(key.as_bytes()))?)),
        verifier_factory: |alg, key: &DecodingKey| {
            Ok(Box::new(hs256(alg, key.family(), key.try_get_as_bytes())?))
        },
        key_utils: KeyUtils::new_unimplemented(),
    };

    /// Makes this the process's provider (once; later calls find it installed).
    pub fn install() {
        let _ = PROVIDER.install_default();
    }
}

#[cfg(test)]
mod tests {
    use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
    use serde_json::{Value, json};

    use super::*;

    const SECRET: &str = "test-secret-that-is-long-enough-0123456789";

    fn now() -> i64 {
        jsonwebtoken::get_current_timestamp() as i64
    }

    /// A token signed with `SECRET` over any header and payload.
    fn forge(header: Value, payload: Value, secret: &str) -> String {
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(payload.to_string())
        );
        let tag = ring::hmac::sign(
            &ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes()),
            input.as_bytes(),
        );
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
    }

    fn payload(kind: &str) -> Value {
        let n = now();
        json!({"sub": "u1", "sid": "s1", "aud": kind, "iss": ISSUER, "iat": n, "nbf": n, "exp": n + 60})
    }

    #[test]
    fn a_token_round_trips_until_it_expires() {
        let keys = Keys::new(SECRET);
        let claims = Claims::new(TokenKind::Access, "u1", "s1", now(), 60);
        let token = keys.encode(&claims);
        assert!(
            token.starts_with("eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9."),
            "{token}"
        );
        assert_eq!(
            keys.decode::<NoExtra>(&token, &[TokenKind::Access]),
            Ok(claims.clone())
        );
        let expired = keys.encode(&Claims {
            iat: now() - 100,
            nbf: now() - 100,
            exp: now(),
            ..claims
        });
        assert_eq!(
            keys.decode::<NoExtra>(&expired, &[TokenKind::Access]),
            Err(JwtError::Expired)
        );
        assert_eq!(
            keys.decode_expired::<NoExtra>(&expired, &[TokenKind::Access])
                .map(|c| c.sid),
            Ok("s1".into())
        );
    }

    #[test]
    fn one_kind_is_never_accepted_as_another() {
        let keys = Keys::new(SECRET);
        for &kind in TokenKind::ALL {
            let others: Vec<TokenKind> = TokenKind::ALL.iter().copied().filter(|k| *k != kind).collect();
            let token = keys.encode(&Claims::new(kind, "u1", "", now(), 60));
            assert_eq!(
                keys.decode::<NoExtra>(&token, &others),
                Err(JwtError::Invalid),
                "{kind:?}"
            );
            assert_eq!(keys.decode::<NoExtra>(&token, &[kind]).map(|c| c.kind), Ok(kind));
            assert_eq!(
                keys.decode::<NoExtra>(&token, TokenKind::SIGN_IN).is_ok(),
                TokenKind::SIGN_IN.contains(&kind),
                "{kind:?}: the sign-in kinds"
            );
        }
        // An audience we do not issue.
        let token = forge(
            json!({"alg": "HS256", "typ": "JWT"}),
            payload("ludis/other"),
            SECRET,
        );
        assert_eq!(
            keys.decode::<NoExtra>(&token, TokenKind::SIGN_IN),
            Err(JwtError::Invalid)
        );
    }

    #[test]
    fn only_hs256_with_our_key_verifies() {
        let keys = Keys::new(SECRET);
        let good = forge(
            json!({"alg": "HS256", "typ": "JWT"}),
            payload("ludis/access"),
            SECRET,
        );
        assert!(keys.decode::<NoExtra>(&good, &[TokenKind::Access]).is_ok());
        let cases = [
            (
                "another key",
                forge(json!({"alg": "HS256"}), payload("ludis/access"), "another key"),
            ),
            ("alg none", {
                let t = forge(json!({"alg": "none"}), payload("ludis/access"), SECRET);
                format!("{}.", t.rsplit_once('.').unwrap().0)
            }),
            (
                "HS384 header",
                forge(json!({"alg": "HS384"}), payload("ludis/access"), SECRET),
            ),
            (
                "HS512 header",
                forge(json!({"alg": "HS512"}), payload("ludis/access"), SECRET),
            ),
            ("empty", String::new()),
            ("two parts", "a.b".into()),
            ("garbage", "x.y.z".into()),
        ];
        for (name, token) in cases {
            assert_eq!(
                keys.decode::<NoExtra>(&token, &[TokenKind::Access]),
                Err(JwtError::Invalid),
                "{name}"
            );
        }
        // A changed payload under the old signature.
        let (head, rest) = good.split_once('.').unwrap();
        let (_, tag) = rest.split_once('.').unwrap();
        let mut other = payload("ludis/access");
        other["sub"] = json!("u2");
        let tampered = format!("{head}.{}.{tag}", URL_SAFE_NO_PAD.encode(other.to_string()));
        assert_eq!(
            keys.decode::<NoExtra>(&tampered, &[TokenKind::Access]),
            Err(JwtError::Invalid)
        );
    }

    #[test]
    fn registered_claims_are_required_and_checked() {
        let keys = Keys::new(SECRET);
        let header = json!({"alg": "HS256", "typ": "JWT"});
        let mut cases: Vec<(&str, Value)> = Vec::new();
        for claim in ["exp", "nbf", "iss", "aud", "sub"] {
            let mut p = payload("ludis/access");
            p.as_object_mut().unwrap().remove(claim);
            cases.push((claim, p));
        }
        let mut p = payload("ludis/access");
        p["iss"] = json!("someone-else");
        cases.push(("foreign issuer", p));
        let mut p = payload("ludis/access");
        p["nbf"] = json!(now() + 60);
        cases.push(("not yet valid", p));
        let mut p = payload("ludis/access");
        p["nbf"] = json!("0");
        cases.push(("nbf as a string", p));
        let mut p = payload("ludis/access");
        p["exp"] = json!("never");
        cases.push(("exp as a string", p));
        for (name, p) in cases {
            let token = forge(header.clone(), p, SECRET);
            assert_eq!(
                keys.decode::<NoExtra>(&token, &[TokenKind::Access]),
                Err(JwtError::Invalid),
                "{name}"
            );
        }
    }

    #[test]
    fn the_audience_is_the_serialized_kind() {
        for kind in TokenKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.audience()));
        }
    }

    #[test]
    fn a_kind_carries_its_own_claims() {
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        struct Bound {
            app: String,
        }
        let keys = Keys::new(SECRET);
        let n = now();
        let claims = Claims {
            sub: "u1".into(),
            sid: "s1".into(),
            kind: TokenKind::Access,
            iss: ISSUER.into(),
            iat: n,
            nbf: n,
            exp: n + 60,
            extra: Bound { app: "a1".into() },
        };
        let token = keys.encode(&claims);
        assert_eq!(keys.decode::<Bound>(&token, &[TokenKind::Access]), Ok(claims));
        // A token without them does not decode as that kind's claims.
        let plain = keys.encode(&Claims::new(TokenKind::Access, "u1", "s1", n, 60));
        assert_eq!(
            keys.decode::<Bound>(&plain, &[TokenKind::Access]),
            Err(JwtError::Invalid)
        );
    }
}
