//! The client's address, for the sign-in throttle and sign-in events. Behind an ingress or a
//! load balancer every request arrives from the proxy, so the socket's peer would make one
//! client's failures everyone's. The address a proxy forwarded (`Forwarded: for=`, RFC 7239, else
//! `X-Forwarded-For`) is believed only from the proxies the administrator trusts
//! (`LUDIS_TRUSTED_PROXIES`): walking the chain from the peer backwards, the first address that is
//! not a trusted proxy is the client's. Anyone else's headers are ignored, so a client cannot
//! choose its own address.

use std::net::IpAddr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// `LUDIS_TRUSTED_PROXIES`: comma-separated addresses or networks (`10.0.0.0/8`, `::1`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(pub Vec<IpNet>);

impl std::str::FromStr for TrustedProxies {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                item.parse::<IpNet>()
                    .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("LUDIS_TRUSTED_PROXIES: {item:?} is not an address or a network"))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

impl TrustedProxies {
    fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&address))
    }
}

/// Pure: the client's address of a request from `peer` with `headers`.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    if !trusted.trusts(peer) {
        return peer;
    }
    let mut client = peer;
    // From the nearest hop backwards: a trusted proxy's word names the hop before it.
    for hop in forwarded_chain(headers).into_iter().rev() {
        let Some(address) = hop else { break };
        client = address;
        if !trusted.trusts(address) {
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
        let trusted: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
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
            client_address(ip("10.0.0.5"), &xff, &TrustedProxies::default()),
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
        let trusted: TrustedProxies = "10.0.0.0/8".parse().unwrap();
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

    #[test]
    fn the_setting_takes_addresses_and_networks() {
        let t: TrustedProxies = " 10.0.0.0/8 ,127.0.0.1,, ::1".parse().unwrap();
        assert_eq!(t.0.len(), 3);
        assert!(t.trusts(ip("127.0.0.1")) && t.trusts(ip("10.9.9.9")) && !t.trusts(ip("11.0.0.1")));
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
        assert!("proxy.example".parse::<TrustedProxies>().is_err());
        assert_eq!("".parse::<TrustedProxies>().unwrap(), TrustedProxies::default());
    }
}
