//! Compute usage (issue 34): CPU-hours and memory-hours per organization, user and item.
//!
//! Every [`SAMPLE_EVERY`] each replica lists the pods of every organization's namespace and
//! records each workload pod that runs or ran ([`crate::db::compute`]): what it set aside (its
//! containers' CPU and memory requests, which its hardware size gives), its start, and the last
//! time it was seen running (or its end). A pod's usage over a period is the overlap of that
//! span with the period times what it set aside, charged to the item it ran for (a project's
//! preview, an app or report, a workflow's tasks) and that item's owner. Sampling makes the end
//! of a pod that went between two samples up to a minute early; restarts and replicas lose nothing
//! (the record is per pod and only moves on).

use std::{collections::BTreeMap, time::Duration};

use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::{Api, ResourceExt as _, api::ListParams};
use ludis_crds::{LABEL_INSIGHT, LABEL_ORGANIZATION, LABEL_PROJECT, LABEL_WORKFLOW, sizes};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{self, compute::PodRun},
    domain::AssetKind,
    state::AppState,
};

/// How often the pods are sampled.
pub const SAMPLE_EVERY: Duration = Duration::from_secs(60);

/// Samples every [`SAMPLE_EVERY`] (with a cluster only).
pub async fn run(state: AppState) {
    if state.kube.is_none() {
        return;
    }
    let mut tick = tokio::time::interval(SAMPLE_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if let Err(e) = sample(&state, db::now()).await {
            tracing::warn!(
                error = format!("{e:#}"),
                "could not sample the workloads' compute usage"
            );
        }
    }
}

/// Records the workload pods of every organization's namespace as they are at `now`; answers how
/// many.
pub async fn sample(state: &AppState, now: i64) -> anyhow::Result<usize> {
    let Some(client) = state.kube.clone() else {
        return Ok(0);
    };
    let namespaces = Api::<Namespace>::all(client.clone())
        .list_metadata(&ListParams::default().labels(LABEL_ORGANIZATION))
        .await?;
    let mut recorded = 0;
    for namespace in namespaces
        .items
        .iter()
        .filter(|n| n.metadata.deletion_timestamp.is_none())
    {
        let Some(organization_id) = namespace.labels().get(LABEL_ORGANIZATION) else {
            continue;
        };
        // A namespace of an organization this API does not know (another installation's).
        if db::organizations::by_id(&state.db, organization_id)
            .await?
            .is_none()
        {
            continue;
        }
        let name = namespace.name_any();
        let pods = match Api::<Pod>::namespaced(client.clone(), &name)
            .list(&ListParams::default())
            .await
        {
            Ok(l) => l.items,
            Err(e) => {
                tracing::debug!(namespace = %name, error = %e, "could not list an organization's pods");
                continue;
            }
        };
        for pod in &pods {
            if let Some(run) = run_of(state, organization_id, &name, pod, now).await? {
                db::compute::record(&state.db, &run).await?;
                recorded += 1;
            }
        }
    }
    Ok(recorded)
}

/// The run of `pod` of `namespace` as of `now`, charged to its item (none: it never ran).
pub async fn run_of(
    state: &AppState,
    organization_id: &str,
    namespace: &str,
    pod: &Pod,
    now: i64,
) -> anyhow::Result<Option<PodRun>> {
    let (Some(span), Some(uid)) = (span_of(pod, now), pod.uid()) else {
        return Ok(None);
    };
    let asset = match workload_of(pod) {
        Some((kind, name)) => db::assets::by_resource(&state.db, kind, namespace, &name).await?,
        None => None,
    };
    Ok(Some(PodRun {
        pod_uid: uid,
        organization_id: organization_id.to_owned(),
        asset_kind: asset.as_ref().map(|a| a.kind.as_str().to_owned()),
        asset_name: asset.as_ref().map(|a| a.name.clone()),
        owner_uid: asset.as_ref().and_then(|a| a.owner_uid.clone()),
        asset_id: asset.map(|a| a.id),
        cpu_millicores: span.cpu_millicores,
        memory_bytes: span.memory_bytes,
        started_at: span.started_at,
        last_seen: span.last_seen,
    }))
}

