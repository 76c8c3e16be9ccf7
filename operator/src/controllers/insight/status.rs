//! Status (IO at the end): the phase the observed workload is in (or why nothing runs), the
//! application's address and the report's output, written with the conditions of the
//! reconcile's verdict when they changed.

use kube::ResourceExt as _;
use ludis_crds::{
    Insight, InsightStatus,
    insight::{InsightPhase, InsightType},
};

use super::{build::Desired, observe::Observed};
use crate::{
    context::Context,
    controllers::pod_status,
    error::{AdmissionRefusal, Error, Result},
    events,
    k8s::apply::update_status,
    verdict::{Reason, Verdict},
};

/// Pure: phase and verdict from the observed workload.
pub fn phase_of(insight: &Insight, desired: &Desired, observed: &Observed) -> (InsightPhase, Verdict) {
    if insight.spec.app_url.is_some() {
        return (
            InsightPhase::External,
            Verdict::ready(Reason::External, "an external application; nothing runs here"),
        );
    }
    match insight.spec.type_ {
        InsightType::UserReport => (
            InsightPhase::Uploaded,
            Verdict::ready(Reason::Uploaded, "an uploaded report"),
        ),
        InsightType::Application if !insight.spec.running => (
            InsightPhase::Stopped,
            Verdict::ready(Reason::Stopped, "the application is scaled to zero"),
        ),
        InsightType::Application if insight.is_idle() => (
            InsightPhase::Idle,
            Verdict::ready(
                Reason::ScaledToZero,
                "the application is scaled to zero while nobody uses it; the next request through Ludis starts it",
            ),
        ),
        InsightType::Application => {
            let deployment = observed.deployment(&insight.name_any());
            let status = deployment.and_then(|d| d.status.as_ref());
            let generation_seen = deployment.is_some_and(|d| {
                d.status.as_ref().and_then(|s| s.observed_generation) >= d.metadata.generation
            });
            let updated = status.and_then(|s| s.updated_replicas).unwrap_or(0);
            let available = status.and_then(|s| s.available_replicas).unwrap_or(0);
            let total = status.and_then(|s| s.replicas).unwrap_or(0);
            if desired.deployment.is_some()
                && generation_seen
                && available >= 1
                && updated >= 1
                && total == updated
            {
                (
                    InsightPhase::Running,
                    Verdict::ready(Reason::Running, "the application runs"),
                )
            } else {
                // Why the newest pod does not serve, as its status says: no room on a node (it
                // waits, and says why), or a failure to act on (an image, the checkout, a
                // program that keeps exiting).
                match observed.pods.first().and_then(|p| pod_status::trouble(p)) {
                    Some(t) if t.is_waiting() => (
                        InsightPhase::Starting,
                        Verdict::progressing(Reason::Starting, t.message()),
                    ),
                    Some(t) => (
                        InsightPhase::Failed,
                        Verdict::degraded(Reason::AppFailed, t.message()),
                    ),
                    // No pod at all: its ReplicaSet may be refused one (the organization's quota
                    // or limits).
                    None => match deployment.and_then(refused_pods) {
                        Some(refusal) => {
                            let verdict = refusal.verdict();
                            let phase = if verdict.is_progressing() {
                                InsightPhase::Starting
                            } else {
                                InsightPhase::Failed
                            };
                            (phase, verdict)
                        }
                        None => (
                            InsightPhase::Starting,
                            Verdict::progressing(
                                Reason::Starting,
                                "waiting for the application to be available",
                            ),
                        ),
                    },
                }
            }
        }
        InsightType::Report => {
            let want = desired.job.as_ref().map(|j| j.name_any());
            let job = observed.jobs.iter().find(|j| Some(j.name_any()) == want);
            let cond = |t: &str| {
                job.and_then(|j| j.status.as_ref()?.conditions.as_ref())
                    .is_some_and(|c| c.iter().any(|c| c.type_ == t && c.status == "True"))
            };
            if cond("Complete") {
                (
                    InsightPhase::Rendered,
                    Verdict::ready(Reason::Rendered, "the report is rendered"),
                )
            } else if cond("Failed") {
                (
                    InsightPhase::Failed,
                    Verdict::degraded(
                        Reason::RenderFailed,
                        "rendering the report failed; see the job's logs",
                    ),
                )
            } else {
                (
                    InsightPhase::Rendering,
                    Verdict::progressing(Reason::Rendering, "the report is being rendered"),
                )
            }
        }
    }
}

