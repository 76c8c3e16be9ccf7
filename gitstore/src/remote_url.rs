//! External remotes: which URLs a user may give, and what "import project" derives from one.
//!
//! An external remote is an `https://` URL with a host and a path of at least two segments (the
//! owner and the repository; GitLab's nested groups give more). Refused with a sentence for the
//! user ([`UrlError`]): other schemes (`http:` except on loopback when the store allows it for
//! development and tests, `file:`, `ssh:`, `git:`, scp-like `user@host:path`, local paths), a
//! username or password in the URL (credentials come from the user's saved git details, never
//! from text that is shown and stored), a query or fragment, and names outside the characters of a
//! project name.

use std::fmt;

use url::{Host, Url};

/// The longest remote URL accepted, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// Whether plain `http://` remotes are allowed. Production uses [`UrlPolicy::HttpsOnly`]; the
/// embedded default and the tests talk to a git server on loopback without TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlPolicy {
    HttpsOnly,
    AllowHttpOnLoopback,
}

/// Why a remote URL is refused; `Display` gives the user-facing message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlError {
    /// Not a URL at all (a local path, scp-like `host:path`, ...), or too long.
    NotAUrl,
    /// A scheme other than `https` (or `http` on loopback when allowed).
    Scheme,
    /// A username or password inside the URL.
    EmbeddedCredentials,
    /// A query string or fragment.
    QueryOrFragment,
    /// No owner and repository name in the path.
    MissingRepository,
    /// A repository or owner name with characters a project name may not have.
    Name,
    /// A host at a loopback, private or link-local address ([`crate::outbound`]).
    PrivateHost,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlError::NotAUrl => "Please enter the repository's https:// URL",
            UrlError::Scheme => "Only https:// repository URLs are supported",
            UrlError::EmbeddedCredentials => {
                "The repository URL may not contain a username or token; save them as your git details instead"
            }
            UrlError::QueryOrFragment => "The repository URL may not contain '?' or '#'",
            UrlError::MissingRepository => {
                "The repository URL must name the owner and the repository, like https://github.com/owner/repository.git"
            }
            UrlError::Name => {
                "The repository name can only contain letters, numbers, underscores, hyphens, and periods"
            }
            UrlError::PrivateHost => {
                "The repository's host must be on the internet: private, loopback and link-local addresses are refused"
            }
        })
    }
}

impl std::error::Error for UrlError {}

/// A checked external remote URL (no credentials in it, so it may be shown and stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteUrl {
    url: Url,
    owner: String,
    name: String,
}

impl RemoteUrl {
    pub fn parse(text: &str, policy: UrlPolicy) -> Result<Self, UrlError> {
        let text = text.trim();
        if text.len() > MAX_URL_BYTES || text.chars().any(char::is_control) {
            return Err(UrlError::NotAUrl);
        }
        let url = Url::parse(text).map_err(|_| UrlError::NotAUrl)?;
        match url.scheme() {
            "https" => {}
            "http" if policy == UrlPolicy::AllowHttpOnLoopback && is_loopback(url.host()) => {}
            _ => return Err(UrlError::Scheme),
        }
        if url.host().is_none() || url.cannot_be_a_base() {
            return Err(UrlError::NotAUrl);
        }
        if policy == UrlPolicy::HttpsOnly && !names_the_internet(url.host()) {
            return Err(UrlError::PrivateHost);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(UrlError::EmbeddedCredentials);
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(UrlError::QueryOrFragment);
        }
        let segments: Vec<&str> = url
            .path_segments()
            .map(|segments| segments.filter(|segment| !segment.is_empty()).collect())
            .unwrap_or_default();
        let Some((last, owner)) = segments.split_last() else {
            return Err(UrlError::MissingRepository);
        };
        let name = last.strip_suffix(".git").unwrap_or(last);
        if owner.is_empty() || name.is_empty() {
            return Err(UrlError::MissingRepository);
        }
        if !owner
            .iter()
            .chain([&name])
            .all(|segment| is_repository_name(segment))
        {
            return Err(UrlError::Name);
        }
        Ok(RemoteUrl {
            owner: owner.join("/"),
            name: name.to_owned(),
            url,
        })
    }

