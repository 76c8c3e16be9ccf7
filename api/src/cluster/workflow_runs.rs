//! A workflow's runs in the cluster (docs/contracts/workflows.md "Runs"): WorkflowRun resources
//! labelled `ludis.dev/workflow=<workflow resource>` and owned by the Workflow. The API makes a
//! run for "run now" ([`create_manual`]), lists and reads them ([`list`], [`get`]), asks the
//! operator to change task states by appending a `TaskRequest` ([`append_request`], replaced
//! with the run's resourceVersion so concurrent requests are never lost), and reads a task try's
//! log: the live pod's while it exists, else the operator's archive ([`task_log`]).
//! Without a cluster there are no runs.

use anyhow::Context as _;
use k8s_openapi::{api::core::v1::Pod, apimachinery::pkg::apis::meta::v1::OwnerReference};
use kube::{
    Api, Resource as _, ResourceExt as _,
    api::{ListParams, LogParams, PostParams},
};
use ludis_crds::{
    LABEL_TASK, LABEL_TRY, LABEL_WORKFLOW, LABEL_WORKFLOW_RUN, Workflow as WorkflowCr, WorkflowRun,
    WorkflowRunSpec,
    workflow::{TaskRequest, Trigger, task_label},
};
use ludis_storage::logs::LogOwner;

use crate::{db::workflows::Workflow, state::AppState};

/// The container of a task pod (the operator's).
const TASK_CONTAINER: &str = "task";
/// The most bytes of a log answered: its end.
pub const LOG_MAX_BYTES: usize = 1024 * 1024;
/// Lines of a live pod's log read (its end).
const LIVE_TAIL_LINES: i64 = 20_000;
/// Attempts at appending a request when the run changes meanwhile.
const APPEND_ATTEMPTS: usize = 10;

/// Why a run could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("no such run")]
    NotFound,
    #[error(transparent)]
    Cluster(#[from] anyhow::Error),
}

/// The namespace and resource name of a published workflow (`None`: nothing in the cluster).
fn place(w: &Workflow) -> Option<(&str, &str)> {
    w.asset.resource()
}

/// Every run of the workflow (any order).
pub async fn list(state: &AppState, w: &Workflow) -> anyhow::Result<Vec<WorkflowRun>> {
    let (Some(client), Some((namespace, name))) = (&state.kube, place(w)) else {
        return Ok(Vec::new());
    };
    Ok(Api::<WorkflowRun>::namespaced(client.clone(), namespace)
        .list(&ListParams::default().labels(&format!("{LABEL_WORKFLOW}={name}")))
        .await
        .with_context(|| format!("failed to list the runs of workflow {namespace}/{name}"))?
        .items)
}

/// Run `run` of the workflow, when it exists and is one of this workflow's (a name of another
/// workflow's run is none).
pub async fn get(state: &AppState, w: &Workflow, run: &str) -> anyhow::Result<Option<WorkflowRun>> {
    let (Some(client), Some((namespace, name))) = (&state.kube, place(w)) else {
        return Ok(None);
    };
    if !valid_name(run) {
        return Ok(None);
    }
    let found = Api::<WorkflowRun>::namespaced(client.clone(), namespace)
        .get_opt(run)
        .await
        .with_context(|| format!("failed to read run {namespace}/{run}"))?;
    Ok(found.filter(|r| belongs(r, name)))
}

/// Pure: whether a run is one of workflow `name`'s.
fn belongs(run: &WorkflowRun, name: &str) -> bool {
    run.spec.workflow == name && run.labels().get(LABEL_WORKFLOW).map(String::as_str) == Some(name)
}

/// Pure: whether a client's text may be a resource name (a DNS subdomain), so it never reaches
/// a path or a selector otherwise.
pub fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// Pure: the name of a manual run: the workflow's name and a random suffix.
fn manual_name(workflow: &str) -> String {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    format!(
        "{}-manual-{}",
        workflow.chars().take(200).collect::<String>(),
        &suffix[..10]
    )
}

/// Makes a manual run of the published workflow now; its name. `None` without a cluster or
/// before the resource exists.
pub async fn create_manual(state: &AppState, w: &Workflow) -> anyhow::Result<Option<String>> {
    let (Some(client), Some((namespace, name))) = (&state.kube, place(w)) else {
        return Ok(None);
    };
    let Some(wf) = Api::<WorkflowCr>::namespaced(client.clone(), namespace)
        .get_opt(name)
        .await
        .with_context(|| format!("failed to read workflow {namespace}/{name}"))?
    else {
        return Ok(None);
    };
    let owner = OwnerReference {
        api_version: WorkflowCr::api_version(&()).into_owned(),
        kind: WorkflowCr::kind(&()).into_owned(),
        name: name.to_owned(),
        uid: wf.uid().unwrap_or_default(),
        controller: Some(false),
        block_owner_deletion: Some(true),
    };
    let runs = Api::<WorkflowRun>::namespaced(client.clone(), namespace);
    // A random name; a clash (never expected) is tried again with another.
    for _ in 0..3 {
        let run_name = manual_name(name);
        let mut run = WorkflowRun::new(
            &run_name,
            WorkflowRunSpec {
                workflow: name.to_owned(),
                trigger: Trigger::Manual,
                job: None,
                requests: Vec::new(),
            },
        );
        run.metadata.namespace = Some(namespace.to_owned());
        run.metadata.labels = Some([(LABEL_WORKFLOW.to_owned(), name.to_owned())].into());
        run.metadata.owner_references = Some(vec![owner.clone()]);
        match runs.create(&PostParams::default(), &run).await {
            Ok(_) => return Ok(Some(run_name)),
            Err(kube::Error::Api(e)) if e.code == 409 => continue,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("failed to make a run of workflow {namespace}/{name}"));
            }
        }
    }
    anyhow::bail!("no free run name for workflow {namespace}/{name}")
}

