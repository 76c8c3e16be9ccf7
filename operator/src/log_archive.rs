//! The log archiver: the output of every workload container (project previews, apps and reports,
//! workflow tasks) is copied to its organization's bucket while it runs, so its log outlives the
//! pod (`ludis_storage::logs` says where). Kubelet removes a deleted pod's containers, and their
//! logs with them, as soon as they stop (a finalizer does not keep them), so waiting for the end
//! is too late: each container is followed from its start.
//!
//! One task per container instance (container id) follows its log through the API server,
//! keeping the last [`ARCHIVE_MAX_BYTES`] in memory, writes them every [`FLUSH`] when they
//! changed and once more when the container ends (its last lines included), then prunes the
//! owner's older runs. A dropped stream of a container still running is opened again from the
//! start, which rebuilds the same tail. A new leader follows every running container again,
//! rewriting the same archives; output of a container that ended and was removed while no
//! operator ran is not archived.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::Arc,
    time::Duration,
};

use futures::{AsyncReadExt as _, StreamExt as _};
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use kube::{
    Api, ResourceExt as _,
    api::LogParams,
    runtime::{WatchStreamExt as _, watcher},
};
use ludis_crds::{LABEL_INSIGHT, LABEL_PROJECT, LABEL_TASK, LABEL_TRY, LABEL_WORKFLOW_RUN};
use ludis_storage::logs::{ARCHIVE_MAX_BYTES, LogOwner, Tail};
use tokio::task::JoinSet;

use crate::{
    context::Context,
    k8s::labels::{APP_MANAGED_BY, MANAGED_BY},
};

/// How often a running container's archive is rewritten when it has new output.
pub const FLUSH: Duration = Duration::from_secs(30);
/// Wait before following again a container whose stream dropped while it runs.
const REOPEN: Duration = Duration::from_secs(1);

/// Pure: whose log a pod's containers write, from the pod's labels (None: not archived).
pub fn owner_of(labels: &BTreeMap<String, String>) -> Option<LogOwner> {
    if let (Some(run), Some(task), Some(attempt)) = (
        labels.get(LABEL_WORKFLOW_RUN),
        labels.get(LABEL_TASK),
        labels.get(LABEL_TRY),
    ) {
        return Some(LogOwner::Task {
            run: run.clone(),
            task: task.clone(),
            attempt: attempt.clone(),
        });
    }
    if let Some(project) = labels.get(LABEL_PROJECT) {
        return Some(LogOwner::Project(project.clone()));
    }
    labels.get(LABEL_INSIGHT).map(|i| LogOwner::Insight(i.clone()))
}

/// One container instance to follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    /// The runtime's id of this instance of the container (a restart is a new one).
    pub container_id: String,
    /// Where its archive goes in the bucket.
    pub key: String,
    /// The owner's folder of runs (pruned after the archive is written).
    pub prefix: String,
}

/// Pure: the containers of `pod` that have started (running or ended) and are to be archived.
pub fn targets(pod: &Pod) -> Vec<Target> {
    let Some(owner) = owner_of(pod.labels()) else {
        return Vec::new();
    };
    let (Some(namespace), Some(uid)) = (pod.namespace(), pod.uid()) else {
        return Vec::new();
    };
    let started = pod
        .metadata
        .creation_timestamp
        .as_ref()
        .map_or(0, |t| t.0.as_second());
    let status = pod.status.as_ref();
    let statuses: Vec<&ContainerStatus> = status
        .into_iter()
        .flat_map(|s| {
            s.init_container_statuses
                .iter()
                .flatten()
                .chain(s.container_statuses.iter().flatten())
        })
        .collect();
    statuses
        .into_iter()
        .filter_map(|c| {
            let state = c.state.as_ref()?;
            let started = state.running.is_some() || state.terminated.is_some();
            let id = c.container_id.clone().filter(|id| !id.is_empty())?;
            started.then_some((c.name.clone(), id))
        })
        .map(|(container, container_id)| Target {
            key: owner.key(&namespace, started, &uid, &container),
            prefix: owner.prefix(&namespace),
            namespace: namespace.clone(),
            pod: pod.name_any(),
            container,
            container_id,
        })
        .collect()
}

/// Pure: whether `pod` still runs the instance `container_id` of `container`.
fn runs(pod: &Pod, container: &str, container_id: &str) -> bool {
    pod.status
        .iter()
        .flat_map(|s| {
            s.init_container_statuses
                .iter()
                .flatten()
                .chain(s.container_statuses.iter().flatten())
        })
        .any(|c| {
            c.name == container
                && c.container_id.as_deref() == Some(container_id)
                && c.state.as_ref().is_some_and(|s| s.running.is_some())
        })
}

/// Follows every workload container until `shutdown`; nothing without object storage.
pub async fn run(ctx: Arc<Context>, shutdown: impl Future<Output = ()>) {
    let Some(s3) = ctx.s3.clone() else {
        tracing::info!("no object storage: container logs are not archived");
        return;
    };
    let pods: Api<Pod> = Api::all(ctx.client.clone());
    let cfg = watcher::Config::default().labels(&format!("{APP_MANAGED_BY}={MANAGED_BY}"));
    let mut events = std::pin::pin!(watcher(pods, cfg).default_backoff());
    // Container instances followed (or archived), per pod uid, until the pod is deleted.
    let mut followed: HashMap<String, HashSet<String>> = HashMap::new();
    let mut tasks = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let event = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            event = events.next() => event,
        };
        match event {
            Some(Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod))) => {
                let seen = followed.entry(pod.uid().unwrap_or_default()).or_default();
                for target in targets(&pod) {
                    if seen.insert(target.container_id.clone()) {
                        let (ctx, s3) = (ctx.clone(), s3.clone());
                        tasks.spawn(async move { follow(&ctx, &s3, target).await });
                    }
                }
            }
            Some(Ok(watcher::Event::Delete(pod))) => {
                followed.remove(&pod.uid().unwrap_or_default());
            }
            Some(Ok(watcher::Event::Init | watcher::Event::InitDone)) => {}
            Some(Err(e)) => tracing::warn!(error = %e, "watching workload pods for their logs"),
            None => break,
        }
    }
    tasks.abort_all();
}

