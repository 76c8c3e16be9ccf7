//! Which container a stream reaches: the API resolves it from the asset, never from the client.
//! A project's is its preview pod (the one the Project's status names, in the project's
//! namespace, labelled with the project); an application insight's is a pod of its Deployment
//! (labelled with the insight, component `app`). When neither runs nor is on its way, the log
//! view shows the newest archive the operator's log archiver wrote (`ludis_storage::logs`).

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api, ResourceExt as _,
    api::{ListParams, LogParams},
};
use ludis_crds::{LABEL_INSIGHT, LABEL_PROJECT, Project as ProjectCr};
use ludis_storage::logs::LogOwner;

use crate::{db::assets::AssetRow, domain::AssetKind, state::AppState};

/// The label of a pod's part of its owner (the operator's `app.kubernetes.io/component`).
const COMPONENT: &str = "app.kubernetes.io/component";

/// A streamed asset's workload: where it lives and what its container is called.
#[derive(Debug, Clone)]
pub struct Workload {
    kind: AssetKind,
    pub namespace: String,
    /// The resource's name (`Project` or `Insight`).
    pub name: String,
}

/// What a stream finds when it looks for the container.
pub enum Found {
    /// The pod runs (or its container has ended while the pod is still there): its name.
    Pod(String),
    /// Nothing runs yet, but a pod is on its way (starting, or asked to).
    Starting,
    /// Nothing runs nor is asked to: the log view shows the archive.
    Stopped,
}

impl Workload {
    /// The workload of an asset that has one: a project, or an application insight.
    pub fn of(asset: &AssetRow) -> Option<Self> {
        matches!(asset.kind, AssetKind::ProjectV2 | AssetKind::Insight).then_some(())?;
        let (namespace, name) = asset.resource()?;
        Some(Self {
            kind: asset.kind,
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        })
    }

    /// The container the streams attach to (the operator's names).
    pub fn container(&self) -> &'static str {
        match self.kind {
            AssetKind::Insight => "app",
            _ => "preview",
        }
    }

    /// The container a terminal of someone at `level` opens in: a project's preview for its
    /// editors; for everyone below edit, the preview pod's shell container, which holds neither
    /// the project's variables (whose values the API shows only to editors) nor its storage
    /// identity, and mounts the workspace read-only. An application's container holds no
    /// variables of the project.
    pub fn terminal_container(&self, level: crate::domain::AccessLevel) -> &'static str {
        match self.kind {
            AssetKind::ProjectV2 if level < crate::domain::AccessLevel::Edit => {
                ludis_crds::PREVIEW_SHELL_CONTAINER
            }
            _ => self.container(),
        }
    }

    /// Where the operator archives this workload's logs.
    pub fn log_owner(&self) -> LogOwner {
        match self.kind {
            AssetKind::Insight => LogOwner::Insight(self.name.clone()),
            _ => LogOwner::Project(self.name.clone()),
        }
    }

    /// The pods of the workload's namespace (None without a cluster).
    pub fn pods(&self, state: &AppState) -> Option<Api<Pod>> {
        Some(Api::namespaced(state.kube.clone()?, &self.namespace))
    }

    /// Looks for the running container.
    pub async fn find(&self, state: &AppState) -> Found {
        let Some(client) = state.kube.clone() else {
            return Found::Stopped;
        };
        let pods: Api<Pod> = Api::namespaced(client.clone(), &self.namespace);
        match self.kind {
            AssetKind::Insight => {
                let selector = format!("{LABEL_INSIGHT}={},{COMPONENT}=app", self.name);
                let Ok(list) = pods.list(&ListParams::default().labels(&selector)).await else {
                    return Found::Starting;
                };
                let newest_running = list
                    .items
                    .iter()
                    .filter(|p| p.metadata.deletion_timestamp.is_none() && phase(p) == Some("Running"))
                    .max_by_key(|p| p.metadata.creation_timestamp.clone().map(|t| t.0));
                match newest_running {
                    Some(p) => Found::Pod(p.name_any()),
                    None if list.items.is_empty() => Found::Stopped,
                    None => Found::Starting,
                }
            }
            _ => {
                let Ok(Some(project)) = Api::<ProjectCr>::namespaced(client, &self.namespace)
                    .get_opt(&self.name)
                    .await
                else {
                    return Found::Stopped;
                };
                let asked = project.spec.preview.running;
                let named = project.status.and_then(|s| s.preview_pod);
                let pod = match named {
                    Some(n) => pods.get_opt(&n).await.ok().flatten(),
                    None => None,
                };
                match pod {
                    Some(p) if self.owns(&p) && has_run(&p) => Found::Pod(p.name_any()),
                    Some(p) if self.owns(&p) => Found::Starting,
                    _ if asked => Found::Starting,
                    _ => Found::Stopped,
                }
            }
        }
    }

    /// The last lines a failing workload printed, for the page that says it failed: of its newest
    /// pod with a run that failed (a newer pod may have just started and printed nothing of the
    /// error yet), the container that failed — the checkout (an init container that ended with
    /// an error), else the program's previous run when it keeps restarting, else its current one;
    /// without a failed run, the newest pod's program.
    pub async fn failure_log(&self, state: &AppState) -> Option<Vec<String>> {
        let pods = self.pods(state)?;
        let selector = match self.kind {
            AssetKind::Insight => format!("{LABEL_INSIGHT}={},{COMPONENT}=app", self.name),
            _ => format!("{LABEL_PROJECT}={},{COMPONENT}=preview", self.name),
        };
        let list = pods.list(&ListParams::default().labels(&selector)).await.ok()?;
        let mut live: Vec<&Pod> = list
            .items
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect();
        live.sort_by_key(|p| std::cmp::Reverse(p.metadata.creation_timestamp.clone().map(|t| t.0)));
        let main = self.container();
        let (pod, (container, previous, _)) = live
            .iter()
            .find_map(|p| failed_container(p, main).filter(|f| f.2).map(|f| (*p, f)))
            .or_else(|| live.first().and_then(|p| Some((*p, failed_container(p, main)?))))?;
        let params = LogParams {
            container: Some(container),
            previous,
            tail_lines: Some(FAILURE_LINES),
            limit_bytes: Some(16 * 1024),
            ..LogParams::default()
        };
        let text = pods.logs(&pod.name_any(), &params).await.ok()?;
        Some(text.lines().map(str::to_owned).collect())
    }

    /// Whether `pod` carries this project's label (a status naming a foreign pod is ignored).
    fn owns(&self, pod: &Pod) -> bool {
        pod.labels().get(LABEL_PROJECT).is_some_and(|p| *p == self.name)
    }

    /// The newest archived log of the workload's container, when the operator wrote one.
    pub async fn archive(&self, state: &AppState, organization_id: &str) -> Option<Vec<u8>> {
        let s3 = state.s3.as_ref()?;
        let bucket = crate::cluster::organizations::bucket_of(state, organization_id)
            .await
            .ok()?;
        let prefix = self.log_owner().prefix(&self.namespace);
        match ludis_storage::logs::latest(s3, &bucket, &prefix, self.container()).await {
            Ok(log) => log,
            Err(e) => {
                tracing::warn!(prefix, error = %e, "failed to read an archived log");
                None
            }
        }
    }
}

