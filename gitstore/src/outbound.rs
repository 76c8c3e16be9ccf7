//! What the store may reach outside this machine, and how much it takes from there. A user
//! chooses an external remote's URL, so without rules they would make the API connect wherever
//! it can — its own loopback, the cluster's Services, a cloud's metadata address — and read the
//! answer whole. So:
//!
//! - **Where**: with [`UrlPolicy::HttpsOnly`] (production), every address the remote's host
//!   resolves to must be public ([`is_public`]) or inside a network the administrator allowed
//!   ([`Outbound::allowed_networks`], e.g. a company's GitLab on 10.0.0.0/8); checked before
//!   every connection, so a name that later resolves elsewhere is refused then.
//!   [`UrlPolicy::AllowHttpOnLoopback`] (development and tests) allows any address.
//! - **How much**: a fetch stops past [`Outbound::max_fetch_bytes`] or after
//!   [`Outbound::fetch_timeout`] (checked as bytes arrive), and the caller stops waiting for one
//!   that sends nothing at all soon after ([`Outbound::wait_limit`]; its blocking thread ends
//!   when the server gives up).
//!
//! A name resolved here may resolve again differently for libgit2 a moment later (DNS
//! rebinding); an administrator who needs more puts the API behind an egress proxy or a
//! NetworkPolicy (docs/design.md, "Outbound requests").

use std::{
    cell::Cell,
    net::{IpAddr, Ipv4Addr, ToSocketAddrs as _},
    time::{Duration, Instant},
};

use ipnet::IpNet;

use crate::{
    error::{Error, Result},
    remote_url::{RemoteUrl, UrlError, UrlPolicy},
};

/// The default of [`Outbound::max_fetch_bytes`].
pub const DEFAULT_MAX_FETCH_BYTES: u64 = 1024 * 1024 * 1024;
/// The default of [`Outbound::fetch_timeout`].
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The rules of the store's connections to external remotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbound {
    pub policy: UrlPolicy,
    /// Private networks remotes may be in nevertheless.
    pub allowed_networks: Vec<IpNet>,
    /// The most one fetch downloads.
    pub max_fetch_bytes: u64,
    /// The longest one fetch takes.
    pub fetch_timeout: Duration,
}

impl Default for Outbound {
    fn default() -> Self {
        Outbound {
            policy: UrlPolicy::HttpsOnly,
            allowed_networks: Vec::new(),
            max_fetch_bytes: DEFAULT_MAX_FETCH_BYTES,
            fetch_timeout: DEFAULT_FETCH_TIMEOUT,
        }
    }
}

/// Pure: whether `ip` is an address of the internet — not loopback, private, link-local, shared
/// (carrier-grade NAT), unspecified, multicast, broadcast, reserved, documentation or
/// benchmarking space; an IPv4-mapped or NAT64 address is judged by its IPv4 address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                let [.., a, b] = s;
                return is_public_v4(Ipv4Addr::from((u32::from(a) << 16) | u32::from(b)));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8)) // documentation
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240)
}

impl Outbound {
    /// How long a caller waits for one remote operation: the fetch's time and a little more.
    pub fn wait_limit(&self) -> Duration {
        self.fetch_timeout + Duration::from_secs(5)
    }

    /// Whether a remote may be at `ip`.
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.policy == UrlPolicy::AllowHttpOnLoopback
            || is_public(ip)
            || self.allowed_networks.iter().any(|net| net.contains(&ip))
    }

    /// Pure: `addresses` of a remote's host are all allowed (and there is one).
    pub fn check_addresses(&self, addresses: &[IpAddr]) -> std::result::Result<(), UrlError> {
        if addresses.is_empty() || !addresses.iter().all(|ip| self.allows(*ip)) {
            return Err(UrlError::PrivateHost);
        }
        Ok(())
    }

    /// Resolves `url`'s host and checks every address (blocking), before a connection.
    pub(crate) fn check_target(&self, url: &RemoteUrl) -> Result<()> {
        if self.policy == UrlPolicy::AllowHttpOnLoopback {
            return Ok(());
        }
        let addresses: Vec<IpAddr> = (url.host_name(), url.port())
            .to_socket_addrs()
            .map_err(|_| Error::RemoteUnreachable {
                host: url.host(),
                source: git2::Error::from_str("the host name could not be resolved"),
            })?
            .map(|a| a.ip())
            .collect();
        self.check_addresses(&addresses).map_err(Error::Url)
    }
}

