//! Typed settings: command-line flags, each with an environment variable fallback, and an
//! optional settings file (`LUDIS_CONFIG_FILE`, lines of `LUDIS_X=value`). Precedence: flag, then
//! environment, then file, then default. Secrets never Debug-print.

use std::{net::SocketAddr, path::PathBuf};

use clap::{CommandFactory, Parser};

use crate::{
    cluster::network_policy::{ApiCidrs, EgressCidrs},
    telemetry::{LogFormat, server::OptionalListen},
};

/// A secret string: `Debug` prints `***`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() { "\"\"" } else { "***" })
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_owned()))
    }
}

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "ludis-api",
    version,
    about = "The Ludis API server",
    args_override_self = true
)]
pub struct Settings {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "LUDIS_API_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Database URL: `sqlite://path?mode=rwc` (the default, a file) or `postgres://…`.
    #[arg(
        long,
        env = "LUDIS_DATABASE_URL",
        default_value = "sqlite://ludis.db?mode=rwc"
    )]
    pub database_url: String,

    /// Folder of the built console (`console/dist`), served at `/`.
    #[arg(long, env = "LUDIS_CONSOLE_DIR", default_value = "console/dist")]
    pub console_dir: PathBuf,

    /// Whether the API needs a Kubernetes cluster (from `KUBECONFIG` or in-cluster config).
    /// Without one, `/readyz` reports the cluster as not configured instead of failing, and
    /// organization namespaces are not created (logged).
    #[arg(long, env = "LUDIS_REQUIRE_CLUSTER", default_value_t = true, action = clap::ArgAction::Set)]
    pub require_cluster: bool,

    /// Send applications' traffic to their Service's cluster address, found through the
    /// Kubernetes API, instead of resolving `<service>.<namespace>.svc` by DNS: for an API that
    /// runs outside the cluster on a machine that routes to its Services (the local platform).
    #[arg(long, env = "LUDIS_RESOLVE_SERVICES_VIA_API", default_value_t = false, action = clap::ArgAction::Set)]
    pub resolve_services_via_api: bool,

    /// Log format: `text` (human-readable lines) or `json` (one object a line, with the
    /// request's span: request id, route template, method).
    #[arg(long, env = "LUDIS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// HMAC-SHA256 key of access tokens (at least 32 characters). When empty, one is generated
    /// into the secrets file (single-replica development only).
    #[arg(long, env = "LUDIS_JWT_SECRET", default_value = "", hide_env_values = true)]
    pub jwt_secret: Secret,

    /// AES-256-GCM keys for secrets at rest: `id:base64key[,id:base64key…]` (32-byte keys); the
    /// first one encrypts, all decrypt. When empty, one is generated into the secrets file.
    #[arg(
        long,
        env = "LUDIS_ENCRYPTION_KEYS",
        default_value = "",
        hide_env_values = true
    )]
    pub encryption_keys: Secret,

    /// Name of a Secret in `LUDIS_SYSTEM_NAMESPACE` that holds the two settings above
    /// (`jwt-secret`, `encryption-keys`) when they are empty: created with new keys (and a
    /// generated `admin-password` for the first superadmin) at the first start, read at every
    /// start; concurrent first starts agree on one Secret. Empty: the secrets file below.
    #[arg(long, env = "LUDIS_KEYS_SECRET", default_value = "")]
    pub keys_secret: String,

    /// Where generated development secrets are kept when the two settings above are empty and no
    /// keys Secret is named.
    #[arg(long, env = "LUDIS_SECRETS_FILE", default_value = "ludis-secrets.env")]
    pub secrets_file: PathBuf,

    /// Access token lifetime in seconds.
    #[arg(long, env = "LUDIS_ACCESS_TOKEN_TTL", default_value_t = 15 * 60)]
    pub access_token_ttl: i64,

    /// Refresh token idle lifetime in seconds (7 days).
    #[arg(long, env = "LUDIS_REFRESH_IDLE_TTL", default_value_t = 7 * 24 * 3600)]
    pub refresh_idle_ttl: i64,

    /// Refresh token family absolute lifetime in seconds (30 days).
    #[arg(long, env = "LUDIS_REFRESH_ABSOLUTE_TTL", default_value_t = 30 * 24 * 3600)]
    pub refresh_absolute_ttl: i64,

    /// Argon2id memory cost in KiB.
    #[arg(long, env = "LUDIS_ARGON2_MEMORY_KIB", default_value_t = 19 * 1024)]
    pub argon2_memory_kib: u32,

    /// Argon2id iterations.
    #[arg(long, env = "LUDIS_ARGON2_ITERATIONS", default_value_t = 2)]
    pub argon2_iterations: u32,

    /// Failed sign-in or 2FA attempts from one client address, within 15 minutes, before that
    /// address is throttled for 15 minutes (the per-account limit is 5).
    #[arg(long, env = "LUDIS_THROTTLE_ADDRESS_FAILURES", default_value_t = 50)]
    pub throttle_address_failures: i64,

    /// The reverse proxies in front of the API (an ingress, a load balancer): comma-separated
    /// addresses or networks whose `Forwarded`/`X-Forwarded-For` name the client's address for
    /// the sign-in throttle and sign-in events; anyone else's are ignored. Empty: the socket's
    /// peer is the client.
    #[arg(long, env = "LUDIS_TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: crate::networks::Networks,

    /// S3 endpoint for user images; empty disables presigned photo uploads.
    #[arg(long, env = "LUDIS_S3_ENDPOINT", default_value = "")]
    pub s3_endpoint: String,

    #[arg(long, env = "LUDIS_S3_REGION", default_value = "us-east-1")]
    pub s3_region: String,

    #[arg(long, env = "LUDIS_S3_ACCESS_KEY", default_value = "")]
    pub s3_access_key: String,

    #[arg(long, env = "LUDIS_S3_SECRET_KEY", default_value = "", hide_env_values = true)]
    pub s3_secret_key: Secret,

    /// Bucket of user images (created at start when missing), and of the datasets of
    /// organizations that have no bucket of their own.
    #[arg(long, env = "LUDIS_S3_BUCKET", default_value = "ludis-assets")]
    pub s3_bucket: String,

    /// The S3 endpoint as browsers reach it, for presigned upload and download addresses (e.g.
    /// the public name of an in-cluster endpoint); empty: the same as `LUDIS_S3_ENDPOINT`. The
    /// bucket needs a CORS rule allowing the console's origin (PUT, GET, HEAD; expose ETag).
    #[arg(long, env = "LUDIS_S3_PUBLIC_ENDPOINT", default_value = "")]
    pub s3_public_endpoint: String,

    /// The executable that computes spreadsheet previews in a child process (it must call
    /// `ludis_storage::preview::run_worker_if_asked` first, as `ludis-api` does); empty: this
    /// server's own binary.
    #[arg(long, env = "LUDIS_PREVIEW_WORKER", default_value = "")]
    pub preview_worker: String,

    /// Where users reach the API (`https://ludis.example`), for links the API hands out (a
    /// dataset file's permanent URL); empty: taken from each request's `Host` and
    /// `X-Forwarded-Proto`.
    #[arg(long, env = "LUDIS_PUBLIC_URL", default_value = "")]
    pub public_url: String,

    /// Where the API keeps project repositories: `<dir>/git/hosted` (the repositories Ludis
    /// hosts; one folder shared by every replica) and `<dir>/git/cache` (caches of external
    /// remotes).
    #[arg(long, env = "LUDIS_DATA_DIR", default_value = "ludis-data")]
    pub data_dir: PathBuf,

    /// Where preview pods reach this API's git server for the repositories Ludis hosts
    /// (`http://ludis-api.ludis-system.svc:8080/git`); empty: a hosted project's preview starts
    /// from its workspace volume without a checkout. Without `/git`, it is where pods reach this
    /// API at all (the dataset snippets shown in a project use it).
    #[arg(long, env = "LUDIS_GIT_URL", default_value = "")]
    pub git_url: String,

    /// The namespace of Ludis itself, where the administrator's image list (the ConfigMap
    /// `ludis-images`) is.
    #[arg(long, env = "LUDIS_SYSTEM_NAMESPACE", default_value = "ludis-system")]
    pub system_namespace: String,

    /// The ClusterRole of what the API does inside an organization's namespace (its projects'
    /// Secrets, its pods' logs, terminals and restarts, its ConfigMaps and NetworkPolicies),
    /// bound to the API's service account (`LUDIS_SERVICE_ACCOUNT`) by a RoleBinding in each
    /// namespace the API makes for an organization — and nowhere else. Empty: nothing is bound
    /// (the API's credentials hold these rights already, as a development cluster's administrator).
    #[arg(long, env = "LUDIS_ORGANIZATION_ROLE", default_value = "")]
    pub organization_role: String,

    /// The API's own service account, `namespace:name`: the subject of the organization role's
    /// RoleBindings (`LUDIS_ORGANIZATION_ROLE`).
    #[arg(long, env = "LUDIS_SERVICE_ACCOUNT")]
    pub service_account: Option<crate::cluster::organization_access::ServiceAccount>,

    /// Allow external git remotes over plain `http://` on loopback (development and tests only;
    /// otherwise only `https://`).
    #[arg(long, env = "LUDIS_GIT_ALLOW_HTTP_LOOPBACK", default_value_t = false, action = clap::ArgAction::Set)]
    pub git_allow_http_loopback: bool,

    /// Private networks (comma-separated CIDRs) where external git remotes may be nevertheless,
    /// e.g. a company's GitLab on `10.20.0.0/16`; otherwise a remote's host must resolve to
    /// public addresses only (loopback, private, link-local and metadata addresses are refused).
    #[arg(long, env = "LUDIS_GIT_ALLOWED_NETWORKS", default_value = "")]
    pub git_allowed_networks: crate::networks::Networks,

    /// The most one fetch of an external remote downloads, in MiB.
    #[arg(long, env = "LUDIS_GIT_MAX_FETCH_MIB", default_value_t = 1024)]
    pub git_max_fetch_mib: u64,

    /// The longest one fetch of an external remote takes, in seconds.
    #[arg(long, env = "LUDIS_GIT_FETCH_TIMEOUT_SECONDS", default_value_t = 300)]
    pub git_fetch_timeout_seconds: u64,

    /// Seed the superadmin, demo organization, flighting and default images on first start.
    #[arg(long, env = "LUDIS_SEED", default_value_t = true, action = clap::ArgAction::Set)]
    pub seed: bool,

    /// Give every organization the sample datasets of `seeds/datasets/` (read-only, shared with
    /// the whole organization), at start and when an organization is created.
    #[arg(long, env = "LUDIS_SAMPLE_DATASETS", default_value_t = true, action = clap::ArgAction::Set)]
    pub sample_datasets: bool,

    /// E-mail of the seeded superadmin.
    #[arg(long, env = "LUDIS_ADMIN_EMAIL", default_value = "admin@ludis.local")]
    pub admin_email: String,

    /// Password of the seeded superadmin; when empty one is generated and printed once.
    #[arg(
        long,
        env = "LUDIS_ADMIN_PASSWORD",
        default_value = "",
        hide_env_values = true
    )]
    pub admin_password: Secret,

    /// Support address shown in the console.
    #[arg(long, env = "LUDIS_SUPPORT_EMAIL", default_value = "support@ludis.local")]
    pub support_email: String,

    /// Documentation link shown in the console.
    #[arg(long, env = "LUDIS_DOCS_URL", default_value = "https://ludis.dev/docs")]
    pub docs_url: String,

    /// Seconds within which every request ends. The app proxy (`/apps/…`) is not limited: it
    /// carries streams and websockets.
    #[arg(long, env = "LUDIS_REQUEST_TIMEOUT", default_value_t = 30)]
    pub request_timeout: u64,

    /// The most data rows a template app's call reads from its data file; a file with more is
    /// refused (422, naming the file, its size and this bound), never cut short.
    #[arg(long, env = "LUDIS_TEMPLATE_MAX_ROWS", default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub template_max_rows: u64,

    /// Seconds a template app's call may take, waiting for a worker included: a call still
    /// waiting then is answered 503 with `Retry-After`, a computation still running then is
    /// stopped (503). Keep it below `LUDIS_REQUEST_TIMEOUT`.
    #[arg(long, env = "LUDIS_TEMPLATE_TIMEOUT_SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub template_timeout_secs: u64,

    /// Template computations that run at the same time across the API (each user's run one at a
    /// time, in line); 0: one a core.
    #[arg(long, env = "LUDIS_TEMPLATE_WORKERS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1024))]
    pub template_workers: u64,

    /// The origin published apps are served from (`https://apps.ludis.example`), apart from the
    /// console's, so an app's scripts cannot read the console's tokens; `https://*.apps.ludis.example`
    /// gives every app an origin of its own (`https://<app id>.apps.ludis.example`, a wildcard DNS
    /// name and certificate), so apps cannot reach each other either. Requests for these hosts reach
    /// only `/apps/…` (their own app's, for per-app origins), and `/apps/…` answers only there.
    /// Empty: no application running in the cluster is served (the log and each app's page say
    /// why), unless `LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN` allows the console's origin.
    #[arg(long, env = "LUDIS_APPS_ORIGIN", default_value = "")]
    pub apps_origin: AppsOrigin,

    /// The assistant's provider: the base URL of any OpenAI-compatible chat-completions endpoint
    /// (`https://api.openai.com/v1`, vLLM's or Ollama's `http://host:port/v1`, llama.cpp's server);
    /// `/chat/completions` is added. Empty: the platform runs without the assistant and the
    /// console says how to configure one.
    #[arg(long, env = "LUDIS_AI_URL", default_value = "")]
    pub ai_url: String,

    /// The model the provider is asked for.
    #[arg(long, env = "LUDIS_AI_MODEL", default_value = "")]
    pub ai_model: String,

    /// The provider's API key (sent as `Authorization: Bearer`); empty: none.
    #[arg(long, env = "LUDIS_AI_KEY", default_value = "", hide_env_values = true)]
    pub ai_key: Secret,

    /// Requests to the assistant (chat messages and log summaries) one user may make a minute.
    #[arg(long, env = "LUDIS_AI_REQUESTS_PER_MINUTE", default_value_t = 20)]
    pub ai_requests_per_minute: u32,

    /// The most tokens one answer of the assistant may have.
    #[arg(long, env = "LUDIS_AI_MAX_TOKENS", default_value_t = 512)]
    pub ai_max_tokens: u32,

    /// The ETHEREUM chain's JSON-RPC endpoint (`http(s)://…`; a hosted provider's key may be in
    /// its path, so it is treated as a secret). Empty: the chain is not reached, and collections
    /// on it cannot be validated or indexed.
    #[arg(
        long,
        env = "LUDIS_WEB3_RPC_ETHEREUM",
        default_value = "",
        hide_env_values = true
    )]
    pub web3_rpc_ethereum: Secret,

    /// The POLYGON chain's JSON-RPC endpoint, as `LUDIS_WEB3_RPC_ETHEREUM`.
    #[arg(
        long,
        env = "LUDIS_WEB3_RPC_POLYGON",
        default_value = "",
        hide_env_values = true
    )]
    pub web3_rpc_polygon: Secret,

    /// How many blocks one `eth_getLogs` call of the indexer asks for at first (halved while a
    /// node refuses a range as too large).
    #[arg(long, env = "LUDIS_WEB3_BLOCK_RANGE", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub web3_block_range: u64,

    /// Serve published apps from the console's own origin when `LUDIS_APPS_ORIGIN` is empty. An
    /// app's scripts can then read the console's tokens and act as whoever opens it: only for a
    /// platform whose every author is trusted. Ignored when `LUDIS_APPS_ORIGIN` is set.
    #[arg(long, env = "LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN", default_value_t = false, action = clap::ArgAction::Set)]
    pub allow_apps_on_console_origin: bool,

    /// Where Prometheus metrics are served (`GET /metrics`, OpenMetrics text), on a listener of
    /// their own, never the public one (`0.0.0.0:9090` in a cluster); empty: no metrics listener.
    #[arg(long, env = "LUDIS_METRICS_LISTEN", default_value = "")]
    pub metrics_listen: OptionalListen,

    /// Where the storage gateway listens (STS and S3 for pods: docs/design.md "Storage from
    /// pods"), on a listener of its own that pods reach (`0.0.0.0:8082` in a cluster; the
    /// operator's `LUDIS_STORAGE_URL` names it to pods); empty: no gateway, and pods reach no
    /// dataset.
    #[arg(long, env = "LUDIS_STORAGE_LISTEN", default_value = "")]
    pub storage_listen: OptionalListen,

    /// Apply the NetworkPolicies `ludis-default` and `ludis-web` to every organization's namespace
    /// (when it is created, and at start to every existing one; when off, the API removes the
    /// ones it made): previews, notebooks and apps are reached only from the API (its pods, or
    /// `LUDIS_ORG_NETWORK_API_CIDRS`), every other user pod from nowhere, and user pods reach only
    /// cluster DNS, the API's git server (on the API's port) and `LUDIS_ORG_NETWORK_EGRESS_CIDRS`.
    /// The cluster's network plugin must enforce NetworkPolicies.
    #[arg(long, env = "LUDIS_ORG_NETWORK_POLICY", default_value_t = true, action = clap::ArgAction::Set)]
    pub org_network_policy: bool,

    /// Where the API is when it does not run in a pod of the cluster (a process on a host that
    /// reaches pods, as in development): comma-separated CIDRs (`10.141.255.1/32`) from which its
    /// requests reach previews and apps, and on whose API port (`LUDIS_API_LISTEN`'s; none when
    /// that is 0) user pods reach its git server; empty: only the API's pods (the chart's).
    #[arg(long, env = "LUDIS_ORG_NETWORK_API_CIDRS", default_value = "")]
    pub org_network_api_cidrs: ApiCidrs,

    /// Comma-separated networks user pods may reach besides, each with all its ports or one:
    /// `10.0.5.0/24` (all ports), `10.0.5.7/32:9000` (TCP), `10.0.0.10/32:53/udp` — the object
    /// store, a package mirror, a DNS server outside `kube-system`; empty: none.
    #[arg(long, env = "LUDIS_ORG_NETWORK_EGRESS_CIDRS", default_value = "")]
    pub org_network_egress_cidrs: EgressCidrs,

    /// The OTLP/HTTP collector spans are exported to (`http://otel-collector:4318`; `/v1/traces`
    /// is added), when the API is built with the `otel` feature; empty: no export.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_ENDPOINT", default_value = "")]
    pub otel_exporter_otlp_endpoint: String,

    /// The service name of exported spans.
    #[arg(long, env = "OTEL_SERVICE_NAME", default_value = "ludis-api")]
    pub otel_service_name: String,
}

