//! TOTP (RFC 6238) with the `totp-rs` crate: HMAC-SHA1, 30-second steps, 6 digits, one step of
//! drift either way, and the `otpauth://` URI authenticator apps read. The library checks a code
//! and says which step it matched; a code is accepted only for a step later than the user's last
//! accepted one (the caller stores it, `db::users::spend_totp_step`), so a code is never accepted
//! twice. The enrolment QR image is an SVG drawn by the `qrcode` crate (the console shows it as
//! an `<img>`; totp-rs's own `qr` feature draws PNGs through the `image` crate).

use totp_rs::{Algorithm, Builder, Secret, Totp};

pub const STEP_SECONDS: u64 = 30;
pub const DIGITS: u8 = 6;
/// Steps of drift accepted either way.
pub const SKEW: u16 = 1;
pub const ISSUER: &str = "Ludis";
/// Secret size in bytes (RFC 4226 recommends 160 bits).
const SECRET_BYTES: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum TotpError {
    #[error("the TOTP secret is not valid base32")]
    SecretNotBase32,
    #[error("failed to build the TOTP configuration: {0}")]
    Build(#[from] totp_rs::TotpError),
}

/// A new random secret, base32 (RFC 4648, no padding) as users type it and as it is stored
/// (encrypted).
pub fn new_secret() -> String {
    Secret::from(crate::crypto::random_bytes(SECRET_BYTES)).to_base32()
}

/// Our TOTP configuration for a base32 secret; `account` labels it in authenticator apps (a
/// colon, which the URI format reserves, is left out).
fn totp(secret_b32: &str, account: &str) -> Result<Totp, TotpError> {
    let secret = Secret::try_from_base32(secret_b32.trim()).map_err(|_| TotpError::SecretNotBase32)?;
    Ok(Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(DIGITS)
        .with_step_duration(STEP_SECONDS)
        .with_skew(SKEW)
        .with_secret(secret)
        .with_issuer(Some(ISSUER))
        .with_account_name(account.replace(':', ""))
        .build()?)
}

/// The code of a base32 secret at a unix time.
pub fn code_at(secret_b32: &str, unix: i64) -> Result<String, TotpError> {
    Ok(totp(secret_b32, "-")?
        .generate(u64::try_from(unix).unwrap_or_default())
        .to_string())
}

/// The step `code` matches (now, one before or one after), if it is later than `last_step`.
pub fn verify(secret_b32: &str, code: &str, now: i64, last_step: i64) -> Result<Option<i64>, TotpError> {
    let now = u64::try_from(now).unwrap_or_default();
    Ok(totp(secret_b32, "-")?
        .check(code.trim(), now)
        .and_then(|step| i64::try_from(step).ok())
        .filter(|step| *step > last_step))
}

/// The `otpauth://` URI authenticator apps read from the QR image.
pub fn otpauth_url(account: &str, secret_b32: &str) -> Result<String, TotpError> {
    Ok(totp(secret_b32, account)?.to_url()?)
}

/// A QR image of `text` as an SVG `data:` URL.
pub fn qr_data_url(text: &str) -> anyhow::Result<String> {
    use base64::{Engine as _, engine::general_purpose::STANDARD};
    let code = qrcode::QrCode::new(text.as_bytes())?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .build();
    Ok(format!("data:image/svg+xml;base64,{}", STANDARD.encode(svg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RFC 6238 / RFC 4226 test secret "12345678901234567890", base32.
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    /// RFC 4226 appendix D: the codes of counters 0..9 are the codes at t = counter × 30 s.
    #[test]
    fn codes_match_the_rfc_vectors() {
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871",
            "520489",
        ];
        for (counter, code) in expected.iter().enumerate() {
            let t = counter as i64 * 30;
            assert_eq!(code_at(RFC_SECRET, t).unwrap(), *code, "counter {counter}");
            assert_eq!(code_at(RFC_SECRET, t + 29).unwrap(), *code, "same step");
        }
        // RFC 6238 appendix B, SHA-1 column, last six digits.
        for (t, code) in [
            (59, "287082"),
            (1111111109, "081804"),
            (1111111111, "050471"),
            (1234567890, "005924"),
            (2000000000, "279037"),
            (20000000000, "353130"),
        ] {
            assert_eq!(code_at(RFC_SECRET, t).unwrap(), code, "t={t}");
        }
    }

    #[test]
    fn verify_allows_one_step_of_drift_and_no_replay() {
        let now = 1_700_000_000;
        let step = now / 30;
        let cases = [
            (now, 0, Some(step)),
            (now - 30, 0, Some(step - 1)),
            (now + 30, 0, Some(step + 1)),
            (now - 60, 0, None),
            (now + 60, 0, None),
            // already used: the step must be later than the last accepted one
            (now, step, None),
            (now - 30, step - 1, None),
            (now + 30, step, Some(step + 1)),
        ];
        for (code_time, last, expected) in cases {
            let code = code_at(RFC_SECRET, code_time).unwrap();
            assert_eq!(
                verify(RFC_SECRET, &code, now, last).unwrap(),
                expected,
                "code of {code_time}, last {last}"
            );
        }
        let code = code_at(RFC_SECRET, now).unwrap();
        assert_eq!(
            verify(RFC_SECRET, &format!(" {code} "), now, 0).unwrap(),
            Some(step)
        );
        for bad in ["12345", "1234567", "abcdef", "+12345", ""] {
            assert_eq!(verify(RFC_SECRET, bad, now, 0).unwrap(), None, "{bad}");
        }
        assert!(matches!(
            verify("not base32!", &code, now, 0),
            Err(TotpError::SecretNotBase32)
        ));
    }

    #[test]
    fn new_secrets_are_160_bits_of_base32() {
        let a = new_secret();
        assert_eq!(a.len(), 32, "{a}");
        assert!(
            a.bytes()
                .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)),
            "{a}"
        );
        assert_ne!(a, new_secret());
        assert_eq!(Secret::try_from_base32(&a).unwrap().as_bytes().len(), 20);
    }

    #[test]
    fn the_uri_and_qr_image_are_built() {
        let uri = otpauth_url("ann@example.com", RFC_SECRET).unwrap();
        assert_eq!(
            uri,
            format!("otpauth://totp/Ludis:ann%40example.com?secret={RFC_SECRET}&issuer=Ludis")
        );
        assert_eq!(
            otpauth_url("odd:name@example.com", RFC_SECRET).unwrap(),
            format!("otpauth://totp/Ludis:oddname%40example.com?secret={RFC_SECRET}&issuer=Ludis")
        );
        assert!(
            qr_data_url(&uri)
                .unwrap()
                .starts_with("data:image/svg+xml;base64,")
        );
    }
}
