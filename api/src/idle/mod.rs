//! Idle shutdown (issue 34): a running preview or notebook server stops, and a running app
//! scales to zero, once nobody used it for its organization's idle time (`idle_minutes`,
//! default 60; 0 never stops anything).
//!
//! - **Use** is what reaches the workload through this API: a request through the app proxy (an
//!   app, a preview's web view, a notebook server), an open websocket there, an open terminal or
//!   log stream. Each replica writes a workload's clock ([`crate::db::idle`]) at most every
//!   [`TOUCH_EVERY`] ([`touch`]); an open stream keeps writing it while it lasts ([`hold`]). A
//!   start sets the clock ([`started`]).
//! - **The sweep** ([`sweep::run`], every [`sweep::SWEEP_EVERY`]) stops a preview as its Stop
//!   button does (a resource-managed project's is its manifest's to stop, and is left alone) and
//!   marks an app `ludis.dev/idle-since`, which the operator scales to zero (phase `Idle`) while
//!   `spec.running` stays the owner's wish. An app pinned always on is left alone where its
//!   organization allows pins.
//! - **Waking**: the next request to an idle app through the proxy removes the mark ([`wake`]) and
//!   gets the proxy's waiting page, which loads the app again once it answers. A stopped preview
//!   starts with Run, as after any stop.
//! - The console shows when a workload stops if nobody uses it ([`Shutdown`]).

pub mod sweep;

use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{self, assets::AssetRow},
    recent::Recent,
    state::AppState,
};

/// A replica writes a workload's clock at most this often (and an open stream this often).
pub const TOUCH_EVERY: Duration = Duration::from_secs(30);

/// The default idle time of an organization, in minutes.
pub const DEFAULT_IDLE_MINUTES: i64 = 60;
/// The longest idle time an organization may have: a week.
pub const MAX_IDLE_MINUTES: i64 = 7 * 24 * 60;

/// The workloads whose clocks this replica wrote lately.
#[derive(Clone)]
pub struct Clocks(Recent);

impl Default for Clocks {
    fn default() -> Self {
        Self(Recent::new(TOUCH_EVERY))
    }
}

impl Clocks {
    /// Forgets that this replica wrote `asset_id`'s clock lately: its next use is written at
    /// once (for a clock set by other means, e.g. a test that moves a start back in time).
    pub fn forget(&self, asset_id: &str) {
        self.0.forget(asset_id);
    }
}

/// Workload `asset_id` is used now (written at most every [`TOUCH_EVERY`] by this replica).
pub async fn touch(state: &AppState, asset_id: &str) {
    if state.idle.0.fresh(asset_id) {
        return;
    }
    write(state, asset_id).await;
}

/// Workload `asset_id` starts now: its clock starts over (written at once).
pub async fn started(state: &AppState, asset_id: &str) {
    write(state, asset_id).await;
}

async fn write(state: &AppState, asset_id: &str) {
    match db::idle::touch(&state.db, asset_id, db::now()).await {
        Ok(()) => state.idle.0.remember(asset_id.to_owned()),
        // Not worth failing a request for: the workload may stop early at worst.
        Err(e) => tracing::warn!(asset = %asset_id, error = %e, "could not record a workload's use"),
    }
}

/// Keeps workload `asset_id` in use while the returned guard lives (an open stream).
#[must_use = "the workload counts as used only while the guard lives"]
pub fn hold(state: &AppState, asset_id: &str) -> Held {
    let (state, asset_id) = (state.clone(), asset_id.to_owned());
    let task = tokio::spawn(async move {
        loop {
            write(&state, &asset_id).await;
            tokio::time::sleep(TOUCH_EVERY).await;
        }
    });
    Held(task.abort_handle())
}

/// An open stream's hold on its workload ([`hold`]); dropping it lets the workload go idle.
pub struct Held(tokio::task::AbortHandle);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts idle app `app` again (its next request came): the operator scales it up; its clock
/// starts over.
pub async fn wake(state: &AppState, app: &AssetRow) -> anyhow::Result<()> {
    crate::cluster::insights::set_idle_since(state, app, None).await?;
    started(state, &app.id).await;
    tracing::info!(app = %app.id, "an idle application is asked for: starting it again");
    Ok(())
}

/// When a running workload stops if nobody uses it before, for the console.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct Shutdown {
    /// The organization's idle time, in minutes.
    pub idle_minutes: i64,
    /// When it stops if nobody uses it before (Unix seconds; the sweep may come up to a minute
    /// later).
    pub stops_at: i64,
}

/// When running workload `asset` stops if unused: none for an organization without an idle time,
/// nor for an app `pinned` always on where the organization allows it.
pub async fn shutdown_of(
    state: &AppState,
    asset: &AssetRow,
    pinned: bool,
) -> anyhow::Result<Option<Shutdown>> {
    let Some(org) = db::organizations::by_id(&state.db, &asset.organization_id).await? else {
        return Ok(None);
    };
    if org.idle_minutes <= 0 || (pinned && org.allow_always_on) {
        return Ok(None);
    }
    let now = db::now();
    let active_at = db::idle::get(&state.db, &asset.id)
        .await?
        .map_or(now, |c| c.active_at);
    Ok(Some(Shutdown {
        idle_minutes: org.idle_minutes,
        stops_at: active_at + org.idle_minutes * 60,
    }))
}