/// Where published apps that run in the cluster are served ([`Settings::apps_placement`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppsPlacement<'a> {
    /// On an origin of their own (`LUDIS_APPS_ORIGIN`).
    Origin(&'a Origin),
    /// On the console's origin, allowed explicitly (`LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN`).
    ConsoleOrigin,
    /// Nowhere: no apps origin is configured and the console's is not allowed.
    Refused,
}

/// Why no app is served under [`AppsPlacement::Refused`], for the log, the proxy and app pages.
pub const APPS_ORIGIN_MISSING: &str = "Published apps cannot be opened: this platform has no origin for them \
    (LUDIS_APPS_ORIGIN). Ask your administrator.";

/// `LUDIS_APPS_ORIGIN`: `http(s)://[*.]host[:port]`, or empty for the console's own origin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AppsOrigin(Option<Origin>);

/// A web origin (scheme, host and port), or with `*.` one per app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    https: bool,
    /// `<app id>.` before the host: an origin per app.
    per_app: bool,
    /// Lowercase, without `*.`; an IPv6 address keeps its brackets.
    host: String,
    port: u16,
}

impl AppsOrigin {
    /// The separate origin, if one is configured.
    pub fn get(&self) -> Option<&Origin> {
        self.0.as_ref()
    }
}

impl std::str::FromStr for AppsOrigin {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(Self(None));
        }
        let invalid = || {
            format!(
                "{s:?} is not an origin like https://apps.ludis.example or https://*.apps.ludis.example \
                 (scheme, host and an optional port)"
            )
        };
        let uri: axum::http::Uri = s.parse().map_err(|_| invalid())?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(invalid()),
        };
        let authority = uri.authority().ok_or_else(invalid)?;
        if authority.as_str().contains('@') || uri.path() != "/" || uri.query().is_some() || s.ends_with('?')
        {
            return Err(invalid());
        }
        let host = authority.host().trim_end_matches('.').to_ascii_lowercase();
        let (per_app, host) = match host.strip_prefix("*.") {
            Some(rest) => (true, rest.to_owned()),
            None => (false, host),
        };
        if host.is_empty() || host.contains('*') || (per_app && host.starts_with('[')) {
            return Err(invalid());
        }
        let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
        Ok(Self(Some(Origin {
            https,
            per_app,
            host,
            port,
        })))
    }
}

