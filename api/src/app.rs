//! The application: state, router and server lifecycle.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context as _;
use axum::{
    Router,
    extract::{DefaultBodyLimit, Request, State},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use sqlx::AnyPool;
use tokio::net::TcpListener;
use tower_http::{catch_panic::CatchPanicLayer, timeout::TimeoutLayer, trace::TraceLayer};

use crate::{
    auth::{Auth, AuthConfig, extract, jwt::TokenKind, password::HashParams},
    crypto::Keyring,
    db,
    error::ApiError,
    openapi, policy, routes, seeds,
    settings::{AppsPlacement, Secret, Settings},
};

/// JSON bodies are limited to 1 MiB; files go straight to object storage.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    pub db: AnyPool,
    /// `None` when no cluster is configured and none is required.
    pub kube: Option<kube::Client>,
    /// `None` when no S3 endpoint is configured.
    pub s3: Option<aws_sdk_s3::Client>,
    /// Presigns dataset addresses for the public S3 endpoint; `None` without object storage.
    pub presigner: Option<ludis_storage::presign::Presigner>,
    pub settings: Arc<Settings>,
    pub auth: Auth,
}

/// A built application, bound to its address but not yet serving.
pub struct App {
    listener: TcpListener,
    router: Router,
    state: AppState,
}

impl App {
    /// Connects to the database (and migrates it), the cluster and object storage, seeds first-start
    /// data, binds the listener and builds the router.
    pub async fn build(mut settings: Settings) -> anyhow::Result<Self> {
        sqlx::any::install_default_drivers();
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

        load_or_generate_secrets(&mut settings)?;
        let keyring =
            Keyring::parse(settings.encryption_keys.expose()).context("invalid LUDIS_ENCRYPTION_KEYS")?;
        for id in db::users::encrypted_key_ids(&db).await? {
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
        let state = AppState {
            db,
            kube,
            s3,
            presigner,
            settings: Arc::new(settings),
            auth,
        };
        if state.settings.seed {
            seeds::run(&state)
                .await
                .context("failed to seed first-start data")?;
        }
        Ok(Self {
            listener,
            router: router(state.clone()),
            state,
        })
    }

    /// The bound address (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The state (tests reach the database through it).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until SIGINT or SIGTERM, then drains in-flight requests. With a cluster, the
    /// Insight watcher runs meanwhile (see [`crate::cluster::watcher`]).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let watcher = crate::cluster::watcher::spawn(self.state.clone());
        // Every organization gets the sample datasets it was never given (in the background).
        tokio::spawn(crate::samples::ensure_all(self.state.clone()));
        let served = axum::serve(
            self.listener,
            self.router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await;
        if let Some(w) = watcher {
            w.abort();
        }
        served
    }
}

/// The route table: every resource module contributes its own router (see [`openapi::api`]).
pub fn router(state: AppState) -> Router {
    let console = routes::console::service(&state.settings.console_dir);
    let (api, _) = openapi::api().split_for_parts();
    let timed = Router::new()
        .merge(api)
        .route("/v1/{*rest}", axum::routing::any(not_found))
        .route("/v2/{*rest}", axum::routing::any(not_found))
        .fallback_service(console)
        .layer(middleware::from_fn_with_state(state.clone(), feature_gate))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(state.settings.request_timeout),
        ));
    // The app proxy streams bodies and websockets: no request timeout, no body limit.
    Router::new()
        .merge(routes::apps::router())
        .merge(timed)
        .layer(middleware::from_fn_with_state(state.clone(), apps_host_gate))
        .layer(TraceLayer::new_for_http())
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("a handler panicked").into_response()
        }))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found("route_not_found", "Not found")
}

/// With an apps origin (`LUDIS_APPS_ORIGIN`), its host serves only the app proxy (`/apps/…`; a
/// per-app origin only its app) and no other host serves the app proxy, so an app's scripts never
/// share an origin with the console or `/v1`. Anything misrouted answers 404.
async fn apps_host_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if routes::apps::misrouted(&state, req.headers(), req.uri()) {
        return not_found().await.into_response();
    }
    next.run(req).await
}

/// Flighting, enforced for every route of a feature area (`policy::flags::feature_for_path`):
/// a signed-in caller whose role the feature excludes gets 403. Unauthenticated requests pass on
/// to the route, which answers 401 itself.
async fn feature_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(key) = policy::flags::feature_for_path(req.uri().path()) else {
        return next.run(req).await;
    };
    // The caller: an access token's subject, or an API key's user (an unknown key is the
    // route's 401).
    let uid = if let Some(api_key) = req.headers().get("x-api-key").and_then(|v| v.to_str().ok()) {
        match db::users::uid_by_api_key_hash(&state.db, &crate::crypto::sha256_hex(api_key.trim())).await {
            Ok(Some(uid)) => uid,
            Ok(None) => return next.run(req).await,
            Err(e) => return ApiError::from(e).into_response(),
        }
    } else {
        let Some(token) = extract::bearer(req.headers()) else {
            return next.run(req).await;
        };
        let Ok(claims) = extract::claims(&state, token) else {
            return next.run(req).await;
        };
        if claims.kind != TokenKind::Access {
            return next.run(req).await;
        }
        claims.sub
    };
    let claims = Subject { sub: uid };
    match gate_decision(&state, &claims.sub, key).await {
        Ok(true) => next.run(req).await,
        Ok(false) => {
            tracing::info!(user = %claims.sub, feature = key, "rejected: feature off for this role");
            ApiError::forbidden(
                "feature_disabled",
                format!(
                    "The {} feature is not enabled for your role",
                    policy::flags::feature_name(key).unwrap_or(key)
                ),
            )
            .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// Who the feature gate decides for.
struct Subject {
    sub: String,
}

async fn gate_decision(state: &AppState, uid: &str, key: &str) -> Result<bool, ApiError> {
    let Some(user) = db::users::by_uid(&state.db, uid).await? else {
        return Ok(true); // the route's extractor rejects the token
    };
    let flag = db::flighting::one(&state.db, &user.organization_id, key).await?;
    Ok(policy::flags::allowed(&user.role, flag.as_ref()))
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
