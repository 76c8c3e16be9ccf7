//! Insight custom resources: written by the API (server-side apply, field manager `ludis-api`),
//! watched back into the database.
//!
//! STUB: the signatures the routes use; the implementation lands with the cluster work.

use crate::{app::AppState, db::insights::Insight};

/// Applies the Insight CR of `insight` (creating its namespace's object or updating the fields
/// the API owns). Without a cluster this does nothing.
pub async fn apply(state: &AppState, insight: &Insight, owner_email: Option<&str>) -> anyhow::Result<()> {
    let _ = (state, insight, owner_email);
    Ok(())
}

/// Sets `spec.running` (stop/restart).
pub async fn set_running(state: &AppState, insight: &Insight, running: bool) -> anyhow::Result<()> {
    let _ = (state, insight, running);
    Ok(())
}

/// Sets `spec.redeployToken` to a new value, which rolls the application.
pub async fn redeploy(state: &AppState, insight: &Insight) -> anyhow::Result<()> {
    let _ = (state, insight);
    Ok(())
}

/// Deletes the Insight CR (its children go with it).
pub async fn delete(state: &AppState, insight: &Insight) -> anyhow::Result<()> {
    let _ = (state, insight);
    Ok(())
}