    /// The URL as given (normalised by the URL parser), for libgit2 and for display.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The host's name or address, to connect to (an IPv6 address without brackets).
    pub fn host_name(&self) -> String {
        match self.url.host() {
            Some(Host::Ipv6(ip)) => ip.to_string(),
            Some(host) => host.to_string(),
            None => String::new(),
        }
    }

    /// The port connected to (the scheme's when none is given).
    pub fn port(&self) -> u16 {
        self.url.port_or_known_default().unwrap_or(443)
    }

    /// The host (and port, when one is given), for messages.
    pub fn host(&self) -> String {
        let host = self.url.host_str().unwrap_or_default();
        match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    }

    /// What "import project" derives: the project name is the repository's name (without
    /// `.git`), the repository author is its owner — the path before the name, so a GitLab
    /// project in nested groups has `group/subgroup`.
    /// `https://github.com/ada/analysis.git` → name `analysis`, author `ada`.
    pub fn import(&self) -> ImportedProject {
        ImportedProject {
            name: self.name.clone(),
            author: self.owner.clone(),
        }
    }
}

impl fmt::Display for RemoteUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.url.as_str())
    }
}

/// A project's name and repository author, derived from its remote URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedProject {
    pub name: String,
    pub author: String,
}

/// The characters of a project v2 name that can appear in a URL path (letters, numbers,
/// underscores, hyphens and periods), not `.` or `..` alone.
fn is_repository_name(segment: &str) -> bool {
    !matches!(segment, "." | "..")
        && segment.len() <= 255
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

fn is_loopback(host: Option<Host<&str>>) -> bool {
    match host {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        Some(Host::Domain(name)) => name == "localhost",
        None => false,
    }
}

/// Pure: whether a host may be of the internet: a public address, or a name other than
/// `localhost` (names are resolved and checked before each connection, [`crate::outbound`]).
fn names_the_internet(host: Option<Host<&str>>) -> bool {
    match host {
        Some(Host::Ipv4(ip)) => crate::outbound::is_public(ip.into()),
        Some(Host::Ipv6(ip)) => crate::outbound::is_public(ip.into()),
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name != "localhost" && !name.ends_with(".localhost")
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_off_the_internet_are_refused_in_production() {
        for url in [
            "https://127.0.0.1/o/r.git",
            "https://10.0.0.5/o/r.git",
            "https://169.254.169.254/latest/meta-data",
            "https://[::1]/o/r.git",
            "https://[fd00::5]:8443/o/r.git",
            "https://localhost/o/r.git",
            "https://git.localhost./o/r.git",
            "https://0x7f000001/o/r.git",
        ] {
            assert_eq!(
                RemoteUrl::parse(url, UrlPolicy::HttpsOnly),
                Err(UrlError::PrivateHost),
                "{url}"
            );
            assert!(
                RemoteUrl::parse(url, UrlPolicy::AllowHttpOnLoopback).is_ok(),
                "{url}"
            );
        }
        let ok = RemoteUrl::parse("https://140.82.112.3:8443/o/r.git", UrlPolicy::HttpsOnly).unwrap();
        assert_eq!((ok.host_name(), ok.port()), ("140.82.112.3".to_owned(), 8443));
        let v6 = RemoteUrl::parse("https://[2606:4700::1111]/o/r.git", UrlPolicy::HttpsOnly).unwrap();
        assert_eq!((v6.host_name(), v6.port()), ("2606:4700::1111".to_owned(), 443));
    }

    fn import(text: &str) -> Result<(String, String), UrlError> {
        RemoteUrl::parse(text, UrlPolicy::HttpsOnly).map(|url| {
            let project = url.import();
            (project.name, project.author)
        })
    }

    #[test]
    fn import_derives_name_and_author() {
        let cases = [
            ("https://github.com/ada/analysis.git", "analysis", "ada"),
            ("https://github.com/ada/analysis", "analysis", "ada"),
            ("https://github.com/ada/analysis/", "analysis", "ada"),
            ("  https://github.com/ada/analysis.git  ", "analysis", "ada"),
            ("https://gitlab.com/group/sub/tool.git", "tool", "group/sub"),
            (
                "https://git.example.org:8443/team/my_repo.v2.git",
                "my_repo.v2",
                "team",
            ),
            ("https://GitHub.com/Ada/Analysis", "Analysis", "Ada"),
        ];
        for (text, name, author) in cases {
            assert_eq!(import(text), Ok((name.to_owned(), author.to_owned())), "{text}");
        }
    }

    #[test]
    fn refuses_urls_that_are_not_https_remotes() {
        let cases = [
            ("", UrlError::NotAUrl),
            ("analysis", UrlError::NotAUrl),
            ("/srv/git/analysis.git", UrlError::NotAUrl),
            ("../analysis.git", UrlError::NotAUrl),
            ("git@github.com:ada/analysis.git", UrlError::NotAUrl),
            ("https://github.com/ada/\nanalysis", UrlError::NotAUrl),
            ("file:///srv/git/analysis.git", UrlError::Scheme),
            ("http://github.com/ada/analysis.git", UrlError::Scheme),
            ("http://127.0.0.1/ada/analysis.git", UrlError::Scheme),
            ("ssh://git@github.com/ada/analysis.git", UrlError::Scheme),
            ("git://github.com/ada/analysis.git", UrlError::Scheme),
            ("ext::sh -c touch% /tmp/pwned", UrlError::Scheme),
            ("ftp://github.com/ada/analysis.git", UrlError::Scheme),
            (
                "https://ada:ghp_token@github.com/ada/analysis.git",
                UrlError::EmbeddedCredentials,
            ),
            (
                "https://ghp_token@github.com/ada/analysis.git",
                UrlError::EmbeddedCredentials,
            ),
            (
                "https://github.com/ada/analysis.git?x=1",
                UrlError::QueryOrFragment,
            ),
            (
                "https://github.com/ada/analysis.git#main",
                UrlError::QueryOrFragment,
            ),
            ("https://github.com/", UrlError::MissingRepository),
            ("https://github.com/analysis.git", UrlError::MissingRepository),
            ("https://github.com/ada/.git", UrlError::MissingRepository),
            ("https://github.com/ada/ana%20lysis", UrlError::Name),
            ("https://github.com/ada/an$alysis", UrlError::Name),
            ("https://github.com/a%2Fb/analysis", UrlError::Name),
            ("https://github.com/ada/%2e%2e", UrlError::MissingRepository),
            ("https://github.com/ada/../analysis", UrlError::MissingRepository),
        ];
        for (text, expected) in cases {
            assert_eq!(import(text), Err(expected), "{text}");
        }
        let long = format!("https://github.com/ada/{}", "a".repeat(MAX_URL_BYTES));
        assert_eq!(import(&long), Err(UrlError::NotAUrl));
    }

    #[test]
    fn plain_http_only_on_loopback_and_only_when_allowed() {
        let allow = UrlPolicy::AllowHttpOnLoopback;
        for text in [
            "http://127.0.0.1:8080/git/ns/repo.git",
            "http://localhost/ns/repo.git",
            "http://[::1]:9/ns/repo.git",
        ] {
            assert!(RemoteUrl::parse(text, allow).is_ok(), "{text}");
        }
        for text in ["http://10.0.0.1/ns/repo.git", "http://example.org/ns/repo.git"] {
            assert_eq!(RemoteUrl::parse(text, allow), Err(UrlError::Scheme), "{text}");
        }
    }

    #[test]
    fn the_host_is_shown_without_anything_secret() {
        let url =
            RemoteUrl::parse("https://git.example.org:8443/team/repo.git", UrlPolicy::HttpsOnly).unwrap();
        assert_eq!(url.host(), "git.example.org:8443");
        assert_eq!(url.as_str(), "https://git.example.org:8443/team/repo.git");
    }
}
