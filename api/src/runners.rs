//! Who runs code in a workload's pod besides its owner, and what follows from it.
//!
//! The owner's code runs in their previews, notebook servers and apps. Others run code there
//! too: a terminal (a collaborator's in a preview's `shell` container, an editor's in the
//! preview's own, an executor's in an app's container) and a legacy project's notebook server
//! (whoever opens it runs cells in its kernels). Each such use is recorded on the pod
//! ([`ANNOTATION_RUNNERS`], a JSON list of [`Runner`]s, with the label [`LABEL_RUNNERS`] so the
//! sweep finds them) before it starts, by the API, which alone writes it. Then:
//!
//! - **Storage** ([`crate::storage_gateway::grants`]): a pod reaches each dataset at the least
//!   level of its owner and of every runner whose code ran in a container holding the pod's
//!   storage identity (not the `shell` one): a collaborator cannot read through the owner's pod
//!   what they may not read themselves.
//! - **Revocation** ([`sweep`]): every 2 s, a pod with a runner who lost the level they ran at,
//!   whose session ended (sign-out, password change, deactivation) or whose account is gone is
//!   restarted (deleted; its controller makes a new one, a notebook server with a new token), so
//!   nothing they started (`nohup`, a kernel, a notebook terminal) runs on after their access.
//!
//! A new pod has no runners: the record is per pod, the pod per start.

use std::time::Duration;

use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams, Preconditions},
};
use serde::{Deserialize, Serialize};

use crate::{
    assets,
    db::{self, assets::AssetRow, users::UserRow},
    domain::{AccessLevel, AssetKind},
    state::AppState,
};

/// Annotation on a pod: the [`Runner`]s of the pod (JSON). Only the API writes it.
pub const ANNOTATION_RUNNERS: &str = "ludis.dev/runners";
/// Label on a pod with [`ANNOTATION_RUNNERS`] (value `yes`), for the sweep's selector.
pub const LABEL_RUNNERS: &str = "ludis.dev/has-runners";
/// How often the sweep looks at pods with runners.
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);
/// How long a recorded use is not recorded again (one request of a notebook's many). A pod
/// restarted meanwhile answers no sooner: a new pod takes longer than this to serve.
const REMEMBER: Duration = Duration::from_secs(2);

/// Someone other than the owner who ran code in a pod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    pub uid: String,
    /// Their session (console or cookie); `None` for an API key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The level on the workload's asset they must keep.
    pub need: AccessLevel,
    /// The container their code ran in.
    pub container: String,
}

impl Runner {
    /// Whether their code ran where the pod's storage identity is (any container but the
    /// collaborators' `shell`).
    pub fn holds_identity(&self) -> bool {
        self.container != ludis_crds::PREVIEW_SHELL_CONTAINER
    }
}

/// Pure: the runners recorded on a pod (none when the annotation is missing or unreadable).
pub fn of(pod: &Pod) -> Vec<Runner> {
    pod.annotations()
        .get(ANNOTATION_RUNNERS)
        .and_then(|a| serde_json::from_str(a).ok())
        .unwrap_or_default()
}

/// Pure: `runners` with `new` added; `None` when it is there already (the same person, session
/// and container at a level as high).
pub fn with(mut runners: Vec<Runner>, new: Runner) -> Option<Vec<Runner>> {
    let same = |r: &Runner| r.uid == new.uid && r.session == new.session && r.container == new.container;
    match runners.iter_mut().find(|r| same(r)) {
        Some(r) if r.need >= new.need => None,
        Some(r) => {
            r.need = new.need;
            Some(runners)
        }
        None => {
            runners.push(new);
            Some(runners)
        }
    }
}

/// Uses recorded in the last [`REMEMBER`], by (namespace, pod, uid, session, container).
#[derive(Clone)]
pub struct Recorded(crate::recent::Recent);

impl Default for Recorded {
    fn default() -> Self {
        Self(crate::recent::Recent::new(REMEMBER))
    }
}

