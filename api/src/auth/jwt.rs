//! HS256 JSON Web Tokens (RFC 7519) with ring's HMAC: the header is fixed, so only `alg: HS256`
//! tokens signed with our key verify. Expiry is checked without leeway.

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use ring::hmac;
use serde::{Deserialize, Serialize};

const HEADER: &str = r#"{"alg":"HS256","typ":"JWT"}"#;

/// What a token opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// Every authenticated route.
    Access,
    /// Only `POST /v1/auth/verify2fa` (the password was right; the code is still due).
    TwoFactorVerify,
    /// Only enrolment: `POST /v1/auth/enable2fa/{uid}` and `POST /v1/auth/verify2fa` (the
    /// organization requires 2FA and the user has none yet).
    TwoFactorEnroll,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// User uid.
    pub sub: String,
    /// Session (refresh-token family) id; empty for pending-2FA tokens.
    pub sid: String,
    pub kind: TokenKind,
    pub iat: i64,
    pub exp: i64,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    #[error("jwt expired")]
    Expired,
    #[error("invalid token")]
    Invalid,
}

pub fn encode(claims: &Claims, key: &hmac::Key) -> String {
    let payload = serde_json::to_vec(claims).expect("claims serialize");
    let signing_input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(HEADER),
        URL_SAFE_NO_PAD.encode(payload)
    );
    let tag = hmac::sign(key, signing_input.as_bytes());
    format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
}

pub fn decode(token: &str, key: &hmac::Key, now: i64) -> Result<Claims, JwtError> {
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(JwtError::Invalid);
    };
    if URL_SAFE_NO_PAD.decode(header).map_err(|_| JwtError::Invalid)? != HEADER.as_bytes() {
        return Err(JwtError::Invalid);
    }
    let signature = URL_SAFE_NO_PAD.decode(signature).map_err(|_| JwtError::Invalid)?;
    let signing_input = &token[..header.len() + 1 + payload.len()];
    hmac::verify(key, signing_input.as_bytes(), &signature).map_err(|_| JwtError::Invalid)?;
    let payload = URL_SAFE_NO_PAD.decode(payload).map_err(|_| JwtError::Invalid)?;
    let claims: Claims = serde_json::from_slice(&payload).map_err(|_| JwtError::Invalid)?;
    if now >= claims.exp {
        return Err(JwtError::Expired);
    }
    Ok(claims)
}

pub fn key(secret: &str) -> hmac::Key {
    hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(exp: i64) -> Claims {
        Claims {
            sub: "u1".into(),
            sid: "s1".into(),
            kind: TokenKind::Access,
            iat: 0,
            exp,
        }
    }

    #[test]
    fn a_token_round_trips_until_it_expires() {
        let k = key("secret");
        let t = encode(&claims(100), &k);
        assert_eq!(decode(&t, &k, 99).unwrap(), claims(100));
        assert_eq!(decode(&t, &k, 100), Err(JwtError::Expired));
    }

    #[test]
    fn forged_and_malformed_tokens_are_invalid() {
        let t = encode(&claims(100), &key("secret"));
        assert_eq!(decode(&t, &key("other"), 0), Err(JwtError::Invalid));
        for bad in ["", "a.b", "a.b.c.d", "x.y.z"] {
            assert_eq!(decode(bad, &key("secret"), 0), Err(JwtError::Invalid), "{bad}");
        }
        // alg=none with the same payload
        let (_, rest) = t.split_once('.').unwrap();
        let none = format!("{}.{}", URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#), rest);
        assert_eq!(decode(&none, &key("secret"), 0), Err(JwtError::Invalid));
        // a changed payload with the old signature
        let mut parts: Vec<&str> = t.split('.').collect();
        let other = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims(999_999)).unwrap());
        parts[1] = &other;
        assert_eq!(
            decode(&parts.join("."), &key("secret"), 0),
            Err(JwtError::Invalid)
        );
    }

    #[test]
    fn a_known_hs256_vector_verifies() {
        // The standard HS256 header encodes to the well-known prefix every JWT library emits.
        let k = key("your-256-bit-secret");
        let c = Claims {
            sub: "1234567890".into(),
            sid: String::new(),
            kind: TokenKind::Access,
            iat: 1516239022,
            exp: 4102444800,
        };
        let t = encode(&c, &k);
        assert!(t.starts_with("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."), "{t}");
        assert_eq!(decode(&t, &k, 1516239022).unwrap(), c);
    }
}
