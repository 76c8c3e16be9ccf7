//! An upstream's base URL (`http://host:port[/base]`): the URI of a path under the proxy's prefix,
//! and redirects to the upstream itself moved under the prefix.

use std::net::SocketAddr;

use axum::http::{Uri, uri::Authority};

/// An app's base URL: `http://host:port[/base]`, and where to connect for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    authority: Authority,
    base_path: String,
    /// The address to connect to instead of resolving the host.
    connect_to: Option<SocketAddr>,
}

impl Upstream {
    pub fn parse(url: &str) -> Option<Self> {
        let uri: Uri = url.parse().ok()?;
        if uri.scheme_str() != Some("http") {
            return None;
        }
        Some(Self {
            authority: uri.authority()?.clone(),
            base_path: uri.path().trim_end_matches('/').to_owned(),
            connect_to: None,
        })
    }

    /// The host the URL names.
    pub fn host(&self) -> &str {
        self.authority.host()
    }

    /// The port the URL names (80 when it names none).
    pub fn port(&self) -> u16 {
        self.authority.port_u16().unwrap_or(80)
    }

    /// The same upstream, reached at `address`.
    pub fn connecting_to(self, address: SocketAddr) -> Self {
        Self {
            connect_to: Some(address),
            ..self
        }
    }

    /// The authority the URL names (`host:port`).
    pub fn authority(&self) -> &str {
        self.authority.as_str()
    }

    /// The app's URI of a path under the prefix (`/…`, still percent-encoded) and a query.
    pub fn uri(&self, tail: &str, query: &str) -> std::result::Result<Uri, axum::http::Error> {
        let mut path_and_query = format!("{}{}", self.base_path, tail);
        if !query.is_empty() {
            path_and_query = format!("{path_and_query}?{query}");
        }
        let authority = match self.connect_to {
            Some(address) => address.to_string(),
            None => self.authority.to_string(),
        };
        Uri::builder()
            .scheme("http")
            .authority(authority)
            .path_and_query(path_and_query)
            .build()
    }

    /// A redirect to the app's own address, moved under the prefix (others stay as they are).
    pub fn rewrite_location(&self, location: &str, prefix: &str) -> Option<String> {
        let own = format!("http://{}{}", self.authority, self.base_path);
        let rest = location.strip_prefix(&own)?;
        (rest.is_empty() || rest.starts_with(['/', '?'])).then(|| {
            let rest = if rest.is_empty() || rest.starts_with('?') {
                format!("/{rest}")
            } else {
                rest.to_owned()
            };
            format!("{prefix}{rest}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_uris_keep_the_encoded_path_and_query() {
        let u = Upstream::parse("http://sales.ludis-acme.svc:8000").unwrap();
        assert_eq!(
            u.uri("/a/b%20c", "x=1").unwrap().to_string(),
            "http://sales.ludis-acme.svc:8000/a/b%20c?x=1"
        );
        let based = Upstream::parse("http://127.0.0.1:9/base/").unwrap();
        assert_eq!(
            based.uri("/", "").unwrap().to_string(),
            "http://127.0.0.1:9/base/"
        );
        assert!(Upstream::parse("https://x.example").is_none());
        assert!(Upstream::parse("not a url").is_none());
    }

    #[test]
    fn redirects_to_the_app_itself_move_under_the_prefix() {
        let u = Upstream::parse("http://svc:8000").unwrap();
        assert_eq!(
            u.rewrite_location("http://svc:8000/login?x=1", "/apps/a")
                .as_deref(),
            Some("/apps/a/login?x=1")
        );
        assert_eq!(
            u.rewrite_location("http://svc:8000", "/apps/a").as_deref(),
            Some("/apps/a/")
        );
        assert_eq!(u.rewrite_location("http://svc:80001/x", "/apps/a"), None);
        assert_eq!(u.rewrite_location("https://elsewhere.example/", "/apps/a"), None);
        assert_eq!(u.rewrite_location("/relative", "/apps/a"), None);
    }

    #[test]
    fn an_upstream_reached_at_an_address_keeps_its_name_as_host() {
        let u = Upstream::parse("http://sales.ludis-acme.svc:8000/base").unwrap();
        assert_eq!(
            (u.host(), u.port(), u.authority()),
            ("sales.ludis-acme.svc", 8000, "sales.ludis-acme.svc:8000")
        );
        let at = u.connecting_to("10.96.0.12:8000".parse().unwrap());
        assert_eq!(
            at.uri("/a", "x=1").unwrap().to_string(),
            "http://10.96.0.12:8000/base/a?x=1"
        );
        // Its own redirects are still recognised by name.
        assert_eq!(
            at.rewrite_location("http://sales.ludis-acme.svc:8000/base/login", "/apps/a")
                .as_deref(),
            Some("/apps/a/login")
        );
        assert_eq!(Upstream::parse("http://svc.ns.svc").unwrap().port(), 80);
    }
}