/// Records `runner` on pod `pod` of `namespace` before their code runs there. An error means it
/// could not be recorded: the caller must not let the code run.
pub async fn record(state: &AppState, namespace: &str, pod: &str, runner: Runner) -> anyhow::Result<()> {
    let Some(client) = state.kube.clone() else {
        anyhow::bail!("no cluster is configured");
    };
    let key = format!(
        "{namespace}/{pod}/{}/{}/{}",
        runner.uid,
        runner.session.as_deref().unwrap_or(""),
        runner.container
    );
    if state.runners.0.fresh(&key) {
        return Ok(());
    }
    let pods: Api<Pod> = Api::namespaced(client, namespace);
    // Read, add, write with the read's version: two records at once cannot drop one another.
    for _ in 0..5 {
        let current = pods.get(pod).await?;
        let Some(runners) = with(of(&current), runner.clone()) else {
            state.runners.0.remember(key);
            return Ok(());
        };
        let patch = serde_json::json!({"metadata": {
            "resourceVersion": current.resource_version(),
            "labels": {LABEL_RUNNERS: "yes"},
            "annotations": {ANNOTATION_RUNNERS: serde_json::to_string(&runners)?},
        }});
        match pods
            .patch(pod, &PatchParams::default(), &Patch::Merge(&patch))
            .await
        {
            Ok(_) => {
                tracing::info!(%namespace, %pod, user = %runner.uid, container = %runner.container, "recorded a runner of a pod");
                state.runners.0.remember(key);
                return Ok(());
            }
            Err(kube::Error::Api(e)) if e.code == 409 => continue,
            Err(e) => return Err(e.into()),
        }
    }
    anyhow::bail!("the pod kept changing while its runner was recorded")
}

/// Where the caller of an open session stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Allowed,
    /// The caller no longer has the level they need.
    Revoked,
    /// The caller's session ended: signed out, the password changed, the account deactivated.
    SignedOut,
}

/// Where user `uid` of `session` stands on `asset` for `need`: still signed in (the same session,
/// or an active account for an API key) and still with that level. A database that cannot be
/// asked ends nothing.
pub async fn standing(
    state: &AppState,
    uid: &str,
    session: Option<&str>,
    asset: &AssetRow,
    need: AccessLevel,
) -> Standing {
    let user = match crate::routes::apps::still_signed_in(state, uid, session).await {
        Ok(Some(user)) => user,
        Ok(None) => return Standing::SignedOut,
        Err(_) => return Standing::Allowed,
    };
    match assets::require(state, &user, asset.kind, &asset.id, need).await {
        Ok(_) => Standing::Allowed,
        Err(e) if e.status().is_server_error() => Standing::Allowed,
        Err(_) => Standing::Revoked,
    }
}

/// The labels naming a pod's workload resource, by kind.
const WORKLOAD_LABELS: [(&str, AssetKind); 3] = [
    (ludis_crds::LABEL_PROJECT, AssetKind::ProjectV2),
    (ludis_crds::LABEL_INSIGHT, AssetKind::Insight),
    (ludis_crds::LABEL_WORKFLOW, AssetKind::Workflow),
];

/// The asset a pod of `namespace` works for: by its id label (an asset of that namespace), else
/// by the resource its labels name (a resource applied with kubectl or GitOps has no id label).
pub async fn workload_asset(
    state: &AppState,
    namespace: &str,
    pod: &Pod,
) -> anyhow::Result<Option<AssetRow>> {
    let labels = pod.labels();
    if let Some(id) = labels.get(ludis_crds::LABEL_ID) {
        return Ok(db::assets::by_id(&state.db, id)
            .await?
            .filter(|a| a.namespace.as_deref() == Some(namespace)));
    }
    for (label, kind) in WORKLOAD_LABELS {
        if let Some(name) = labels.get(label) {
            return Ok(db::assets::by_resource(&state.db, kind, namespace, name).await?);
        }
    }
    Ok(None)
}

/// The active users among `uids`, one answer per uid (`None`: no active account).
pub async fn active_users(
    state: &AppState,
    uids: impl Iterator<Item = &str>,
) -> anyhow::Result<Vec<Option<UserRow>>> {
    let mut users = Vec::new();
    for uid in uids {
        users.push(
            db::users::by_uid(&state.db, uid)
                .await?
                .filter(UserRow::is_active),
        );
    }
    Ok(users)
}

