//! The application: building the state (database, cluster, object storage, keys) and the
//! server's lifecycle. The route table is [`crate::routes`].

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context as _;
use axum::Router;
use tokio::net::TcpListener;

use crate::{
    auth::{AuthConfig, password::HashParams},
    crypto::Keyring,
    db, routes, seeds,
    settings::{AppsPlacement, Secret, Settings},
    state::AppState,
};

/// A built application, bound to its address but not yet serving.
pub struct App {
    listener: TcpListener,
    /// `LUDIS_METRICS_LISTEN`'s, when set.
    metrics_listener: Option<TcpListener>,
    /// `LUDIS_STORAGE_LISTEN`'s (the storage gateway), when set.
    storage_listener: Option<TcpListener>,
    router: Router,
    state: AppState,
}

impl App {
    /// Connects to the database (and migrates it), the cluster and object storage, seeds first-start
    /// data, binds the listener and builds the router.
    pub async fn build(mut settings: Settings) -> anyhow::Result<Self> {
        sqlx::any::install_default_drivers();
        crate::cluster::organization_access::Binding::from_settings(
            &settings.organization_role,
            settings.service_account.as_ref(),
        )
        .map_err(anyhow::Error::msg)?;
        // rustls links two providers (ring, ours; aws-lc-rs, through s3s-aws's SDK features):
        // every TLS client without its own takes ring.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let db = db::pool_options()
            .connect(&settings.database_url)
            .await
            .with_context(|| {
                format!(
                    "failed to connect to the database {}",
                    redact(&settings.database_url)
                )
            })?;
        db::migrate(&db).await?;

        let metrics = Arc::new(crate::telemetry::Metrics::new(db.clone()));
        let kube = match crate::telemetry::cluster::client(metrics.clone()).await {
            Ok(client) => Some(client),
            Err(e) if settings.require_cluster => {
                return Err(e).context("failed to configure the Kubernetes client (set KUBECONFIG)");
            }
            Err(e) => {
                tracing::warn!(error = %e, "no Kubernetes cluster configured; cluster features are off");
                None
            }
        };

        load_keys(&mut settings, kube.as_ref()).await?;
        let keyring =
            Keyring::parse(settings.encryption_keys.expose()).context("invalid LUDIS_ENCRYPTION_KEYS")?;
        let stored = db::users::encrypted_key_ids(&db).await?;
        for id in stored
            .into_iter()
            .chain(db::projects::encrypted_key_ids(&db).await?)
        {
            anyhow::ensure!(
                keyring.has_key(&id),
                "the database holds values encrypted with key {id:?}, which LUDIS_ENCRYPTION_KEYS does not have; \
                 refusing to start"
            );
        }
        anyhow::ensure!(
            settings.jwt_secret.expose().len() >= 32,
            "LUDIS_JWT_SECRET must be at least 32 characters"
        );

        let s3_settings = ludis_storage::S3Settings {
            endpoint: settings.s3_endpoint.clone(),
            region: settings.s3_region.clone(),
            access_key: settings.s3_access_key.clone(),
            secret_key: settings.s3_secret_key.expose().to_owned(),
        };
        let s3 = (!settings.s3_endpoint.is_empty()).then(|| ludis_storage::client(&s3_settings));
        let presigner = (!settings.s3_endpoint.is_empty()).then(|| {
            let public = settings.s3_public_endpoint.trim();
            if public.is_empty() {
                ludis_storage::presign::Presigner::new(&s3_settings)
            } else {
                ludis_storage::presign::Presigner::with_endpoint(&s3_settings, public)
            }
        });
        if let Some(s3) = &s3
            && let Err(e) = ludis_storage::ensure_bucket(s3, &settings.s3_bucket).await
        {
            tracing::warn!(bucket = %settings.s3_bucket, error = %e, "the assets bucket is not reachable yet");
        }

        let auth = Arc::new(AuthConfig {
            jwt_key: ring::hmac::Key::new(ring::hmac::HMAC_SHA256, settings.jwt_secret.expose().as_bytes()),
            tokens: crate::auth::jwt::Keys::new(settings.jwt_secret.expose()),
            keyring,
            hash: HashParams {
                memory_kib: settings.argon2_memory_kib,
                iterations: settings.argon2_iterations,
            },
            access_ttl: settings.access_token_ttl,
            refresh_idle_ttl: settings.refresh_idle_ttl,
            refresh_absolute_ttl: settings.refresh_absolute_ttl,
            address_failures: settings.throttle_address_failures,
        });

        match settings.apps_placement() {
            AppsPlacement::Refused => tracing::error!(
                "published apps are not served: LUDIS_APPS_ORIGIN is empty. Give them an origin of \
                 their own (https://*.apps.ludis.example: one per app, a host pointing at this API), \
                 so a published app's scripts cannot read the console's tokens; or set \
                 LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN=true if every app author is trusted"
            ),
            AppsPlacement::ConsoleOrigin => tracing::warn!(
                "apps are served from the console's origin (LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN): a \
                 published app's scripts can read the console's tokens; set LUDIS_APPS_ORIGIN"
            ),
            AppsPlacement::Origin(o) => {
                if !o.is_potentially_trustworthy() {
                    tracing::warn!(
                        apps_origin = %o,
                        "LUDIS_APPS_ORIGIN is plain http: an app keeps its session inside the console's \
                         frame only when the console is on the same site; use https"
                    );
                }
                if !o.is_per_app() {
                    tracing::warn!(
                        apps_origin = %o,
                        "every app shares one apps origin, so an app's scripts can use a viewer's \
                         session of another app they opened; use https://*.<host> for one per app"
                    );
                }
                tracing::info!(apps_origin = %o, "apps are served from their own origin");
            }
        }

        let listener = TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("failed to listen on {}", settings.listen))?;
        let metrics_listener = match settings.metrics_listen.0 {
            Some(address) => Some(
                TcpListener::bind(address)
                    .await
                    .with_context(|| format!("failed to listen on {address} (LUDIS_METRICS_LISTEN)"))?,
            ),
            None => None,
        };
        let storage_listener = match settings.storage_listen.0 {
            Some(address) => Some(
                TcpListener::bind(address)
                    .await
                    .with_context(|| format!("failed to listen on {address} (LUDIS_STORAGE_LISTEN)"))?,
            ),
            None => None,
        };
        let git = crate::projects::git::git_store(&settings);
        let ai = crate::ai::Assistant::from_settings(&settings)
            .context("invalid assistant settings")?
            .map(Arc::new);
        if ai.is_none() {
            tracing::info!("no assistant: LUDIS_AI_URL is empty");
        }
        let web3 = crate::web3::Web3::from_settings(&settings).context("invalid web3 settings")?;
        let state = AppState {
            templates: Arc::new(crate::templates::pool::Pool::from_settings(&settings)),
            web3: Arc::new(web3),
            db,
            kube,
            s3,
            presigner,
            settings: Arc::new(settings),
            auth,
            git,
            ai,
            metrics,
            runners: crate::runners::Recorded::default(),
            idle: crate::idle::Clocks::default(),
        };
        if state.settings.seed {
            seeds::run(&state)
                .await
                .context("failed to seed first-start data")?;
        }
        Ok(Self {
            listener,
            metrics_listener,
            storage_listener,
            router: routes::router(state.clone()),
            state,
        })
    }

    /// The bound address (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The metrics listener's bound address, when there is one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listener
            .as_ref()
            .map(|l| l.local_addr().expect("a bound listener has an address"))
    }

    /// The storage gateway's bound address, when there is one.
    pub fn storage_addr(&self) -> Option<SocketAddr> {
        self.storage_listener
            .as_ref()
            .map(|l| l.local_addr().expect("a bound listener has an address"))
    }

    /// The state (tests reach the database through it).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until SIGINT or SIGTERM, then drains in-flight requests. With a cluster, the
    /// Insight watcher runs meanwhile (see [`crate::cluster::watcher`]).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let watcher = crate::cluster::watcher::spawn(self.state.clone());
        let metrics = self.metrics_listener.map(|listener| {
            tokio::spawn(crate::telemetry::server::serve(
                listener,
                self.state.metrics.clone(),
            ))
        });
        let storage = self
            .storage_listener
            .map(|listener| tokio::spawn(crate::storage_gateway::serve(listener, self.state.clone())));
        // Organization namespaces get the API's RoleBinding, then their pods' storage client
        // configuration and their tier's quota, and get (or lose) their NetworkPolicy (in the
        // background).
        let state = self.state.clone();
        tokio::spawn(async move {
            crate::cluster::organization_access::ensure_all(&state).await;
            tokio::join!(
                crate::cluster::storage_client::ensure_all(state.clone()),
                crate::cluster::quota::ensure_all(state.clone()),
                crate::cluster::network_policy::reconcile_all(state.clone()),
            );
        });
        // Workflows e-mail their organization's members only: the operator's list of them.
        tokio::spawn(crate::mail_recipients::keep_current(self.state.clone()));
        // Pods where others than their owners ran code are restarted when those lose access.
        tokio::spawn(crate::runners::sweep(self.state.clone()));
        // Previews and notebook servers nobody uses stop; such apps scale to zero.
        tokio::spawn(crate::idle::sweep::run(self.state.clone()));
        // What the workloads set aside, minute by minute, for the organizations' usage.
        tokio::spawn(crate::compute::run(self.state.clone()));
        // Every organization gets the sample datasets it was never given (in the background).
        tokio::spawn(crate::samples::ensure_all(self.state.clone()));
        // Collections whose indexing was interrupted go on where they stopped.
        tokio::spawn(crate::web3::indexer::resume_all(self.state.clone()));
        let served = axum::serve(
            self.listener,
            self.router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await;
        if let Some(w) = watcher {
            w.abort();
        }
        if let Some(m) = metrics {
            m.abort();
        }
        if let Some(s) = storage {
            s.abort();
        }
        served
    }
}

