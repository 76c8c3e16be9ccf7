//! Liveness (`/healthz`: the process answers) and readiness (`/readyz`: its dependencies answer).

use std::time::Duration;

use axum::{Json, Router, extract::State, http::StatusCode, routing::get};
use serde::Serialize;

use crate::app::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> &'static str {
    "ok"
}

#[derive(Serialize)]
struct Readiness {
    ready: bool,
    checks: Checks,
}

#[derive(Serialize)]
struct Checks {
    database: String,
    cluster: String,
}

const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let database = async {
        let row: (i64,) = sqlx::query_as("SELECT 1").fetch_one(&state.db).await?;
        anyhow::ensure!(row.0 == 1, "unexpected answer");
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
