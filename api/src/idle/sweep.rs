//! The idle sweep: every [`SWEEP_EVERY`], each running workload nobody used for its
//! organization's idle time is stopped (a preview, a notebook server) or scaled to zero (an app).
//! Every replica sweeps; what one stopped the others see stopped.

use std::time::Duration;

use crate::{
    db::{
        self,
        idle::{Candidate, Workload},
        insights::InsightRow,
        projects::ProjectRow,
    },
    state::AppState,
};

/// How often the sweep looks.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// What one sweep did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Swept {
    /// Previews and notebook servers stopped.
    pub stopped: Vec<String>,
    /// Apps scaled to zero.
    pub idled: Vec<String>,
}

/// Sweeps every [`SWEEP_EVERY`] (with a cluster only: without one nothing runs).
pub async fn run(state: AppState) {
    if state.kube.is_none() {
        return;
    }
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match once(&state, db::now()).await {
            Ok(swept) if swept != Swept::default() => tracing::info!(?swept, "stopped idle workloads"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "the idle sweep failed"),
        }
    }
}

/// One sweep at `now` (Unix seconds): stops what was idle longer than its organization allows.
/// A workload that cannot be stopped now is tried again by the next sweep.
pub async fn once(state: &AppState, now: i64) -> anyhow::Result<Swept> {
    let mut swept = Swept::default();
    for c in db::idle::candidates(&state.db).await? {
        let clock = db::idle::clock_of(&state.db, &c.asset_id, now).await?;
        if clock.idled_at.is_some() || now - clock.active_at < c.idle_minutes * 60 {
            continue;
        }
        let stopped = match c.workload {
            Workload::Preview => stop_preview(state, &c).await,
            Workload::App => idle_app(state, &c, now).await,
        };
        match stopped {
            Ok(false) => {}
            Ok(true) => {
                db::idle::mark_idled(&state.db, &c.asset_id, clock.active_at, now).await?;
                match c.workload {
                    Workload::Preview => swept.stopped.push(c.asset_id),
                    Workload::App => swept.idled.push(c.asset_id),
                }
            }
            Err(e) => tracing::warn!(asset = %c.asset_id, error = %e, "could not stop an idle workload"),
        }
    }
    Ok(swept)
}

/// Stops an idle preview as its Stop button does; a resource-managed project's is left alone.
async fn stop_preview(state: &AppState, c: &Candidate) -> anyhow::Result<bool> {
    let Some(mut project) = db::details::by_id::<ProjectRow>(&state.db, &c.asset_id).await? else {
        return Ok(false);
    };
    if project.asset.is_managed() {
        tracing::debug!(project = %c.asset_id, "an idle preview of a resource-managed project is its manifest's to stop");
        return Ok(false);
    }
    crate::routes::set_preview_running(state, &mut project, false)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    tracing::info!(project = %c.asset_id, idle_minutes = c.idle_minutes, "stopped an idle preview");
    Ok(true)
}

/// Marks an idle app `ludis.dev/idle-since` now: the operator scales it to zero.
async fn idle_app(state: &AppState, c: &Candidate, now: i64) -> anyhow::Result<bool> {
    let Some(app) = db::details::by_id::<InsightRow>(&state.db, &c.asset_id).await? else {
        return Ok(false);
    };
    crate::cluster::insights::set_idle_since(state, &app.asset, Some(&db::rfc3339(now))).await?;
    tracing::info!(app = %c.asset_id, idle_minutes = c.idle_minutes, "scaled an idle application to zero");
    Ok(true)
}