impl Origin {
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// Whether every app gets an origin of its own (`<app id>.host`).
    pub fn is_per_app(&self) -> bool {
        self.per_app
    }

    /// Whether browsers treat this origin as secure although it is plain http: `localhost`,
    /// `*.localhost` and loopback addresses ("potentially trustworthy"; they accept `Secure`
    /// cookies from it).
    pub fn is_potentially_trustworthy(&self) -> bool {
        self.https
            || self.host == "localhost"
            || self.host.ends_with(".localhost")
            || (!self.per_app
                && (self.host == "[::1]"
                    || self
                        .host
                        .parse::<std::net::Ipv4Addr>()
                        .is_ok_and(|ip| ip.is_loopback())))
    }

    /// The origin app `app_id` is served from, as written in URLs (the port only when it is not
    /// the scheme's default).
    pub fn of_app(&self, app_id: &str) -> String {
        let (scheme, default) = if self.https { ("https", 443) } else { ("http", 80) };
        let label = if self.per_app {
            format!("{app_id}.")
        } else {
            String::new()
        };
        let port = if self.port == default {
            String::new()
        } else {
            format!(":{}", self.port)
        };
        format!("{scheme}://{label}{}{port}", self.host)
    }

    /// What a request's `Host` (or HTTP/2 `:authority`; the port may be left out when it is the
    /// scheme's default) names: `None` when not this origin, `Some(None)` for a single apps
    /// origin, `Some(Some(label))` for the per-app origin of app `label`.
    pub fn app_of_host<'h>(&self, host: &'h str) -> Option<Option<&'h str>> {
        let authority = host.parse::<axum::http::uri::Authority>().ok()?;
        if authority.port_u16().unwrap_or(if self.https { 443 } else { 80 }) != self.port {
            return None;
        }
        let name = authority.host().trim_end_matches('.');
        // `authority.host()` borrows from `authority`; take the same span of `host` instead.
        let name = &host[..name.len()];
        if !self.per_app {
            return name.eq_ignore_ascii_case(&self.host).then_some(None);
        }
        let (label, rest) = name.split_once('.')?;
        (!label.is_empty() && rest.eq_ignore_ascii_case(&self.host)).then_some(Some(label))
    }

    /// Whether a request's `Host` names this origin (any app's, for per-app origins).
    pub fn matches_host(&self, host: &str) -> bool {
        self.app_of_host(host).is_some()
    }
}

