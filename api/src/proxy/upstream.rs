//! An upstream's base URL (`http://host:port[/base]`): the URI of a path under the proxy's prefix,
//! and redirects to the upstream itself moved under the prefix.

use axum::http::Uri;

/// An app's base URL: `http://host:port[/base]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    authority: String,
    base_path: String,
}

impl Upstream {
    pub fn parse(url: &str) -> Option<Self> {
        let uri: Uri = url.parse().ok()?;
        if uri.scheme_str() != Some("http") {
            return None;
        }
        Some(Self {
            authority: uri.authority()?.to_string(),
            base_path: uri.path().trim_end_matches('/').to_owned(),
        })
    }

    /// The app's URI of a path under the prefix (`/…`, still percent-encoded) and a query.
    pub fn uri(&self, tail: &str, query: &str) -> std::result::Result<Uri, axum::http::Error> {
        let mut path_and_query = format!("{}{}", self.base_path, tail);
        if !query.is_empty() {
            path_and_query = format!("{path_and_query}?{query}");
        }
        Uri::builder()
            .scheme("http")
            .authority(self.authority.as_str())
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
}