/// Restarts, every [`SWEEP_EVERY`], the pods with a runner who may no longer be one. Pods of
/// assets this API does not know are left alone. Pods are listed namespace by namespace, in the
/// organizations' namespaces: the API may read pods there only.
pub async fn sweep(state: AppState) {
    let Some(client) = state.kube.clone() else { return };
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let with_runners = ListParams::default().labels(&format!("{LABEL_RUNNERS}=yes"));
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let organizations = match namespaces
            .list_metadata(&ListParams::default().labels(ludis_crds::LABEL_ORGANIZATION))
            .await
        {
            Ok(l) => l.items,
            Err(e) => {
                tracing::debug!(error = %e, "could not list the organizations' namespaces");
                continue;
            }
        };
        for namespace in organizations
            .iter()
            .filter(|n| n.metadata.deletion_timestamp.is_none())
        {
            let pods: Api<Pod> = Api::namespaced(client.clone(), &namespace.name_any());
            let listed = match pods.list(&with_runners).await {
                Ok(l) => l.items,
                Err(e) => {
                    tracing::debug!(namespace = %namespace.name_any(), error = %e, "could not list the pods with runners");
                    continue;
                }
            };
            for pod in listed.iter().filter(|p| p.metadata.deletion_timestamp.is_none()) {
                if let Err(e) = sweep_pod(&state, pod).await {
                    tracing::warn!(pod = %pod.name_any(), error = %e, "could not check the runners of a pod");
                }
            }
        }
    }
}

/// Restarts `pod` when one of its runners may no longer be one.
async fn sweep_pod(state: &AppState, pod: &Pod) -> anyhow::Result<()> {
    let namespace = pod.namespace().unwrap_or_default();
    let Some(asset) = workload_asset(state, &namespace, pod).await? else {
        return Ok(());
    };
    for runner in of(pod) {
        let standing = standing(state, &runner.uid, runner.session.as_deref(), &asset, runner.need).await;
        if standing == Standing::Allowed {
            continue;
        }
        tracing::info!(
            pod = %pod.name_any(), %namespace, user = %runner.uid, ?standing,
            "a runner of a pod lost access or their session: restarting the pod"
        );
        restart(state, &asset, pod).await?;
        return Ok(());
    }
    Ok(())
}

/// Restarts `pod` of `asset`: a notebook server's next start gets a new token first (once, of
/// however many API replicas restart the pod). Deleting only that pod (its uid), a replica that
/// comes second deletes nothing.
pub async fn restart(state: &AppState, asset: &AssetRow, pod: &Pod) -> anyhow::Result<()> {
    let uid = pod.uid().unwrap_or_default();
    if asset.kind == AssetKind::ProjectV2
        && let Some(project) = db::details::by_id::<db::projects::ProjectRow>(&state.db, &asset.id).await?
        && project.details.is_notebook()
    {
        crate::projects::jupyter::renew_for_restart(state, &project, &uid).await?;
    }
    let Some(client) = state.kube.clone() else {
        return Ok(());
    };
    let namespace = pod.namespace().unwrap_or_default();
    let only_this_pod = DeleteParams {
        preconditions: Some(Preconditions {
            uid: Some(uid),
            resource_version: None,
        }),
        ..DeleteParams::default()
    };
    match Api::<Pod>::namespaced(client, &namespace)
        .delete(&pod.name_any(), &only_this_pod)
        .await
    {
        Ok(_) => Ok(()),
        // Gone already, or another pod of that name since: restarted by someone else.
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner(uid: &str, need: AccessLevel, container: &str) -> Runner {
        Runner {
            uid: uid.into(),
            session: Some("s1".into()),
            need,
            container: container.into(),
        }
    }

    #[test]
    fn a_use_is_recorded_once_at_its_highest_level() {
        let first = with(vec![], runner("u", AccessLevel::Execute, "preview")).unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(
            with(first.clone(), runner("u", AccessLevel::Execute, "preview")),
            None
        );
        let raised = with(first.clone(), runner("u", AccessLevel::Edit, "preview")).unwrap();
        assert_eq!(raised, vec![runner("u", AccessLevel::Edit, "preview")]);
        assert_eq!(with(raised, runner("u", AccessLevel::Execute, "preview")), None);
        // Another container, session or person is another entry.
        assert_eq!(
            with(first.clone(), runner("u", AccessLevel::Execute, "shell"))
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            with(first, runner("v", AccessLevel::Execute, "preview"))
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn the_annotation_round_trips_and_a_bad_one_names_nobody() {
        let runners = vec![
            runner("u", AccessLevel::Edit, "preview"),
            runner("v", AccessLevel::Execute, "shell"),
        ];
        let mut pod = Pod::default();
        pod.annotations_mut().insert(
            ANNOTATION_RUNNERS.into(),
            serde_json::to_string(&runners).unwrap(),
        );
        assert_eq!(of(&pod), runners);
        assert!(runners[0].holds_identity() && !runners[1].holds_identity());
        pod.annotations_mut()
            .insert(ANNOTATION_RUNNERS.into(), "not json".into());
        assert!(of(&pod).is_empty());
        assert!(of(&Pod::default()).is_empty());
    }
}
