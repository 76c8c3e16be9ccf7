//! The application: state, router and server lifecycle.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context as _;
use axum::Router;
use sqlx::AnyPool;
use tokio::net::TcpListener;
use tower_http::{catch_panic::CatchPanicLayer, timeout::TimeoutLayer, trace::TraceLayer};

use crate::{routes, settings::Settings};

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    pub db: AnyPool,
    /// `None` when no cluster is configured and none is required.
    pub kube: Option<kube::Client>,
    pub settings: Arc<Settings>,
}

/// A built application, bound to its address but not yet serving.
pub struct App {
    listener: TcpListener,
    router: Router,
}

impl App {
    /// Connects to the database and the cluster, binds the listener and builds the router.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        sqlx::any::install_default_drivers();
        let db = sqlx::pool::PoolOptions::new()
            .acquire_timeout(Duration::from_secs(5))
            .connect(&settings.database_url)
            .await
            .with_context(|| {
                format!(
                    "failed to connect to the database {}",
                    redact(&settings.database_url)
                )
            })?;

        let kube = match kube::Client::try_default().await {
            Ok(client) => Some(client),
            Err(e) if settings.require_cluster => {
                return Err(e).context("failed to configure the Kubernetes client (set KUBECONFIG)");
            }
            Err(e) => {
                tracing::warn!(error = %e, "no Kubernetes cluster configured; cluster features are off");
                None
            }
        };

        let listener = TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("failed to listen on {}", settings.listen))?;
        let state = AppState {
            db,
            kube,
            settings: Arc::new(settings),
        };
        Ok(Self {
            listener,
            router: router(state),
        })
    }

    /// The bound address (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until SIGINT or SIGTERM, then drains in-flight requests.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown_signal())
            .await
    }
}

/// The route table: every resource module contributes its own router.
pub fn router(state: AppState) -> Router {
    let console = routes::console::service(&state.settings.console_dir);
    Router::new()
        .merge(routes::health::router())
        .fallback_service(console)
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(TraceLayer::new_for_http())
        .layer(CatchPanicLayer::new())
        .with_state(state)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = terminate => {} }
    tracing::info!("shutting down");
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{}{}:***{}", &url[..scheme_end + 3], user, &url[at..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn redact_hides_the_password_only() {
        assert_eq!(
            redact("postgres://ludis:s3cret@127.0.0.1:5432/db"),
            "postgres://ludis:***@127.0.0.1:5432/db"
        );
        assert_eq!(redact("sqlite://ludis.db?mode=rwc"), "sqlite://ludis.db?mode=rwc");
    }
}
