//! What every handler shares: the database pool, the cluster and object-storage clients, the
//! settings and the authentication keys. Built once by [`crate::App::build`].

use std::sync::Arc;

use sqlx::AnyPool;

use crate::{auth::Auth, settings::Settings};

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
    /// Project repositories (hosted under `LUDIS_DATA_DIR`, external through caches there).
    pub git: ludis_git::GitStore,
    /// The assistant; `None` without `LUDIS_AI_URL`.
    pub ai: Option<Arc<crate::ai::Assistant>>,
    /// The chains and the collections' indexing jobs.
    pub web3: Arc<crate::web3::Web3>,
    /// The API's own Prometheus metrics ([`crate::telemetry::metrics`]).
    pub metrics: Arc<crate::telemetry::Metrics>,
    /// Where template apps' computations run (a worker limit, one at a time per user).
    pub templates: Arc<crate::templates::pool::Pool>,
    /// Uses of workload pods recorded lately ([`crate::runners`]).
    pub runners: crate::runners::Recorded,
    /// Workloads whose use this replica recorded lately ([`crate::idle`]).
    pub idle: crate::idle::Clocks,
}
