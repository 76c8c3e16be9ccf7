//! Workflows written as code: the operator reads the DAG file by running it, the way Airflow
//! does, in a pod ([`parse_pod`]) with the `ludis` Python package ([`package`]), and reads the
//! verdict from the pod's log ([`result`]). What was read is kept in `status.dag` with a hash of
//! what it read (`source`: file, revision, image, the package itself); while it differs from the
//! current one, the file is read again (the workflow is `initializing`); the parse pod is deleted
//! once read, and an event tells the verdict (`DagRead`, or the workflow's `WorkflowBroken`
//! warning).

pub mod package;
pub mod parse_pod;
pub mod result;

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api, Resource as _, ResourceExt as _,
    api::{DeleteParams, LogParams},
    runtime::events::EventType,
};
use ludis_crds::{Project, Workflow, workflow::ParsedDag};

use crate::{
    context::Context,
    error::{self, Result},
};

/// How much of a parse pod's log is read.
const LOG_LIMIT: i64 = 4 * 1024 * 1024;

/// Where reading a workflow's DAG file stands.
#[derive(Clone, Debug, PartialEq)]
pub enum DagFileState {
    /// The file is being read.
    Reading,
    /// Read: its tasks.
    Read(ParsedDag),
    /// Read: it cannot run (the import error). The DAG records what was read.
    Broken(ParsedDag, String),
}

/// `name` cut to at most `max` bytes, without a trailing `-` or `.` (for children's names).
pub fn short(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].trim_end_matches(['-', '.'])
}

/// Pure: the verdict already recorded in the status for `source`, if any.
pub fn recorded(wf: &Workflow, source: &str) -> Option<DagFileState> {
    let status = wf.status.as_ref()?;
    let dag = status
        .dag
        .as_ref()
        .filter(|d| d.source.as_deref() == Some(source))?;
    Some(if dag.dag_id.is_some() {
        DagFileState::Read(dag.clone())
    } else {
        let why = status
            .import_error
            .clone()
            .unwrap_or_else(|| "the DAG file could not be read".into());
        DagFileState::Broken(dag.clone(), why)
    })
}

/// Reads `wf`'s DAG file (checked out from `project`'s repository) in `image`: the recorded
/// verdict when it is current, else the parse pod's (made when missing, deleted once read).
pub async fn reconcile(
    ctx: &Context,
    wf: &Workflow,
    dag_file: &str,
    project: &Project,
    image: &str,
    parse_pods: &[Pod],
) -> Result<DagFileState> {
    let source = parse_pod::source(dag_file, wf.spec.revision.as_deref(), image);
    let pod_name = parse_pod::name(wf, &source);
    let ns = wf.namespace().unwrap_or_default();
    let pods = Api::<Pod>::namespaced(ctx.client.clone(), &ns);
    let children = ctx.children(super::CONTROLLER, wf);
    // What was read is recorded. The workflow given may predate this controller's own last status
    // write (the watch lags behind it): before reading the file again, ask the API server.
    let mut recorded_state = recorded(wf, &source);
    let current = parse_pods.iter().find(|p| p.name_any() == pod_name);
    if recorded_state.is_none() && current.is_none_or(|p| p.metadata.deletion_timestamp.is_some()) {
        let fresh = Api::<Workflow>::namespaced(ctx.client.clone(), &ns)
            .get_opt(&wf.name_any())
            .await
            .map_err(error::observe("workflow"))?;
        recorded_state = fresh.and_then(|f| recorded(&f, &source));
    }
    // Parse pods no longer needed: those of other sources, and every one once read.
    let stale: Vec<_> = parse_pods
        .iter()
        .filter(|p| recorded_state.is_some() || p.name_any() != pod_name)
        .map(|p| p.metadata.clone())
        .collect();
    children.delete_orphans::<Pod>("parse pods", &stale, &[]).await?;
    if let Some(state) = recorded_state {
        children.applied();
        return Ok(state);
    }
    let Some(git) = &project.spec.git else {
        let why = format!(
            "the project {:?} has no git repository to read the DAG file from",
            wf.spec.project
        );
        children.applied();
        return Ok(DagFileState::Broken(read_at(&source, wf), why));
    };
    children
        .apply("python package", &package::config_map(wf), &[])
        .await?;
    let finished = current.and_then(|p| p.status.as_ref()?.phase.clone());
    let state = match finished.as_deref() {
        Some("Succeeded" | "Failed") => {
            let log = pods
                .logs(
                    &pod_name,
                    &LogParams {
                        container: Some(parse_pod::CONTAINER.into()),
                        limit_bytes: Some(LOG_LIMIT),
                        ..Default::default()
                    },
                )
                .await
                .unwrap_or_default();
            let outcome = if log.contains(result::MARKER) {
                result::read_log(&log, wf.spec.revision.as_deref())
            } else {
                result::ParseOutcome::Broken(checkout_failure(&pods, &pod_name, &log).await)
            };
            let state = match outcome {
                result::ParseOutcome::Dag(mut dag) => {
                    dag.source = Some(source.clone());
                    DagFileState::Read(dag)
                }
                result::ParseOutcome::Broken(why) => DagFileState::Broken(read_at(&source, wf), why),
            };
            announce(ctx, wf, dag_file, &state).await;
            match pods.delete(&pod_name, &DeleteParams::background()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(error::orphans("parse pods")(e)),
            }
            state
        }
        _ => {
            let pod = parse_pod::build(wf, dag_file, git, image, &source, &ctx.config);
            let current: Vec<_> = current.map(|p| p.metadata.clone()).into_iter().collect();
            children.create("parse pod", &pod, &current).await?;
            DagFileState::Reading
        }
    };
    children.applied();
    Ok(state)
}

/// What a broken read records: the source and revision, no DAG.
fn read_at(source: &str, wf: &Workflow) -> ParsedDag {
    ParsedDag {
        source: Some(source.to_owned()),
        revision: wf.spec.revision.clone(),
        ..Default::default()
    }
}

/// Why a parse pod printed no result: the checkout's failure when it failed, else the parser's
/// output.
async fn checkout_failure(pods: &Api<Pod>, pod: &str, parse_log: &str) -> String {
    let params = LogParams {
        container: Some("git-checkout".into()),
        limit_bytes: Some(64 * 1024),
        ..Default::default()
    };
    let failed_checkout = pods.get(pod).await.ok().and_then(|p| {
        let statuses = p.status?.init_container_statuses?;
        let code = statuses.first()?.state.as_ref()?.terminated.as_ref()?.exit_code;
        (code != 0).then_some(code)
    });
    match failed_checkout {
        Some(code) => {
            let log = pods.logs(pod, &params).await.unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!(
                "checking out the project's repository failed (exit code {code}): {}",
                tail.join("\n")
            )
        }
        None => match result::read_log(parse_log, None) {
            result::ParseOutcome::Broken(why) => why,
            result::ParseOutcome::Dag(_) => unreachable!("a log without the marker has no DAG"),
        },
    }
}

/// A Normal event when the file was read (`DagRead`: how many tasks and dependencies). A broken
/// file makes the workflow Stalled (`WorkflowBroken`), whose warning carries the import error
/// (see [`crate::events`]).
async fn announce(ctx: &Context, wf: &Workflow, dag_file: &str, state: &DagFileState) {
    let DagFileState::Read(dag) = state else {
        return;
    };
    let note = format!(
        "{dag_file}: {} tasks, {} dependencies",
        dag.tasks.len(),
        dag.edges.len()
    );
    ctx.event(
        &wf.object_ref(&()),
        EventType::Normal,
        "DagRead",
        "ReadDagFile",
        note,
    )
    .await;
}