/// `https://[*.]host[:port]`, the port only when it is not the scheme's default.
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.of_app("*"))
    }
}

impl Settings {
    /// Where pods reach this API (`LUDIS_GIT_URL` without its `/git`), if it is known.
    pub fn pod_api_base(&self) -> Option<&str> {
        let base = self.git_url.trim().trim_end_matches('/').strip_suffix("/git")?;
        (!base.is_empty()).then_some(base)
    }

    /// Where published apps are served: their own origin when configured, else the console's
    /// when allowed, else nowhere.
    pub fn apps_placement(&self) -> AppsPlacement<'_> {
        match self.apps_origin.get() {
            Some(o) => AppsPlacement::Origin(o),
            None if self.allow_apps_on_console_origin => AppsPlacement::ConsoleOrigin,
            None => AppsPlacement::Refused,
        }
    }

    /// Flags, environment, then the settings file named by `LUDIS_CONFIG_FILE` (if any).
    pub fn load() -> anyhow::Result<Self> {
        let mut args: Vec<String> = std::env::args().collect();
        if let Ok(path) = std::env::var("LUDIS_CONFIG_FILE") {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("failed to read the settings file {path}: {e}"))?;
            let from_file = file_args(&text, |k| std::env::var_os(k).is_some())?;
            // File values go first, so flags given on the command line override them.
            args.splice(1..1, from_file);
        }
        Ok(Self::try_parse_from(args)?)
    }

    /// Settings for tests: port 0, the given database, no cluster required, fixed secrets,
    /// cheap password hashing, no seeding.
    pub fn for_tests(database_url: impl Into<String>, console_dir: PathBuf) -> Self {
        let mut s = Self::try_parse_from(["ludis-api"]).expect("defaults parse");
        s.listen = "127.0.0.1:0".parse().expect("valid address");
        s.database_url = database_url.into();
        s.console_dir = console_dir;
        s.require_cluster = false;
        s.jwt_secret = Secret("test-jwt-secret-that-is-long-enough-0123456789".into());
        // "test-key-test-key-test-key-12345" (32 bytes), base64.
        s.encryption_keys = Secret("t1:dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktMTIzNDU=".into());
        s.argon2_memory_kib = 64;
        s.argon2_iterations = 1;
        s.seed = false;
        s.sample_datasets = false;
        s.s3_endpoint = String::new();
        // Tests that reach the chains say so (tests/api/web3.rs).
        s.web3_rpc_ethereum = Secret::default();
        s.web3_rpc_polygon = Secret::default();
        // The tests' git servers listen on loopback without TLS.
        s.git_allow_http_loopback = true;
        s
    }
}