/// What a pod set aside and when it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub cpu_millicores: i64,
    pub memory_bytes: i64,
    pub started_at: i64,
    pub last_seen: i64,
}

/// Pure: what `pod` set aside and from when until when it ran as of `now` (running: until now;
/// ended: until its last container finished); none before it starts.
pub fn span_of(pod: &Pod, now: i64) -> Option<Span> {
    let status = pod.status.as_ref()?;
    let started_at = status.start_time.as_ref()?.0.as_second();
    let last_seen = match status.phase.as_deref()? {
        "Running" => now,
        "Succeeded" | "Failed" => status
            .container_statuses
            .iter()
            .flatten()
            .filter_map(|c| c.state.as_ref()?.terminated.as_ref()?.finished_at.as_ref())
            .map(|t| t.0.as_second())
            .max()
            .unwrap_or(started_at),
        _ => return None,
    };
    let (mut cpu, mut memory) = (0u64, 0u64);
    for c in pod.spec.iter().flat_map(|s| &s.containers) {
        let requests = c.resources.as_ref().and_then(|r| r.requests.as_ref());
        let get = |k: &str| requests.and_then(|r| r.get(k)).map(|q| q.0.as_str());
        cpu += get("cpu").and_then(sizes::millicores).unwrap_or(0);
        memory += get("memory").and_then(sizes::bytes).unwrap_or(0);
    }
    Some(Span {
        cpu_millicores: i64::try_from(cpu).unwrap_or(i64::MAX),
        memory_bytes: i64::try_from(memory).unwrap_or(i64::MAX),
        started_at,
        last_seen: last_seen.max(started_at),
    })
}

/// Pure: the item a pod runs for, by its labels: a workflow's task or DAG file reader, a
/// project's preview, an app's or report's pod.
pub fn workload_of(pod: &Pod) -> Option<(AssetKind, String)> {
    let labels = pod.labels();
    [
        (LABEL_WORKFLOW, AssetKind::Workflow),
        (LABEL_PROJECT, AssetKind::ProjectV2),
        (LABEL_INSIGHT, AssetKind::Insight),
    ]
    .into_iter()
    .find_map(|(label, kind)| labels.get(label).map(|name| (kind, name.clone())))
}

/// CPU-hours and memory-hours (GiB-hours) of one line of the usage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ToSchema)]
pub struct Hours {
    /// Cores set aside × hours.
    pub cpu_hours: f64,
    /// GiB of memory set aside × hours.
    pub memory_gib_hours: f64,
}

impl Hours {
    fn add(&mut self, run: &PodRun, from: i64, to: i64) {
        let seconds = (run.last_seen.min(to) - run.started_at.max(from)).max(0) as f64;
        self.cpu_hours += run.cpu_millicores as f64 / 1000.0 * seconds / 3600.0;
        self.memory_gib_hours += run.memory_bytes as f64 / f64::from(1u32 << 30) * seconds / 3600.0;
    }
}

/// The hours of one item, with its kind and name as its pods ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemHours {
    pub kind: Option<String>,
    pub name: Option<String>,
    pub hours: Hours,
}

/// The hours of a period: in all, per owner uid (`None`: no known owner) and per item id
/// (`None`: pods of no known item).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    pub all: Hours,
    pub users: BTreeMap<Option<String>, Hours>,
    pub items: BTreeMap<Option<String>, ItemHours>,
}

