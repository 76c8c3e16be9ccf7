//! Liveness (`/healthz`: the process answers) and readiness (`/readyz`: its dependencies answer).

use std::time::Duration;

use axum::{Json, extract::State, http::StatusCode};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, body = String, example = "ok")))]
async fn healthz() -> &'static str {
    "ok"
}

#[derive(Serialize, ToSchema)]
struct Readiness {
    ready: bool,
    checks: Checks,
}

#[derive(Serialize, ToSchema)]
struct Checks {
    database: String,
    cluster: String,
}

const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// Readiness: the database and the cluster (when configured) answer.
#[utoipa::path(get, path = "/readyz", tag = "health", responses(
    (status = 200, body = Readiness), (status = 503, description = "A dependency does not answer", body = Readiness)))]
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let database = async {
        anyhow::ensure!(crate::db::ping(&state.db).await? == 1, "unexpected answer");
        Ok(())
    };
    let cluster = async {
        match &state.kube {
            Some(client) => client
                .apiserver_version()
                .await
                .map(|v| Some(v.git_version))
                .map_err(anyhow::Error::from),
            None => Ok(None),
        }
    };
    let (database, cluster) = tokio::join!(
        tokio::time::timeout(CHECK_TIMEOUT, database),
        tokio::time::timeout(CHECK_TIMEOUT, cluster)
    );
    let database = match database {
        Ok(Ok(())) => Ok("ok".to_owned()),
        Ok(Err(e)) => Err(format!("error: {e}")),
        Err(_) => Err("error: timed out".to_owned()),
    };
    let cluster: Result<String, String> = match cluster {
        Ok(Ok(Some(version))) => Ok(format!("ok ({version})")),
        Ok(Ok(None)) => Ok("not configured".to_owned()),
        Ok(Err(e)) => Err(format!("error: {e}")),
        Err(_) => Err("error: timed out".to_owned()),
    };
    let ready = database.is_ok() && cluster.is_ok();
    if !ready {
        tracing::warn!(?database, ?cluster, "not ready");
    }
    let body = Readiness {
        ready,
        checks: Checks {
            database: database.unwrap_or_else(|e| e),
            cluster: cluster.unwrap_or_else(|e| e),
        },
    };
    (
        if ready {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        },
        Json(body),
    )
}