/// Appends `request` to run `run` of the workflow: read, append, replace with the read
/// resourceVersion; a run changed meanwhile is read again (so two requests at once both land).
pub async fn append_request(
    state: &AppState,
    w: &Workflow,
    run: &str,
    request: TaskRequest,
) -> Result<(), RunError> {
    let (Some(client), Some((namespace, name))) = (&state.kube, place(w)) else {
        return Err(RunError::NotFound);
    };
    let api = Api::<WorkflowRun>::namespaced(client.clone(), namespace);
    for _ in 0..APPEND_ATTEMPTS {
        let Some(mut current) = get(state, w, run).await? else {
            return Err(RunError::NotFound);
        };
        current.spec.requests.push(request.clone());
        match api.replace(run, &PostParams::default(), &current).await {
            Ok(_) => return Ok(()),
            Err(kube::Error::Api(e)) if e.code == 409 => continue,
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context(format!("failed to change run {namespace}/{run} of {name}"))
                    .into());
            }
        }
    }
    Err(anyhow::anyhow!("run {namespace}/{run} kept changing; the request was not added").into())
}

/// One try's log: its text (at most the last [`LOG_MAX_BYTES`]), and whether it came from the
/// archive. `None` when neither a pod nor an archive has it.
pub async fn task_log(
    state: &AppState,
    w: &Workflow,
    run: &str,
    task: &str,
    try_number: i32,
) -> anyhow::Result<Option<(String, bool)>> {
    let (Some(client), Some((namespace, _))) = (&state.kube, place(w)) else {
        return Ok(None);
    };
    let pods = Api::<Pod>::namespaced(client.clone(), namespace);
    // Task pods and their archives carry the task's label form (DAG-file ids may hold `_`/`.`).
    let label = task_label(task);
    let selector = format!("{LABEL_WORKFLOW_RUN}={run},{LABEL_TASK}={label},{LABEL_TRY}={try_number}");
    let live = pods
        .list(&ListParams::default().labels(&selector))
        .await
        .with_context(|| format!("failed to list the pods of run {namespace}/{run}"))?;
    if let Some(pod) = live
        .items
        .iter()
        .find(|p| p.metadata.deletion_timestamp.is_none())
    {
        // The end of the log: its last lines, then at most the last MiB of them.
        let params = LogParams {
            container: Some(TASK_CONTAINER.into()),
            tail_lines: Some(LIVE_TAIL_LINES),
            ..LogParams::default()
        };
        match pods.logs(&pod.name_any(), &params).await {
            Ok(text) => return Ok(Some((last_bytes(text.as_bytes()), false))),
            // A pod whose container has not started yet has no log.
            Err(kube::Error::Api(e)) if e.code == 400 => return Ok(Some((String::new(), false))),
            Err(e) => {
                tracing::warn!(run, task, error = %e, "failed to read a task pod's log; trying the archive")
            }
        }
    }
    let Some(s3) = state.s3.as_ref() else {
        return Ok(None);
    };
    let bucket = super::organizations::bucket_of(state, &w.asset.organization_id).await?;
    let owner = LogOwner::Task {
        run: run.to_owned(),
        task: label,
        attempt: try_number.to_string(),
    };
    let archived = ludis_storage::logs::latest(s3, &bucket, &owner.prefix(namespace), TASK_CONTAINER)
        .await
        .with_context(|| format!("failed to read the archived log of {run}/{task}/{try_number}"))?;
    Ok(archived.map(|bytes| (last_bytes(&bytes), true)))
}

/// Pure: the last [`LOG_MAX_BYTES`] of a log, as text.
fn last_bytes(bytes: &[u8]) -> String {
    let start = bytes.len().saturating_sub(LOG_MAX_BYTES);
    String::from_utf8_lossy(&bytes[start..]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_clients_are_checked() {
        for ok in ["nightly-1a2b3c4d-manual-0123456789", "a", "a.b"] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in [
            "",
            "A",
            "a/b",
            "-a",
            "a-",
            "a b",
            "../x",
            "a,b=c",
            &"a".repeat(254),
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
        let n = manual_name("nightly-1a2b3c4d");
        assert!(n.starts_with("nightly-1a2b3c4d-manual-") && valid_name(&n), "{n}");
        assert_ne!(n, manual_name("nightly-1a2b3c4d"));
        let big = vec![b'x'; LOG_MAX_BYTES + 10];
        assert_eq!(last_bytes(&big).len(), LOG_MAX_BYTES);
        assert_eq!(last_bytes(b"short"), "short");
    }
}
