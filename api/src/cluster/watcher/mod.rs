//! The resource watcher: one task, started by the API when a cluster is configured, that mirrors
//! every Insight, Dataset, Project and Workflow custom resource (all namespaces) into the database, so a resource
//! applied with kubectl or a GitOps tool appears in its owner's console and the operator's
//! observations reach the rows the routes read. The kinds share everything ([`mirror`]: the
//! mirroring of one resource, its organization, row, owner and deletion; [`shares`]:
//! `spec.sharing`); what each kind decides is in its own module ([`insights`], [`datasets`], [`projects`],
//! [`workflows`]),
//! through [`mirror::Mirrored`].
//!
//! - **Organization**: the namespace's `ludis.dev/organization` label (an organization id), or a
//!   namespace named `ludis-<slug>` without the label. Resources in other namespaces are skipped
//!   (logged once per namespace); when such a namespace later gets an organization (the label
//!   appears), its resources are listed and mirrored then.
//! - **Row**: found by `(namespace, name)`, else by the `ludis.dev/id` label (a row the API made,
//!   or one made without a cluster, is adopted). A new resource gets a row with `origin =
//!   resource`, the label's id when it is a free UUID (else a new one); the label is never written
//!   back (GitOps would see drift) — the mapping is kept by `(namespace, name)`. A new resource
//!   the API applied itself waits a minute for the row the API writes right after (then it is
//!   adopted with `origin = api`).
//! - **Owner**: the `ludis.dev/owner` annotation when it names a user of the organization (uid or
//!   e-mail); otherwise none (the organization's administrators have it).
//! - **Sharing**: `spec.sharing` becomes the row's resource share entries (managed: the console
//!   cannot revoke them), replaced as a whole on every change: users by e-mail (an address with no
//!   account yet is kept as an e-mail entry, claimed when the user is created) and the
//!   organization.
//! - **Status**: an insight's phase, url and output go to the observed columns (only when the
//!   status describes the current generation); a status-only change writes only those.
//! - **Versions**: a row records the version of its resource it reflects (uid and
//!   `metadata.generation`), recorded too when the API applies the resource; an event of an older
//!   version than the row's is not mirrored (a rename by the API is never undone by the late event
//!   of the version before it).
//! - **Deletion**: a Delete event deletes the row; after every (re)list, rows of the kind with a
//!   resource that the list did not contain are deleted too (after checking the resource is
//!   really gone, and not for rows changed since the list began).
//!
//! Errors are logged and the watch goes on (with backoff when the API server fails); a lost event
//! is repaired by the next change of the resource or the next relist.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use futures::{StreamExt as _, stream};
use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{
        WatchStreamExt as _,
        utils::Backoff,
        watcher::{self, Event},
    },
};
use ludis_crds::{Dataset as DatasetCr, Insight as InsightCr, Project as ProjectCr, Workflow as WorkflowCr};

use crate::state::AppState;

mod datasets;
mod insights;
mod mirror;
mod projects;
mod shares;
mod workflows;

use mirror::{Mirror, Mirrored as _};

/// Mirrors `cr` now, as an `Apply` event of the watch would, whatever the watch itself has
/// delivered: a replay. When the resource changed since, the event is a late one; tests replay
/// such events to force their interleaving with the API's writes.
pub async fn replay_insight(state: AppState, client: Client, cr: InsightCr) {
    Mirror::new(state, client)
        .event::<InsightCr>(Event::Apply(DeserializeGuard(Ok(cr))))
        .await;
}

/// Starts the watcher when a cluster is configured.
pub fn spawn(state: AppState) -> Option<tokio::task::JoinHandle<()>> {
    let client = state.kube.clone()?;
    Some(tokio::spawn(run(state, client)))
}

/// Exponential backoff from half a second to ten seconds, reset after two quiet minutes.
struct Retry {
    next: Duration,
    last: Option<Instant>,
}

