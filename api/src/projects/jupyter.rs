//! The token of a legacy project's notebook server (JupyterLab). It is made at each start,
//! kept encrypted at rest, given to the container through the project's environment Secret
//! (`JUPYTER_TOKEN`, which JupyterLab reads) and sent by the app proxy with every request it
//! forwards, so the server answers nobody else in the cluster. Users never see it: the proxy
//! signs them in with its own ticket and cookie.

use crate::{
    crypto,
    db::projects::{self as rows, Project},
    error::{ApiError, Result},
    state::AppState,
};
use axum::http::HeaderValue;

/// The variable JupyterLab takes its token from.
pub const TOKEN_VARIABLE: &str = "JUPYTER_TOKEN";

/// Makes a new token for project `id`'s next start.
async fn rotate_token(state: &AppState, id: &str) -> Result<()> {
    let token = crypto::random_token(32);
    rows::set_jupyter_token(&state.db, id, &state.auth.keyring.encrypt(&token)).await?;
    Ok(())
}

/// Gives `project`'s notebook server a new token for its next start (the project's environment
/// Secret carries it to the container).
pub async fn renew(state: &AppState, project: &Project) -> Result<()> {
    rotate_token(state, &project.asset.id).await?;
    crate::routes::projects::sync_secret(state, project).await
}

/// Gives `project`'s notebook server a new token for the restart of its pod `pod_uid`, unless
/// another API replica restarting that pod made one already (their sweeps find the same pod): a
/// second token would reach the database but not the new pod. Whether this call made it.
pub async fn renew_for_restart(state: &AppState, project: &Project, pod_uid: &str) -> Result<bool> {
    let token = state.auth.keyring.encrypt(&crypto::random_token(32));
    if !rows::replace_jupyter_token(&state.db, &project.asset.id, &token, pod_uid).await? {
        return Ok(false);
    }
    crate::routes::projects::sync_secret(state, project).await?;
    Ok(true)
}

/// Project `id`'s token, when it has one.
pub async fn token(state: &AppState, id: &str) -> Result<Option<String>> {
    rows::jupyter_token(&state.db, id)
        .await?
        .map(|s| {
            state
                .auth
                .keyring
                .decrypt(&s)
                .map_err(|e| ApiError::internal(format!("failed to decrypt a notebook token: {e:#}")))
        })
        .transpose()
}

/// The `Authorization` header the app proxy sends project `id`'s notebook server.
pub async fn authorization(state: &AppState, id: &str) -> Result<Option<HeaderValue>> {
    Ok(token(state, id)
        .await?
        .and_then(|t| HeaderValue::from_str(&format!("token {t}")).ok()))
}
