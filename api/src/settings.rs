//! Typed settings: command-line flags, each with an environment variable fallback.

use std::{net::SocketAddr, path::PathBuf};

#[derive(Debug, Clone, clap::Parser)]
#[command(name = "ludis-api", version, about = "The Ludis API server")]
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
    /// Without one, `/readyz` reports the cluster as not configured instead of failing.
    #[arg(long, env = "LUDIS_REQUIRE_CLUSTER", default_value_t = true, action = clap::ArgAction::Set)]
    pub require_cluster: bool,

    /// Log format: `text` or `json`.
    #[arg(long, env = "LUDIS_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
}

impl Settings {
    /// Settings for tests: port 0, the given database, no cluster required.
    pub fn for_tests(database_url: impl Into<String>, console_dir: PathBuf) -> Self {
        Self {
            listen: "127.0.0.1:0".parse().expect("valid address"),
            database_url: database_url.into(),
            console_dir,
            require_cluster: false,
            log_format: "text".into(),
        }
    }
}