/// Why a transfer was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopped {
    TooLarge,
    TooSlow,
}

/// One fetch's progress against the limits.
pub(crate) struct Transfer<'a> {
    limits: &'a Outbound,
    started: Instant,
    stopped: Cell<Option<Stopped>>,
}

impl<'a> Transfer<'a> {
    pub(crate) fn new(limits: &'a Outbound) -> Self {
        Transfer {
            limits,
            started: Instant::now(),
            stopped: Cell::new(None),
        }
    }

    /// libgit2's progress callback: whether to go on after `received` bytes.
    pub(crate) fn go_on(&self, received: usize) -> bool {
        let stop = if received as u64 > self.limits.max_fetch_bytes {
            Some(Stopped::TooLarge)
        } else if self.started.elapsed() > self.limits.fetch_timeout {
            Some(Stopped::TooSlow)
        } else {
            None
        };
        self.stopped.set(stop);
        stop.is_none()
    }

    /// The error of a fetch that this transfer stopped, if it did.
    pub(crate) fn error(&self, url: &RemoteUrl) -> Option<Error> {
        Some(match self.stopped.get()? {
            Stopped::TooLarge => Error::RemoteTooLarge {
                host: url.host(),
                limit_mib: self.limits.max_fetch_bytes / (1024 * 1024),
            },
            Stopped::TooSlow => Error::RemoteTooSlow {
                host: url.host(),
                seconds: self.limits.fetch_timeout.as_secs(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_internet_addresses_are_public() {
        for public in [
            "140.82.112.3",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:140.82.112.3",
            "64:ff9b::8c52:7003",
        ] {
            assert!(is_public(ip(public)), "{public}");
        }
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "192.0.2.1",
            "198.18.0.1",
            "240.0.0.1",
            "192.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(!is_public(ip(private)), "{private}");
        }
    }

    #[test]
    fn a_remote_must_resolve_to_allowed_addresses_only() {
        let production = Outbound::default();
        assert_eq!(production.check_addresses(&[ip("140.82.112.3")]), Ok(()));
        // One private answer among public ones is enough to refuse: libgit2 may pick it.
        assert_eq!(
            production.check_addresses(&[ip("140.82.112.3"), ip("10.0.0.7")]),
            Err(UrlError::PrivateHost)
        );
        assert_eq!(production.check_addresses(&[]), Err(UrlError::PrivateHost));
        let company = Outbound {
            allowed_networks: vec!["10.20.0.0/16".parse().unwrap()],
            ..Outbound::default()
        };
        assert_eq!(company.check_addresses(&[ip("10.20.1.5")]), Ok(()));
        assert_eq!(
            company.check_addresses(&[ip("10.21.1.5")]),
            Err(UrlError::PrivateHost)
        );
        let development = Outbound {
            policy: UrlPolicy::AllowHttpOnLoopback,
            ..Outbound::default()
        };
        assert_eq!(development.check_addresses(&[ip("127.0.0.1")]), Ok(()));
    }

    #[test]
    fn a_transfer_stops_past_its_size_or_its_time() {
        let limits = Outbound {
            max_fetch_bytes: 1000,
            fetch_timeout: Duration::from_secs(3600),
            ..Outbound::default()
        };
        let transfer = Transfer::new(&limits);
        assert!(transfer.go_on(1000));
        assert!(!transfer.go_on(1001));
        let url = RemoteUrl::parse("https://git.example/o/r.git", UrlPolicy::HttpsOnly).unwrap();
        assert!(matches!(
            transfer.error(&url),
            Some(Error::RemoteTooLarge { limit_mib: 0, .. })
        ));
        let no_time = Outbound {
            fetch_timeout: Duration::ZERO,
            ..Outbound::default()
        };
        let transfer = Transfer::new(&no_time);
        std::thread::sleep(Duration::from_millis(2));
        assert!(!transfer.go_on(1));
        assert!(matches!(transfer.error(&url), Some(Error::RemoteTooSlow { .. })));
    }
}
