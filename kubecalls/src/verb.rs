//! What a call to the API server is ([`Verb`]) and how it ended ([`Outcome`]), both Prometheus
//! label values.

use http::{Method, Request, header::CONTENT_TYPE};
use prometheus_client::encoding::{EncodeLabelValue, LabelValueEncoder};

/// What a request does, as the API server names it.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    /// A server-side apply (a PATCH of type `application/apply-patch+yaml`).
    Apply,
    Delete,
    DeleteCollection,
    /// A connect subresource: exec, attach, port-forward, proxy.
    Connect,
    /// Any other method (OPTIONS, HEAD …).
    Other,
}

/// The namespace subresources, which follow a namespace's name instead of a resource.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

/// The subresources the API server authorizes as `connect`.
const CONNECT_SUBRESOURCES: [&str; 4] = ["exec", "attach", "portforward", "proxy"];

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::List => "list",
            Self::Watch => "watch",
            Self::Create => "create",
            Self::Update => "update",
            Self::Patch => "patch",
            Self::Apply => "apply",
            Self::Delete => "delete",
            Self::DeleteCollection => "deletecollection",
            Self::Connect => "connect",
            Self::Other => "other",
        }
    }

    /// Pure: the verb of a request with `method` on `path` (without the query) and `query`,
    /// whose body has `content_type`. A resource request names an object when a name follows
    /// the resource (`/api/v1/namespaces/ns/pods/p`), else it is about the collection (`…/pods`,
    /// or every namespace's with `/api/v1/pods`); other paths (`/version`) are single objects.
    pub fn of(method: &Method, path: &str, query: Option<&str>, content_type: Option<&str>) -> Self {
        let target = Target::of(path);
        match *method {
            Method::GET if is_watch(path, query) => Self::Watch,
            Method::GET | Method::POST if target.connect => Self::Connect,
            Method::GET if target.named => Self::Get,
            Method::GET => Self::List,
            Method::POST => Self::Create,
            Method::PUT => Self::Update,
            Method::PATCH if content_type.is_some_and(|c| c.starts_with("application/apply-patch")) => {
                Self::Apply
            }
            Method::PATCH => Self::Patch,
            Method::DELETE if target.named => Self::Delete,
            Method::DELETE => Self::DeleteCollection,
            _ => Self::Other,
        }
    }

    /// [`Verb::of`] a request.
    pub fn of_request<B>(req: &Request<B>) -> Self {
        let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
        Self::of(req.method(), req.uri().path(), req.uri().query(), content_type)
    }
}

impl EncodeLabelValue for Verb {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        std::fmt::Write::write_str(encoder, self.as_str())
    }
}

/// `?watch=true` (or `1`), or the old `/watch/` path prefix.
fn is_watch(path: &str, query: Option<&str>) -> bool {
    let by_query = query.is_some_and(|q| {
        q.split('&')
            .any(|pair| matches!(pair, "watch=true" | "watch=1" | "watch=True"))
    });
    by_query || resource_parts(path).is_some_and(|(watch, _)| watch)
}

/// What a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Target {
    /// One object (a name after the resource), or a path that is not a resource path at all
    /// (`/version`, `/healthz`).
    named: bool,
    /// A connect subresource of an object (`…/pods/p/exec`).
    connect: bool,
}

impl Target {
    fn of(path: &str) -> Self {
        let Some((_, parts)) = resource_parts(path) else {
            return Self {
                named: true,
                connect: false,
            };
        };
        let mut parts = parts.as_slice();
        if let ["namespaces", _ns, rest @ ..] = parts
            && !rest.is_empty()
            && !NAMESPACE_SUBRESOURCES.contains(&rest[0])
        {
            parts = rest;
        }
        // resource, name, subresource…
        Self {
            named: parts.len() >= 2,
            connect: parts.get(2).is_some_and(|s| CONNECT_SUBRESOURCES.contains(s)),
        }
    }
}

/// The segments after `/api/<version>` or `/apis/<group>/<version>` (and whether the old `watch`
/// segment came first), or None for a path outside the resource API.
fn resource_parts(path: &str) -> Option<(bool, Vec<&str>)> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let rest = match segments.as_slice() {
        ["api", _version, rest @ ..] => rest,
        ["apis", _group, _version, rest @ ..] => rest,
        _ => return None,
    };
    match rest {
        ["watch", rest @ ..] => Some((true, rest.to_vec())),
        _ => Some((false, rest.to_vec())),
    }
}

/// How a request ended: the response's HTTP status, or an error before any response.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Outcome {
    Status(u16),
    Error,
}