/// Pure: the hours of `runs` within `[from, to)`.
pub fn hours_of(runs: &[PodRun], from: i64, to: i64) -> Totals {
    let mut totals = Totals::default();
    for run in runs {
        totals.all.add(run, from, to);
        totals
            .users
            .entry(run.owner_uid.clone())
            .or_default()
            .add(run, from, to);
        totals
            .items
            .entry(run.asset_id.clone())
            .or_insert_with(|| ItemHours {
                kind: run.asset_kind.clone(),
                name: run.asset_name.clone(),
                hours: Hours::default(),
            })
            .hours
            .add(run, from, to);
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(phase: &str, started: &str, finished: Option<&str>, labels: serde_json::Value) -> Pod {
        serde_json::from_value(json!({
            "metadata": {"name": "p", "uid": "u1", "labels": labels},
            "spec": {"containers": [
                {"name": "a", "image": "x", "resources": {"requests": {"cpu": "250m", "memory": "512Mi"}}},
                {"name": "b", "image": "x", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}},
                {"name": "c", "image": "x"}
            ]},
            "status": {"phase": phase, "startTime": started, "containerStatuses": finished.map(|f| vec![
                json!({"name": "a", "image": "x", "imageID": "", "ready": false, "restartCount": 0,
                    "state": {"terminated": {"exitCode": 0, "startedAt": started, "finishedAt": f}}})
            ])}
        }))
        .unwrap()
    }

    #[test]
    fn a_running_pod_runs_until_now_and_an_ended_one_until_its_end_setting_aside_its_requests() {
        let started = "2026-11-29T10:00:00Z";
        let t0 = 1_795_946_400; // 2026-11-29T10:00:00Z
        let running = span_of(&pod("Running", started, None, json!({})), t0 + 600).unwrap();
        assert_eq!(
            running,
            Span {
                cpu_millicores: 1250,
                memory_bytes: 1536 << 20,
                started_at: t0,
                last_seen: t0 + 600
            }
        );
        let ended = span_of(
            &pod("Succeeded", started, Some("2026-11-29T10:30:00Z"), json!({})),
            t0 + 9999,
        );
        assert_eq!(ended.map(|s| s.last_seen), Some(t0 + 1800));
        assert_eq!(span_of(&pod("Pending", started, None, json!({})), t0), None);
    }

    #[test]
    fn a_pod_is_charged_to_the_item_its_labels_name() {
        let of = |labels| workload_of(&pod("Running", "2026-11-29T10:00:00Z", None, labels));
        assert_eq!(
            of(json!({"ludis.dev/workflow": "etl", "ludis.dev/workflowrun": "etl-1"})),
            Some((AssetKind::Workflow, "etl".into()))
        );
        assert_eq!(
            of(json!({"ludis.dev/project": "demo"})),
            Some((AssetKind::ProjectV2, "demo".into()))
        );
        assert_eq!(
            of(json!({"ludis.dev/insight": "sales"})),
            Some((AssetKind::Insight, "sales".into()))
        );
        assert_eq!(of(json!({"app": "other"})), None);
    }

    #[test]
    fn hours_count_only_the_part_of_a_run_within_the_period() {
        let run = |uid: &str, owner: &str, start: i64, end: i64| PodRun {
            pod_uid: uid.into(),
            organization_id: "o".into(),
            asset_id: Some("a".into()),
            asset_kind: Some("project".into()),
            asset_name: Some("Demo".into()),
            owner_uid: Some(owner.into()),
            cpu_millicores: 500,
            memory_bytes: 2 << 30,
            started_at: start,
            last_seen: end,
        };
        // Two hours, of which one is in the period; and one whole hour of another owner.
        let runs = [run("1", "ann", 0, 7200), run("2", "bob", 3600, 7200)];
        let totals = hours_of(&runs, 3600, 10_000);
        assert_eq!(
            totals.all,
            Hours {
                cpu_hours: 1.0,
                memory_gib_hours: 4.0
            }
        );
        assert_eq!(
            totals.users[&Some("ann".to_owned())],
            Hours {
                cpu_hours: 0.5,
                memory_gib_hours: 2.0
            }
        );
        assert_eq!(totals.items[&Some("a".to_owned())].hours, totals.all);
    }
}