/// Pure: why a Deployment's ReplicaSet could not make its pod, when the API server refused it for
/// the namespace's quota or limits (its `ReplicaFailure` condition).
fn refused_pods(d: &k8s_openapi::api::apps::v1::Deployment) -> Option<AdmissionRefusal<'_>> {
    d.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .filter(|c| c.type_ == "ReplicaFailure" && c.status == "True")
        .find_map(|c| AdmissionRefusal::of_message(c.message.as_deref()?))
}

/// Pure: the phase of an insight whose spec cannot be carried out (yet).
pub fn invalid_phase(insight: &Insight, verdict: &Verdict) -> InsightPhase {
    match verdict {
        Verdict::Degraded(..) => InsightPhase::Failed,
        // Waiting for something on its way (a dataset being set up).
        _ if insight.spec.type_ == InsightType::Report => InsightPhase::Rendering,
        _ => InsightPhase::Starting,
    }
}

/// Pure: the insight's status after a reconcile.
pub fn status_of(
    insight: &Insight,
    phase: InsightPhase,
    verdict: &Verdict,
    desired: &Desired,
) -> InsightStatus {
    let ns = insight.namespace().unwrap_or_default();
    let url = match (&insight.spec.app_url, &desired.service) {
        (Some(url), _) => Some(url.clone()),
        (None, Some(svc)) => Some(format!(
            "http://{}.{ns}.svc:{}",
            svc.name_any(),
            insight.spec.port
        )),
        _ => None,
    };
    let output = desired
        .report_output
        .clone()
        .filter(|_| phase == InsightPhase::Rendered);
    let existing = insight
        .status
        .as_ref()
        .map(|s| s.conditions.clone())
        .unwrap_or_default();
    InsightStatus {
        observed_generation: insight.metadata.generation,
        phase: Some(phase),
        url,
        output,
        conditions: verdict.conditions(&existing, insight.metadata.generation),
    }
}

/// Writes the insight's status when it changed, and publishes the change of verdict.
pub async fn update(
    ctx: &Context,
    insight: &Insight,
    phase: InsightPhase,
    verdict: &Verdict,
    desired: &Desired,
) -> Result<()> {
    let status = status_of(insight, phase, verdict, desired);
    update_status(&ctx.client, insight, insight.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?;
    events::announce(ctx, insight, verdict).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::{
        super::{build::build, fixtures::*},
        *,
    };
    use crate::context::Config;

    /// The phase of the app `sales` whose Deployment has made no pod, with `conditions`.
    fn without_pods(conditions: serde_json::Value) -> (InsightPhase, Verdict) {
        let app = app(json!({}));
        let desired = build(
            &app,
            &workload("python:3.12"),
            &Config::for_tests("ludis-system"),
            None,
        );
        let mut o = observed(Some(true));
        o.deployments = vec![Arc::new(
            serde_json::from_value(json!({
                "metadata": {"name": "sales", "generation": 1},
                "status": {"observedGeneration": 1, "replicas": 0, "conditions": conditions}
            }))
            .unwrap(),
        )];
        phase_of(&app, &desired, &o)
    }

    #[test]
    fn an_app_whose_pod_the_quota_or_limits_refuse_says_so() {
        let quota = "pods \"sales-1\" is forbidden: exceeded quota: ludis-quota, requested: requests.cpu=250m, used: requests.cpu=4, limited: requests.cpu=4";
        let (phase, verdict) = without_pods(
            json!([{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": quota}]),
        );
        assert_eq!(
            (phase, verdict.reason()),
            (InsightPhase::Starting, Reason::WaitingForQuota)
        );
        assert_eq!(
            verdict.message(),
            format!("waiting for the organization's quota: {quota}")
        );
        let limits = "pods \"sales-1\" is forbidden: maximum cpu usage per Container is 2, but limit is 64";
        let (phase, verdict) = without_pods(
            json!([{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": limits}]),
        );
        assert_eq!(
            (phase, verdict.reason()),
            (InsightPhase::Failed, Reason::LimitsExceeded)
        );
        // Another failure to create, or none: it starts.
        let (phase, verdict) = without_pods(
            json!([{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": "something else"}]),
        );
        assert_eq!(
            (phase, verdict.reason()),
            (InsightPhase::Starting, Reason::Starting)
        );
    }
}