/// Fills empty JWT and encryption settings: from the keys Secret when one is named
/// (`LUDIS_KEYS_SECRET`, with the first superadmin's generated password), else from the secrets
/// file.
async fn load_keys(settings: &mut Settings, kube: Option<&kube::Client>) -> anyhow::Result<()> {
    if !settings.jwt_secret.is_empty() && !settings.encryption_keys.is_empty() {
        return Ok(());
    }
    if settings.keys_secret.is_empty() {
        return load_or_generate_secrets(settings);
    }
    let client = kube.context("LUDIS_KEYS_SECRET names a Secret, but no Kubernetes cluster is configured")?;
    let keys = crate::cluster::keys_secret::load_or_create(
        client,
        &settings.system_namespace,
        &settings.keys_secret,
    )
    .await?;
    if settings.jwt_secret.is_empty() {
        settings.jwt_secret = keys.jwt_secret;
    }
    if settings.encryption_keys.is_empty() {
        settings.encryption_keys = keys.encryption_keys;
    }
    if settings.admin_password.is_empty()
        && let Some(password) = keys.admin_password
    {
        settings.admin_password = password;
    }
    Ok(())
}

/// Fills empty JWT and encryption settings from the secrets file, generating it on first start.
fn load_or_generate_secrets(settings: &mut Settings) -> anyhow::Result<()> {
    if !settings.jwt_secret.is_empty() && !settings.encryption_keys.is_empty() {
        return Ok(());
    }
    let path = settings.secrets_file.clone();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let text = format!(
                "# Generated by ludis-api for development. Set LUDIS_JWT_SECRET and LUDIS_ENCRYPTION_KEYS instead in production.\n\
                 LUDIS_JWT_SECRET={}\nLUDIS_ENCRYPTION_KEYS={}\n",
                crate::crypto::random_token(48),
                Keyring::generate_spec("k1"),
            );
            write_private(&path, &text).with_context(|| format!("failed to write {}", path.display()))?;
            tracing::warn!(file = %path.display(), "generated development secrets (set LUDIS_JWT_SECRET and LUDIS_ENCRYPTION_KEYS in production)");
            text
        }
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", path.display())),
    };
    for line in text.lines() {
        match line.split_once('=') {
            Some(("LUDIS_JWT_SECRET", v)) if settings.jwt_secret.is_empty() => {
                settings.jwt_secret = Secret(v.trim().into())
            }
            Some(("LUDIS_ENCRYPTION_KEYS", v)) if settings.encryption_keys.is_empty() => {
                settings.encryption_keys = Secret(v.trim().into())
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(text.as_bytes())
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
