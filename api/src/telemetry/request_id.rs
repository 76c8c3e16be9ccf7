//! The request id: `x-request-id` from the request when it is a sane token (1 to 128 characters
//! of `[A-Za-z0-9._-]`), otherwise a new UUID; echoed on every answer (errors and 404s too) and
//! carried by the request's span ([`super::http`]). tower-http's request-id layers set and echo
//! it; [`drop_unusable`] runs first, so an unusable id is replaced instead of kept.

use axum::http::{HeaderMap, HeaderValue, Request};
pub use tower_http::request_id::RequestId;

/// The header of the request id.
pub const HEADER: &str = "x-request-id";

/// The longest request id taken from a request.
pub const MAX_LEN: usize = 128;

/// Pure: whether a client's request id may be used as it is (and so written into logs).
pub fn is_sane(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_LEN
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Removes the request's id unless it is one sane value, so a new one is made for it.
pub fn drop_unusable<B>(mut req: Request<B>) -> Request<B> {
    if !usable(req.headers()) {
        req.headers_mut().remove(HEADER);
    }
    req
}

fn usable(headers: &HeaderMap) -> bool {
    let mut values = headers.get_all(HEADER).iter();
    match (values.next(), values.next()) {
        (None, _) => true,
        (Some(one), None) => is_sane(one),
        (Some(_), Some(_)) => false,
    }
}

/// The id of a request that passed the request-id layers (empty before them).
pub fn of<B>(req: &Request<B>) -> &str {
    req.extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_tokens_are_kept() {
        for (id, sane) in [
            ("3f2b9c1e-7d4a-4e57-9a0b-1c2d3e4f5a6b", true),
            ("req.42_A-b", true),
            ("a", true),
            (&"x".repeat(MAX_LEN), true),
            (&"x".repeat(MAX_LEN + 1), false),
            ("", false),
            ("has space", false),
            ("quote\"", false),
            ("new\tline", false),
            ("a/b", false),
            ("a=b", false),
        ] {
            let value = HeaderValue::from_str(id).unwrap();
            assert_eq!(is_sane(&value), sane, "{id:?}");
        }
        // Bytes that are not even text.
        assert!(!is_sane(&HeaderValue::from_bytes(&[0xc3, 0xa9]).unwrap()));
    }

    #[test]
    fn an_unusable_id_is_removed_and_a_sane_one_kept() {
        let with = |values: &[&str]| {
            let mut req = Request::new(());
            for v in values {
                req.headers_mut()
                    .append(HEADER, HeaderValue::from_str(v).unwrap());
            }
            drop_unusable(req)
                .headers()
                .get_all(HEADER)
                .iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(with(&["abc-1"]), ["abc-1"]);
        assert!(with(&["not ok"]).is_empty());
        assert!(with(&["a", "b"]).is_empty(), "two ids: neither is taken");
        assert!(with(&[]).is_empty());
    }
}