/// Follows one container instance to its end and archives its output.
async fn follow(ctx: &Context, s3: &aws_sdk_s3::Client, target: Target) {
    let bucket = match crate::datasets::bucket_of(ctx, &target.namespace).await {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(pod = %target.pod, error = %e, "no bucket for a container's log");
            return;
        }
    };
    if let Err(e) = ludis_storage::ensure_bucket(s3, &bucket).await {
        tracing::warn!(bucket = %bucket, error = %e, "the bucket of a container's log is missing");
        return;
    }
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), &target.namespace);
    let mut tail = Tail::new(ARCHIVE_MAX_BYTES);
    loop {
        tail.clear();
        match read(&pods, &target, &mut tail, s3, &bucket).await {
            Ok(()) => {}
            Err(e) => {
                tracing::debug!(pod = %target.pod, container = %target.container, error = %e, "a log stream ended")
            }
        }
        let still = pods
            .get_opt(&target.pod)
            .await
            .ok()
            .flatten()
            .is_some_and(|p| runs(&p, &target.container, &target.container_id));
        if !still {
            break;
        }
        tokio::time::sleep(REOPEN).await;
    }
    if tail.bytes().is_empty() {
        return;
    }
    if let Err(e) = ludis_storage::logs::write(s3, &bucket, &target.key, tail.bytes().to_vec()).await {
        tracing::warn!(pod = %target.pod, error = %e, "failed to archive a container's log");
        return;
    }
    tracing::info!(pod = %target.pod, container = %target.container, key = %target.key, "archived a container's log");
    if let Err(e) = ludis_storage::logs::prune(s3, &bucket, &target.prefix).await {
        tracing::warn!(prefix = %target.prefix, error = %e, "failed to prune old logs");
    }
}

/// Reads the container's log from its start into `tail` until the stream ends, writing the
/// archive every [`FLUSH`] when there is new output.
async fn read(
    pods: &Api<Pod>,
    target: &Target,
    tail: &mut Tail,
    s3: &aws_sdk_s3::Client,
    bucket: &str,
) -> anyhow::Result<()> {
    let params = LogParams {
        container: Some(target.container.clone()),
        follow: true,
        ..LogParams::default()
    };
    let mut stream = pods.log_stream(&target.pod, &params).await?;
    let mut buffer = vec![0u8; 64 * 1024];
    let mut flush = tokio::time::interval(FLUSH);
    flush.tick().await;
    let mut dirty = false;
    loop {
        tokio::select! {
            n = stream.read(&mut buffer) => match n? {
                0 => return Ok(()),
                n => {
                    tail.push(&buffer[..n]);
                    dirty = true;
                }
            },
            _ = flush.tick(), if dirty => {
                dirty = false;
                if let Err(e) = ludis_storage::logs::write(s3, bucket, &target.key, tail.bytes().to_vec()).await {
                    tracing::warn!(pod = %target.pod, error = %e, "failed to write a container's log");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(labels: serde_json::Value, statuses: serde_json::Value) -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "demo-preview", "namespace": "org-a", "uid": "u1",
                         "creationTimestamp": "2026-11-24T10:00:00Z", "labels": labels},
            "status": {"containerStatuses": statuses}
        }))
        .unwrap()
    }

    #[test]
    fn the_owner_comes_from_the_labels_task_first() {
        let labels = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(
            owner_of(&labels(&[(LABEL_PROJECT, "p")])),
            Some(LogOwner::Project("p".into()))
        );
        assert_eq!(
            owner_of(&labels(&[(LABEL_INSIGHT, "i")])),
            Some(LogOwner::Insight("i".into()))
        );
        assert_eq!(
            owner_of(&labels(&[
                (LABEL_WORKFLOW_RUN, "r"),
                (LABEL_TASK, "t"),
                (LABEL_TRY, "1"),
                (LABEL_PROJECT, "p")
            ])),
            Some(LogOwner::Task {
                run: "r".into(),
                task: "t".into(),
                attempt: "1".into()
            })
        );
        assert_eq!(owner_of(&labels(&[("other", "x")])), None);
    }

    #[test]
    fn started_containers_are_followed_by_instance() {
        let p = pod(
            serde_json::json!({LABEL_PROJECT: "demo"}),
            serde_json::json!([
                {"name": "preview", "containerID": "containerd://abc", "image": "", "imageID": "", "ready": true,
                 "restartCount": 0, "state": {"running": {}}},
                {"name": "sidecar", "image": "", "imageID": "", "ready": false, "restartCount": 0,
                 "state": {"waiting": {"reason": "ContainerCreating"}}}
            ]),
        );
        let t = targets(&p);
        assert_eq!(t.len(), 1, "a waiting container has no log yet: {t:?}");
        assert_eq!(t[0].container_id, "containerd://abc");
        assert_eq!(t[0].key, "logs/org-a/projects/demo/001795514400-u1/preview.log");
        assert!(runs(&p, "preview", "containerd://abc"));
        assert!(!runs(&p, "preview", "containerd://other"));
        assert!(targets(&pod(serde_json::json!({}), serde_json::json!([]))).is_empty());
    }
}
