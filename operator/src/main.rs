//! The Ludis operator binary. The controllers for Project, Insight, Workflow, WorkflowRun and
//! Dataset are added with the custom resources; today it connects to the cluster, reports the
//! server version and serves its health endpoints.

use std::net::SocketAddr;

use anyhow::Context as _;
use axum::{Router, routing::get};
use clap::Parser;

#[derive(Debug, Parser)]
#[command(name = "ludis-operator", version, about = "The Ludis operator")]
struct Args {
    /// Address of the health endpoints (`/healthz`, `/readyz`).
    #[arg(long, env = "LUDIS_OPERATOR_LISTEN", default_value = "127.0.0.1:8081")]
    listen: SocketAddr,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let client = kube::Client::try_default()
        .await
        .context("failed to configure the Kubernetes client")?;
    let version = client
        .apiserver_version()
        .await
        .context("failed to reach the Kubernetes API server")?;
    tracing::info!(server = %version.git_version, "connected to the cluster");

    let health = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(|| async { "ok" }));
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("failed to listen on {}", args.listen))?;
    tracing::info!(address = %args.listen, "health endpoints listening");
    axum::serve(listener, health)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
