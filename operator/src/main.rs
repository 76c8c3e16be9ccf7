//! The Ludis operator binary: health and metrics endpoints, leader election on a Lease, and the
//! controllers while this replica leads.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context as _;
use axum::{Router, extract::State, http::StatusCode, routing::get};
use clap::Parser;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::{Api, Client, client::ClientBuilder};
use kube_lease_manager::LeaseManagerBuilder;
use ludis_operator::{
    context::{Config, Context},
    controllers,
    metrics::Metrics,
    telemetry::{self, LogFormat},
};
use tokio::sync::watch;

#[derive(Debug, Parser)]
#[command(name = "ludis-operator", version, about = "The Ludis operator")]
struct Args {
    /// Address of `/healthz`, `/readyz` and `/metrics`.
    #[arg(long, env = "LUDIS_OPERATOR_LISTEN", default_value = "127.0.0.1:8081")]
    listen: SocketAddr,
    /// Namespace of the operator's own objects: the image list and the leader Lease.
    #[arg(long, env = "LUDIS_SYSTEM_NAMESPACE", default_value = "ludis-system")]
    system_namespace: String,
    /// ConfigMap (in the system namespace) with the administrator's image list.
    #[arg(long, env = "LUDIS_IMAGES_CONFIGMAP", default_value = "ludis-images")]
    images_configmap: String,
    /// Name of the size list ConfigMap in the system namespace.
    #[arg(long, env = "LUDIS_SIZES_CONFIGMAP", default_value = ludis_crds::sizes::CONFIGMAP)]
    sizes_configmap: String,
    /// Image of the git checkout init container.
    #[arg(long, env = "LUDIS_GIT_IMAGE", default_value = "alpine/git:2.47.2")]
    git_image: String,
    /// Where the API serves git to pods (the API's `LUDIS_GIT_URL`): repositories under it are
    /// cloned with the pod's own identity token, never a stored credential.
    #[arg(long, env = "LUDIS_GIT_URL", default_value = "")]
    git_url: String,
    /// Where pods reach the API's storage gateway (S3 and STS on one endpoint, e.g.
    /// `http://10.146.0.1:8082`): pods exchange their own identity token there for short-lived
    /// credentials to their datasets. Empty: pods cannot reach datasets.
    #[arg(long, env = "LUDIS_STORAGE_URL", default_value = "")]
    storage_url: String,
    /// Image of workflow tick pods.
    #[arg(long, env = "LUDIS_TICK_IMAGE", default_value = "busybox:1.37")]
    tick_image: String,
    /// Image of dataset upload tasks and report publishing (runs the AWS CLI's `aws s3 cp`).
    #[arg(long, env = "LUDIS_UPLOAD_IMAGE", default_value = "amazon/aws-cli:2.22.0")]
    upload_image: String,
    /// Keys of the NoSchedule taints every workload pod tolerates (comma-separated; empty: none).
    #[arg(
        long,
        env = "LUDIS_WORKLOAD_TOLERATIONS",
        value_delimiter = ',',
        default_value = "ludis.dev/workloads"
    )]
    workload_tolerations: Vec<String>,
    /// Bucket of organizations whose namespace has no `ludis.dev/bucket` annotation.
    #[arg(long, env = "LUDIS_DEFAULT_BUCKET", default_value = "ludis")]
    default_bucket: String,
    /// Storage class of workspace volumes (default: the cluster's default class).
    #[arg(long, env = "LUDIS_STORAGE_CLASS")]
    storage_class: Option<String>,
    /// Endpoint of the datasets' object storage (any S3-protocol server).
    #[arg(long, env = "LUDIS_S3_ENDPOINT")]
    s3_endpoint: Option<String>,
    /// Region of the object storage.
    #[arg(long, env = "LUDIS_S3_REGION", default_value = "us-east-1")]
    s3_region: String,
    /// Access key of the object storage.
    #[arg(long, env = "LUDIS_S3_ACCESS_KEY", default_value = "")]
    s3_access_key: String,
    /// Secret key of the object storage.
    #[arg(long, env = "LUDIS_S3_SECRET_KEY", default_value = "", hide_env_values = true)]
    s3_secret_key: String,
    /// SMTP server for workflow notifications (host:port); unset: no e-mail is sent.
    #[arg(long, env = "LUDIS_SMTP_SERVER")]
    smtp_server: Option<String>,
    /// Sender address of notifications.
    #[arg(long, env = "LUDIS_SMTP_FROM", default_value = "ludis@localhost")]
    smtp_from: String,
    /// Workflow e-mail deliveries (messages × recipients) each organization may make per hour.
    #[arg(long, env = "LUDIS_MAIL_PER_ORGANIZATION_PER_HOUR", default_value_t = ludis_operator::mail_policy::DEFAULT_PER_HOUR)]
    mail_per_organization_per_hour: u32,
    /// Name of the leader-election Lease.
    #[arg(long, env = "LUDIS_LEASE_NAME", default_value = "ludis-operator")]
    lease_name: String,
    /// Identity of this replica in the Lease (default: POD_NAME, else host name and pid).
    #[arg(long, env = "POD_NAME")]
    identity: Option<String>,
    /// Seconds a leader's Lease lasts without renewal (failover time after a crash).
    #[arg(long, env = "LUDIS_LEASE_SECONDS", default_value_t = 15)]
    lease_seconds: u64,
    /// Log lines as text or as JSON objects (one per line).
    #[arg(long, env = "LUDIS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

