//! TOTP (RFC 6238): HMAC-SHA1, 30-second steps, 6 digits, one step of drift either way. A code is
//! accepted only for a step later than the last accepted one (the caller stores it), so a code
//! is never accepted twice.

use ring::hmac;

pub const STEP_SECONDS: i64 = 30;
pub const DIGITS: u32 = 6;
pub const ISSUER: &str = "Ludis";

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// RFC 4648 base32 without padding.
pub fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = u64::from_be_bytes([0, 0, 0, buf[0], buf[1], buf[2], buf[3], buf[4]]);
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..chars {
            out.push(BASE32[((n >> (35 - i * 5)) & 31) as usize] as char);
        }
    }
    out
}

pub fn base32_decode(s: &str) -> Option<Vec<u8>> {
    let mut bits: u64 = 0;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in s.chars().filter(|c| *c != '=' && !c.is_whitespace()) {
        let v = BASE32.iter().position(|b| *b as char == c.to_ascii_uppercase())? as u64;
        bits = (bits << 5) | v;
        nbits += 5;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    Some(out)
}

/// HOTP (RFC 4226) with HMAC-SHA1 at counter `counter`, `digits` long.
pub fn hotp(secret: &[u8], counter: u64, digits: u32) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, secret);
    let tag = hmac::sign(&key, &counter.to_be_bytes());
    let h = tag.as_ref();
    let offset = (h[h.len() - 1] & 0x0f) as usize;
    let bin = u32::from_be_bytes([h[offset] & 0x7f, h[offset + 1], h[offset + 2], h[offset + 3]]);
    format!("{:0width$}", bin % 10u32.pow(digits), width = digits as usize)
}

pub fn step_at(unix: i64) -> i64 {
    unix.div_euclid(STEP_SECONDS)
}

/// The code at a unix time.
pub fn code_at(secret: &[u8], unix: i64) -> String {
    hotp(secret, step_at(unix) as u64, DIGITS)
}

/// The step a code matches (now, one before or one after), if it is later than `last_step`.
pub fn verify(secret: &[u8], code: &str, now: i64, last_step: i64) -> Option<i64> {
    let code = code.trim();
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now_step = step_at(now);
    [now_step, now_step - 1, now_step + 1]
        .into_iter()
        .filter(|s| *s > last_step && *s >= 0)
        .find(|s| constant_time_eq(hotp(secret, *s as u64, DIGITS).as_bytes(), code.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The `otpauth://` URI authenticator apps read from the QR image.
pub fn otpauth_uri(account: &str, secret_b32: &str) -> String {
    let label = percent_encode(&format!("{ISSUER}:{account}"));
    format!(
        "otpauth://totp/{label}?secret={secret_b32}&issuer={ISSUER}&algorithm=SHA1&digits={DIGITS}&period={STEP_SECONDS}"
    )
}

fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'@' | b':' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
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

    /// RFC 6238 appendix B, SHA-1 column, 8 digits, secret "12345678901234567890".
    #[test]
    fn rfc6238_sha1_test_vectors() {
        let secret = b"12345678901234567890";
        let table = [
            (59, "94287082"),
            (1111111109, "07081804"),
            (1111111111, "14050471"),
            (1234567890, "89005924"),
            (2000000000, "69279037"),
            (20000000000, "65353130"),
        ];
        for (time, expected) in table {
            assert_eq!(hotp(secret, step_at(time) as u64, 8), expected, "t={time}");
        }
    }

    /// RFC 4226 appendix D: HOTP values for counters 0..9.
    #[test]
    fn rfc4226_hotp_test_vectors() {
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871",
            "520489",
        ];
        for (counter, code) in expected.iter().enumerate() {
            assert_eq!(hotp(b"12345678901234567890", counter as u64, 6), *code);
        }
    }

    #[test]
    fn verify_allows_one_step_of_drift_and_no_replay() {
        let secret = b"12345678901234567890";
        let now = 1_700_000_000;
        let cases = [
            (now, 0, Some(step_at(now))),
            (now - 30, 0, Some(step_at(now) - 1)),
            (now + 30, 0, Some(step_at(now) + 1)),
            (now - 60, 0, None),
            (now + 60, 0, None),
            // already used: the step must be later than the last accepted one
            (now, step_at(now), None),
            (now - 30, step_at(now) - 1, None),
        ];
        for (code_time, last, expected) in cases {
            let code = code_at(secret, code_time);
            assert_eq!(
                verify(secret, &code, now, last),
                expected,
                "code of {code_time}, last {last}"
            );
        }
        assert_eq!(verify(secret, "12345", now, 0), None);
        assert_eq!(verify(secret, "abcdef", now, 0), None);
    }

    #[test]
    fn base32_round_trips_rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "MY"),
            ("fo", "MZXQ"),
            ("foo", "MZXW6"),
            ("foobar", "MZXW6YTBOI"),
        ] {
            assert_eq!(base32_encode(raw.as_bytes()), enc);
            assert_eq!(base32_decode(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(base32_decode("mzxw6==="), Some(b"foo".to_vec()));
        assert_eq!(base32_decode("1!"), None);
    }

    #[test]
    fn the_uri_and_qr_image_are_built() {
        let uri = otpauth_uri("ann@example.com", "JBSWY3DPEHPK3PXP");
        assert_eq!(
            uri,
            "otpauth://totp/Ludis:ann@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Ludis&algorithm=SHA1&digits=6&period=30"
        );
        assert!(
            qr_data_url(&uri)
                .unwrap()
                .starts_with("data:image/svg+xml;base64,")
        );
    }
}