/// Turns `KEY=value` lines into `--flag=value` arguments for keys that are settings and not set
/// in the environment. Blank lines and `#` comments are skipped; unknown keys are an error.
fn file_args(text: &str, in_env: impl Fn(&str) -> bool) -> anyhow::Result<Vec<String>> {
    let command = Settings::command();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            anyhow::bail!("settings file line {}: expected KEY=value", n + 1);
        };
        let key = key.trim();
        let value = value.trim().trim_matches('"');
        let arg = command
            .get_arguments()
            .find(|a| a.get_env().is_some_and(|e| e == key))
            .ok_or_else(|| anyhow::anyhow!("settings file line {}: unknown setting {key}", n + 1))?;
        if !in_env(key) {
            let long = arg.get_long().expect("every setting has a long flag");
            out.push(format!("--{long}={value}"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_values_apply_unless_the_environment_has_them() {
        let text = "# comment\nLUDIS_API_LISTEN=0.0.0.0:9000\n\nLUDIS_LOG_FORMAT=json\n";
        let args = file_args(text, |k| k == "LUDIS_LOG_FORMAT").unwrap();
        assert_eq!(args, vec!["--listen=0.0.0.0:9000".to_owned()]);
        let s = Settings::try_parse_from(
            std::iter::once("ludis-api".to_owned())
                .chain(args)
                .chain(["--listen=127.0.0.1:1".to_owned()]),
        )
        .unwrap();
        assert_eq!(s.listen.port(), 1, "a flag overrides the file");
    }

    #[test]
    fn pods_reach_the_api_where_they_reach_its_git_server() {
        let with = |url: &str| {
            Settings::try_parse_from(["ludis-api".to_owned(), format!("--git-url={url}")])
                .unwrap()
                .pod_api_base()
                .map(str::to_owned)
        };
        assert_eq!(
            with("http://10.141.255.1:8080/git").as_deref(),
            Some("http://10.141.255.1:8080")
        );
        assert_eq!(
            with("http://ludis-api.ludis-system.svc:80/git/").as_deref(),
            Some("http://ludis-api.ludis-system.svc:80")
        );
        assert_eq!(with(""), None);
        assert_eq!(with("http://elsewhere.example/repos"), None);
    }

    #[test]
    fn unknown_keys_in_the_file_are_errors() {
        let err = file_args("LUDIS_NOPE=1", |_| false).unwrap_err();
        assert!(err.to_string().contains("unknown setting LUDIS_NOPE"), "{err}");
    }

    #[test]
    fn apps_origins_parse_and_match_hosts() {
        let none: AppsOrigin = "".parse().unwrap();
        assert_eq!(none.get(), None);
        assert_eq!(Settings::try_parse_from(["ludis-api"]).unwrap().apps_origin, none);

        let o: AppsOrigin = "https://Apps.Ludis.example/".parse().unwrap();
        let o = o.get().unwrap();
        assert_eq!(o.to_string(), "https://apps.ludis.example");
        assert!(o.is_https() && o.is_potentially_trustworthy());
        for host in [
            "apps.ludis.example",
            "APPS.ludis.example",
            "apps.ludis.example:443",
        ] {
            assert!(o.matches_host(host), "{host}");
        }
        for host in [
            "ludis.example",
            "apps.ludis.example:8443",
            "x.apps.ludis.example",
            "",
            "a b",
        ] {
            assert!(!o.matches_host(host), "{host}");
        }

        let dev: AppsOrigin = "http://apps.localhost:8080".parse().unwrap();
        let dev = dev.get().unwrap();
        assert_eq!(dev.to_string(), "http://apps.localhost:8080");
        assert!(!dev.is_https() && dev.is_potentially_trustworthy());
        assert!(dev.matches_host("apps.localhost:8080"));
        assert!(!dev.matches_host("apps.localhost"), "port 80 is another origin");
        assert!(!dev.matches_host("127.0.0.1:8080"));
        for (origin, trustworthy) in [
            ("http://127.0.0.1:9", true),
            ("http://[::1]:9", true),
            ("http://localhost", true),
            ("http://apps.internal", false),
        ] {
            let o: AppsOrigin = origin.parse().unwrap();
            assert_eq!(
                o.get().unwrap().is_potentially_trustworthy(),
                trustworthy,
                "{origin}"
            );
        }

        let per_app: AppsOrigin = "https://*.Apps.ludis.example".parse().unwrap();
        let per_app = per_app.get().unwrap();
        assert!(per_app.is_per_app());
        assert_eq!(per_app.to_string(), "https://*.apps.ludis.example");
        assert_eq!(per_app.of_app("a1"), "https://a1.apps.ludis.example");
        assert_eq!(per_app.app_of_host("a1.apps.ludis.example"), Some(Some("a1")));
        assert_eq!(per_app.app_of_host("A1.APPS.ludis.example:443"), Some(Some("A1")));
        for host in [
            "apps.ludis.example",
            "a.b.apps.ludis.example",
            ".apps.ludis.example",
            "a1.ludis.example",
        ] {
            assert_eq!(per_app.app_of_host(host), None, "{host}");
        }
        assert_eq!(o.app_of_host("apps.ludis.example"), Some(None));
        let dev: AppsOrigin = "http://*.apps.localhost:8080".parse().unwrap();
        let dev = dev.get().unwrap();
        assert!(dev.is_potentially_trustworthy());
        assert_eq!(dev.of_app("a1"), "http://a1.apps.localhost:8080");

        for bad in [
            "https://*",
            "https://*.",
            "https://a.*.example",
            "https://*.[::1]",
            "apps.ludis.example",
            "ftp://apps.ludis.example",
            "https://apps.ludis.example/apps",
            "https://apps.ludis.example?x=1",
            "https://user@apps.ludis.example",
            "https://",
        ] {
            assert!(bad.parse::<AppsOrigin>().is_err(), "{bad}");
        }
        let err = Settings::try_parse_from(["ludis-api", "--apps-origin=apps.example"]).unwrap_err();
        assert!(err.to_string().contains("is not an origin"), "{err}");
    }

    #[test]
    fn apps_are_refused_without_an_origin_unless_the_consoles_is_allowed() {
        let parse = |args: &[&str]| {
            Settings::try_parse_from(std::iter::once("ludis-api").chain(args.iter().copied())).unwrap()
        };
        assert_eq!(parse(&[]).apps_placement(), AppsPlacement::Refused);
        assert_eq!(
            parse(&["--allow-apps-on-console-origin=true"]).apps_placement(),
            AppsPlacement::ConsoleOrigin
        );
        let own = parse(&[
            "--apps-origin=https://*.apps.ludis.example",
            "--allow-apps-on-console-origin=true",
        ]);
        assert!(matches!(own.apps_placement(), AppsPlacement::Origin(o) if o.is_per_app()));
    }

    #[test]
    fn secrets_do_not_debug_print() {
        let s = Settings::for_tests("sqlite::memory:", PathBuf::from("/x"));
        let dbg = format!("{s:?}");
        assert!(!dbg.contains("test-jwt-secret"), "{dbg}");
    }
}