#[derive(Clone)]
struct Health {
    metrics: Arc<Metrics>,
    leader: watch::Receiver<bool>,
    client: Client,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    telemetry::init(args.log_format);
    let metrics = Arc::new(Metrics::default());
    // rustls may link two providers (a workspace build unifies the API's features, whose storage
    // gateway links aws-lc-rs): kube's TLS takes ring.
    let _ = rustls::crypto::ring::default_provider().install_default();
    // Every call to the API server (controllers, events, the Lease) is measured.
    let client = ClientBuilder::try_from(
        kube::Config::infer()
            .await
            .context("failed to configure the Kubernetes client")?,
    )
    .context("failed to configure the Kubernetes client")?
    .with_layer(&metrics.kube_requests_layer())
    .build();
    let version = client
        .apiserver_version()
        .await
        .context("failed to reach the Kubernetes API server")?;
    tracing::info!(server = %version.git_version, "connected to the cluster");
    check_crds(&client).await?;

    let identity = args.identity.clone().unwrap_or_else(|| {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        format!("{}-{}", host.trim(), std::process::id())
    });
    let config = Config {
        system_namespace: args.system_namespace.clone(),
        images_configmap: args.images_configmap,
        sizes_configmap: args.sizes_configmap,
        git_image: args.git_image,
        git_url: Some(args.git_url.trim().to_owned()).filter(|url| !url.is_empty()),
        storage_url: Some(args.storage_url.trim().to_owned()).filter(|url| !url.is_empty()),
        tick_image: args.tick_image,
        upload_image: args.upload_image,
        workload_tolerations: args
            .workload_tolerations
            .into_iter()
            .filter(|k| !k.is_empty())
            .collect(),
        default_bucket: args.default_bucket,
        storage_class: args.storage_class,
        smtp: match args.smtp_server {
            Some(server) => Some(ludis_operator::notify::SmtpSettings::parse(
                &server,
                &args.smtp_from,
            )?),
            None => None,
        },
        mail_per_hour: args.mail_per_organization_per_hour,
        s3: args.s3_endpoint.map(|endpoint| ludis_storage::S3Settings {
            endpoint,
            region: args.s3_region,
            access_key: args.s3_access_key,
            secret_key: args.s3_secret_key,
        }),
    };
    if config.storage_url.is_none() {
        tracing::warn!(
            "LUDIS_STORAGE_URL is empty: pods cannot reach datasets (no storage gateway to exchange their identity for credentials); report publishing and upload tasks will fail"
        );
    }
    let ctx = Arc::new(Context::new(
        client.clone(),
        config,
        metrics.clone(),
        Some(identity.clone()),
    ));

    let lease = LeaseManagerBuilder::new(client.clone(), &args.lease_name)
        .with_namespace(&args.system_namespace)
        .with_identity(&identity)
        .with_duration(args.lease_seconds)
        .with_grace(args.lease_seconds.div_ceil(3).max(1))
        .with_field_manager(ludis_crds::FIELD_MANAGER_OPERATOR)
        .build()
        .await
        .context("failed to set up leader election")?;
    let (mut leader, lease_task) = lease.watch().await;

    let health = Health {
        metrics: metrics.clone(),
        leader: leader.clone(),
        client: client.clone(),
    };
    let app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route(
            "/metrics",
            get(|State(h): State<Health>| async move { h.metrics.render() }),
        )
        .with_state(health);
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("failed to listen on {}", args.listen))?;
    tracing::info!(address = %args.listen, identity, "health and metrics endpoints listening");
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let mut stop = std::pin::pin!(shutdown_signal());
    loop {
        // Standby until this replica holds the Lease (or we are asked to stop).
        tokio::select! {
            _ = leader.wait_for(|l| *l) => {}
            () = &mut stop => break,
        }
        tracing::info!(identity, "leading: starting the controllers");
        metrics.set_leader(true);
        let mut lost = leader.clone();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let controllers = tokio::spawn(controllers::run(ctx.clone(), async move {
            let _ = stop_rx.await;
        }));
        let stopping = tokio::select! {
            _ = lost.wait_for(|l| !*l) => { tracing::warn!("lost the leader Lease: stopping the controllers"); false }
            () = &mut stop => true,
        };
        metrics.set_leader(false);
        let _ = stop_tx.send(());
        let _ = tokio::time::timeout(Duration::from_secs(20), controllers).await;
        if stopping {
            break;
        }
    }
    // Dropping every receiver (the health server holds one) releases the Lease, so a standby
    // takes over at once.
    server.abort();
    let _ = server.await;
    drop(leader);
    match tokio::time::timeout(Duration::from_secs(5), lease_task).await {
        Ok(Ok(Ok(_))) => tracing::info!("released the leader Lease"),
        other => tracing::warn!(?other, "could not release the leader Lease cleanly"),
    }
    Ok(())
}

/// Ready when the API server answers; leadership is not readiness (a standby is healthy).
async fn readyz(State(h): State<Health>) -> (StatusCode, String) {
    match tokio::time::timeout(Duration::from_secs(3), h.client.apiserver_version()).await {
        Ok(Ok(_)) => (StatusCode::OK, format!("ok (leader: {})", *h.leader.borrow())),
        Ok(Err(e)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the API server is not reachable: {e}"),
        ),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "the API server did not answer in time".into(),
        ),
    }
}

async fn check_crds(client: &Client) -> anyhow::Result<()> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    for crd in ludis_crds::all_crds() {
        let name = crd.metadata.name.unwrap_or_default();
        api.get_opt(&name)
            .await
            .context("failed to read CustomResourceDefinitions")?
            .with_context(|| {
                format!(
                    "the CRD {name} is not installed: kubectl apply --server-side -f charts/ludis/files/crds/"
                )
            })?;
    }
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { () = ctrl_c => {}, () = terminate => {} }
    tracing::info!("shutting down");
}
