//! A setting that names networks: comma-separated addresses or CIDRs (`10.0.0.0/8, ::1`), as
//! `LUDIS_TRUSTED_PROXIES` and `LUDIS_GIT_ALLOWED_NETWORKS` take them.

use std::net::IpAddr;

use ipnet::IpNet;

/// Networks; an address alone is a network of one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Networks(pub Vec<IpNet>);

impl std::str::FromStr for Networks {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                item.parse::<IpNet>()
                    .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{item:?} is not an address or a network (CIDR)"))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

impl Networks {
    /// Whether `address` is in one of them.
    pub fn contains(&self, address: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&address))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_networks_are_taken() {
        let n: Networks = " 10.0.0.0/8 ,127.0.0.1,, ::1".parse().unwrap();
        assert_eq!(n.0.len(), 3);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(n.contains(ip("127.0.0.1")) && n.contains(ip("10.9.9.9")) && n.contains(ip("::1")));
        assert!(!n.contains(ip("11.0.0.1")));
        assert!("10.0.0.0/33".parse::<Networks>().is_err());
        assert!("proxy.example".parse::<Networks>().is_err());
        assert_eq!("".parse::<Networks>().unwrap(), Networks::default());
    }
}