/// The last lines of a failed workload for a caller at `level` (its logs need execute access).
pub async fn failure_log_for(
    state: &AppState,
    asset: &AssetRow,
    failed: bool,
    level: crate::domain::AccessLevel,
) -> Option<Vec<String>> {
    if !failed || level < crate::domain::AccessLevel::Execute {
        return None;
    }
    Workload::of(asset)?.failure_log(state).await
}

/// How many of a failing container's last lines are shown.
const FAILURE_LINES: i64 = 20;

/// Pure: which container of `pod` failed, whether its previous run holds the error (it was
/// restarted since), and whether a run of it failed at all: an init container that ended with an
/// error, else `main`.
fn failed_container(pod: &Pod, main: &str) -> Option<(String, bool, bool)> {
    let status = pod.status.as_ref()?;
    let ended_badly = |c: &k8s_openapi::api::core::v1::ContainerStatus| {
        let state = |s: Option<&k8s_openapi::api::core::v1::ContainerState>| {
            s.and_then(|s| s.terminated.as_ref())
                .is_some_and(|t| t.exit_code != 0)
        };
        let now = state(c.state.as_ref());
        let before = state(c.last_state.as_ref());
        (now || before).then_some(!now && before)
    };
    if let Some((c, previous)) = status
        .init_container_statuses
        .iter()
        .flatten()
        .find_map(|c| ended_badly(c).map(|previous| (c, previous)))
    {
        return Some((c.name.clone(), previous, true));
    }
    let c = status
        .container_statuses
        .iter()
        .flatten()
        .find(|c| c.name == main)?;
    let failed = ended_badly(c);
    Some((c.name.clone(), failed.unwrap_or(false), failed.is_some()))
}

fn phase(pod: &Pod) -> Option<&str> {
    pod.status.as_ref()?.phase.as_deref()
}

/// Whether the pod's container has run (running, or ended while the pod is kept).
fn has_run(pod: &Pod) -> bool {
    matches!(phase(pod), Some("Running" | "Succeeded" | "Failed"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(status: serde_json::Value) -> Pod {
        serde_json::from_value(json!({ "status": status })).unwrap()
    }

    #[test]
    fn the_container_that_failed_is_the_one_whose_log_is_shown() {
        let status = |name: &str, state: serde_json::Value, last: serde_json::Value| {
            json!({"name": name, "ready": false, "restartCount": 1, "image": "i", "imageID": "",
                   "state": state, "lastState": last})
        };
        let crashing = pod(json!({"containerStatuses": [status("app",
            json!({"waiting": {"reason": "CrashLoopBackOff"}}), json!({"terminated": {"exitCode": 1}}))]}));
        assert_eq!(
            failed_container(&crashing, "app"),
            Some(("app".into(), true, true))
        );
        let checkout = pod(json!({
            "initContainerStatuses": [status("git-checkout", json!({"terminated": {"exitCode": 128}}), json!({}))],
            "containerStatuses": [status("preview", json!({"waiting": {"reason": "PodInitializing"}}), json!({}))]}));
        assert_eq!(
            failed_container(&checkout, "preview"),
            Some(("git-checkout".into(), false, true))
        );
        let running = pod(json!({"containerStatuses": [status("app", json!({"running": {}}), json!({}))]}));
        assert_eq!(
            failed_container(&running, "app"),
            Some(("app".into(), false, false))
        );
        // Running again after a crash: the crashed run is the previous one.
        let restarted = pod(json!({"containerStatuses": [status("app",
            json!({"running": {}}), json!({"terminated": {"exitCode": 1}}))]}));
        assert_eq!(
            failed_container(&restarted, "app"),
            Some(("app".into(), true, true))
        );
        assert_eq!(failed_container(&Pod::default(), "app"), None);
    }
}
