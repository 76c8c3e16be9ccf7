//! The client's address, for the sign-in throttle and sign-in events. Behind an ingress or a
//! load balancer every request arrives from the proxy, so the socket's peer would make one
//! client's failures everyone's. The address a proxy forwarded (`Forwarded: for=`, RFC 7239, else
//! `X-Forwarded-For`) is believed only from the proxies the administrator trusts
//! (`LUDIS_TRUSTED_PROXIES`): walking the chain from the peer backwards, the first address that is
//! not a trusted proxy is the client's. Anyone else's headers are ignored, so a client cannot
//! choose its own address.

use std::net::IpAddr;

use crate::networks::Networks;
use axum::http::HeaderMap;

/// Pure: the client's address of a request from `peer` with `headers`.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &Networks) -> IpAddr {
    if !trusted.contains(peer) {
        return peer;
    }
    let mut client = peer;
    // From the nearest hop backwards: a trusted proxy's word names the hop before it.
    for hop in forwarded_chain(headers).into_iter().rev() {
        let Some(address) = hop else { break };
        client = address;
        if !trusted.contains(address) {
            break;
        }
    }
    client
}

/// The addresses the proxies forwarded, farthest first; `None` for a hop that names no address
/// (`unknown`, an obfuscated name, garbage): the walk stops there.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_owned())
            .collect()
    };
    let forwarded = values("forwarded");
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (key, value) = pair.trim().split_once('=')?;
                        key.trim().eq_ignore_ascii_case("for").then(|| value.trim())
                    })
                    .and_then(node_address)
            })
            .collect();
    }
    values("x-forwarded-for")
        .iter()
        .map(|s| node_address(s))
        .collect()
}

/// Pure: the address of a forwarded node: `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`,
/// `2001:db8::1`.
fn node_address(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse() {
        return Some(address);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    node.rsplit_once(':')?
        .0
        .parse::<std::net::Ipv4Addr>()
        .ok()
        .map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_static(value));
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let trusted: Networks = "10.0.0.0/8, ::1".parse().unwrap();
        let xff = headers(&[("x-forwarded-for", "203.0.113.9, 10.1.2.3")]);
        // From the ingress (trusted): the hop before the trusted ones.
        assert_eq!(client_address(ip("10.0.0.5"), &xff, &trusted), ip("203.0.113.9"));
        // From anyone else: their own address, whatever they say.
        assert_eq!(
            client_address(ip("198.51.100.7"), &xff, &trusted),
            ip("198.51.100.7")
        );
        // Nobody trusted: the peer.
        assert_eq!(
            client_address(ip("10.0.0.5"), &xff, &Networks::default()),
            ip("10.0.0.5")
        );
        // A client's own forged entries stay to the left of the one the proxy appended.
        let forged = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9")]);
        assert_eq!(
            client_address(ip("10.0.0.5"), &forged, &trusted),
            ip("203.0.113.9")
        );
        // No header: the proxy itself.
        assert_eq!(
            client_address(ip("10.0.0.5"), &HeaderMap::new(), &trusted),
            ip("10.0.0.5")
        );
        // Garbage stops the walk at the last hop that was trusted.
        let garbage = headers(&[("x-forwarded-for", "203.0.113.9, nonsense")]);
        assert_eq!(client_address(ip("10.0.0.5"), &garbage, &trusted), ip("10.0.0.5"));
    }

    #[test]
    fn the_standard_header_wins_with_its_ports_brackets_and_quotes() {
        let trusted: Networks = "10.0.0.0/8".parse().unwrap();
        let both = headers(&[
            (
                "forwarded",
                "for=192.0.2.60;proto=https, for=\"[2001:db8::1]:4711\";by=10.0.0.1",
            ),
            ("x-forwarded-for", "198.51.100.1"),
        ]);
        assert_eq!(client_address(ip("10.0.0.5"), &both, &trusted), ip("2001:db8::1"));
        let port = headers(&[("forwarded", "for=\"192.0.2.60:8080\"")]);
        assert_eq!(client_address(ip("10.0.0.5"), &port, &trusted), ip("192.0.2.60"));
        let unknown = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(client_address(ip("10.0.0.5"), &unknown, &trusted), ip("10.0.0.5"));
    }
}