impl Retry {
    const MIN: Duration = Duration::from_millis(500);
    const MAX: Duration = Duration::from_secs(10);
    fn new() -> Self {
        Self {
            next: Self::MIN,
            last: None,
        }
    }
}

impl Iterator for Retry {
    type Item = Duration;
    fn next(&mut self) -> Option<Duration> {
        if self
            .last
            .is_some_and(|at| at.elapsed() > Duration::from_secs(120))
        {
            self.next = Self::MIN;
        }
        self.last = Some(Instant::now());
        let d = self.next;
        self.next = (self.next * 2).min(Self::MAX);
        Some(d)
    }
}

impl Backoff for Retry {
    fn reset(&mut self) {
        self.next = Self::MIN;
    }
}

enum Input {
    Insight(Box<Event<DeserializeGuard<InsightCr>>>),
    Dataset(Box<Event<DeserializeGuard<DatasetCr>>>),
    Project(Box<Event<DeserializeGuard<ProjectCr>>>),
    Workflow(Box<Event<DeserializeGuard<WorkflowCr>>>),
    Namespace(Box<Event<PartialObjectMeta<Namespace>>>),
}

async fn run(state: AppState, client: Client) {
    let insights = watcher::watcher(
        Api::<DeserializeGuard<InsightCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Insight(Box::new(e)))
            .map_err(|e| (InsightCr::KIND.noun(), e))
    })
    .boxed();
    let datasets = watcher::watcher(
        Api::<DeserializeGuard<DatasetCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Dataset(Box::new(e)))
            .map_err(|e| (DatasetCr::KIND.noun(), e))
    })
    .boxed();
    let projects = watcher::watcher(
        Api::<DeserializeGuard<ProjectCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Project(Box::new(e)))
            .map_err(|e| (ProjectCr::KIND.noun(), e))
    })
    .boxed();
    let workflows = watcher::watcher(
        Api::<DeserializeGuard<WorkflowCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Workflow(Box::new(e)))
            .map_err(|e| (WorkflowCr::KIND.noun(), e))
    })
    .boxed();
    let namespaces = watcher::watcher(
        Api::<PartialObjectMeta<Namespace>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Namespace(Box::new(e)))
            .map_err(|e| ("namespace", e))
    })
    .boxed();
    let mut inputs = stream::select(
        stream::select(
            stream::select(stream::select(insights, datasets), projects),
            workflows,
        ),
        namespaces,
    );
    let mut mirror = Mirror::new(state, client);
    tracing::info!("watching Insight, Dataset, Project and Workflow resources");
    // Whether each watch is failing (one warning per failure spell).
    let mut failing: HashSet<&'static str> = HashSet::new();
    while let Some(input) = inputs.next().await {
        match input {
            Ok(Input::Insight(event)) => {
                failing.remove(InsightCr::KIND.noun());
                mirror.event(*event).await;
            }
            Ok(Input::Dataset(event)) => {
                failing.remove(DatasetCr::KIND.noun());
                mirror.event(*event).await;
            }
            Ok(Input::Project(event)) => {
                failing.remove(ProjectCr::KIND.noun());
                mirror.event(*event).await;
            }
            Ok(Input::Workflow(event)) => {
                failing.remove(WorkflowCr::KIND.noun());
                mirror.event(*event).await;
            }
            Ok(Input::Namespace(event)) => mirror.namespace_event(*event).await,
            Err((what, e)) if failing.insert(what) => {
                tracing::warn!(error = %e, "the {what} watch failed; retrying with backoff");
            }
            Err((what, e)) => tracing::debug!(error = %e, "the {what} watch failed again"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_ten_seconds() {
        let mut r = Retry::new();
        let d: Vec<_> = (0..7).map(|_| r.next().unwrap().as_millis()).collect();
        assert_eq!(d, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
        r.reset();
        assert_eq!(r.next().unwrap().as_millis(), 500);
    }
}