impl EncodeLabelValue for Outcome {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        match self {
            Self::Status(code) => std::fmt::Write::write_fmt(encoder, format_args!("{code}")),
            Self::Error => std::fmt::Write::write_str(encoder, "error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_are_read_as_the_api_server_reads_them() {
        let apply = Some("application/apply-patch+yaml");
        let merge = Some("application/merge-patch+json");
        // method, path, query, content type → verb
        type Case<'a> = (Method, &'a str, Option<&'a str>, Option<&'a str>, Verb);
        let cases: &[Case] = &[
            (Method::GET, "/api/v1/namespaces/ns/pods/p", None, None, Verb::Get),
            (Method::GET, "/api/v1/namespaces/ns/pods", None, None, Verb::List),
            (
                Method::GET,
                "/api/v1/pods",
                Some("labelSelector=a%3Db"),
                None,
                Verb::List,
            ),
            (
                Method::GET,
                "/api/v1/pods",
                Some("watch=true&resourceVersion=1"),
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/apis/apps/v1/deployments",
                Some("allowWatchBookmarks=true&watch=1"),
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/api/v1/namespaces/ns/pods",
                Some("watch=false"),
                None,
                Verb::List,
            ),
            (
                Method::GET,
                "/api/v1/watch/namespaces/ns/pods",
                None,
                None,
                Verb::Watch,
            ),
            (
                Method::GET,
                "/api/v1/namespaces/ns/pods/p/log",
                Some("follow=true"),
                None,
                Verb::Get,
            ),
            (
                Method::GET,
                "/api/v1/namespaces/ns/pods/p/exec",
                Some("command=sh&tty=true"),
                None,
                Verb::Connect,
            ),
            (
                Method::POST,
                "/api/v1/namespaces/ns/pods/p/attach",
                None,
                None,
                Verb::Connect,
            ),
            (
                Method::GET,
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i",
                None,
                None,
                Verb::Get,
            ),
            (
                Method::GET,
                "/apis/ludis.dev/v1alpha1/insights",
                None,
                None,
                Verb::List,
            ),
            // A group version's discovery document is its (empty-named) collection.
            (Method::GET, "/apis/ludis.dev/v1alpha1", None, None, Verb::List),
            (Method::GET, "/api/v1/namespaces", None, None, Verb::List),
            (Method::GET, "/api/v1/namespaces/ns", None, None, Verb::Get),
            (Method::GET, "/api/v1/namespaces/ns/status", None, None, Verb::Get),
            (
                Method::PUT,
                "/api/v1/namespaces/ns/finalize",
                None,
                None,
                Verb::Update,
            ),
            (
                Method::GET,
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x.ludis.dev",
                None,
                None,
                Verb::Get,
            ),
            (Method::GET, "/version", None, None, Verb::Get),
            (Method::GET, "/apis", None, None, Verb::Get),
            (
                Method::POST,
                "/api/v1/namespaces/ns/pods",
                None,
                None,
                Verb::Create,
            ),
            (
                Method::POST,
                "/apis/events.k8s.io/v1/namespaces/ns/events",
                None,
                None,
                Verb::Create,
            ),
            (
                Method::PUT,
                "/apis/coordination.k8s.io/v1/namespaces/s/leases/l",
                None,
                None,
                Verb::Update,
            ),
            (
                Method::PATCH,
                "/apis/apps/v1/namespaces/ns/deployments/d",
                Some("fieldManager=x"),
                apply,
                Verb::Apply,
            ),
            (
                Method::PATCH,
                "/api/v1/namespaces/ludis-acme",
                Some("fieldManager=ludis-api"),
                apply,
                Verb::Apply,
            ),
            (
                Method::PATCH,
                "/apis/ludis.dev/v1alpha1/namespaces/ns/insights/i/status",
                None,
                merge,
                Verb::Patch,
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/ns/pods/p",
                None,
                None,
                Verb::Delete,
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/ludis-acme",
                None,
                None,
                Verb::Delete,
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/ns/pods",
                Some("labelSelector=a"),
                None,
                Verb::DeleteCollection,
            ),
            (
                Method::GET,
                "/apis/networking.k8s.io/v1/networkpolicies",
                Some("labelSelector=x"),
                None,
                Verb::List,
            ),
            (Method::HEAD, "/api/v1/pods", None, None, Verb::Other),
            (Method::OPTIONS, "/api/v1/pods", None, None, Verb::Other),
        ];
        for (method, path, query, content_type, verb) in cases {
            assert_eq!(
                Verb::of(method, path, *query, *content_type),
                *verb,
                "{method} {path}?{query:?}"
            );
        }
    }
}
