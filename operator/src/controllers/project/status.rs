//! Status (IO at the end): the phase the observed preview pod is in, written with the conditions
//! of the reconcile's verdict when it changed.

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt as _;
use ludis_crds::{Project, ProjectStatus, project::ProjectPhase};

use super::{build::Desired, observe::Observed};
use crate::{
    context::Context,
    controllers::pod_status,
    error::{Error, Result},
    events,
    k8s::apply::update_status,
    verdict::{Reason, Verdict},
};

/// The preview pod that is wanted, as observed (not while it is being deleted).
pub fn preview_pod<'a>(desired: &Desired, observed: &'a Observed) -> Option<&'a Pod> {
    let want = desired.pod.as_ref()?;
    observed
        .preview_pods
        .iter()
        .find(|p| p.name_any() == want.name_any() && p.metadata.deletion_timestamp.is_none())
        .map(AsRef::as_ref)
}

/// Pure: the phase and verdict from the observed preview pod.
pub fn phase_of(project: &Project, pod: Option<&Pod>) -> (ProjectPhase, Verdict) {
    if !project.spec.preview.running {
        return (
            ProjectPhase::Stopped,
            Verdict::ready(Reason::Stopped, "the workspace is ready; no preview runs"),
        );
    }
    let Some(pod) = pod else {
        return (
            ProjectPhase::Starting,
            Verdict::progressing(Reason::PreviewStarting, "the preview pod is being created"),
        );
    };
    // What the pod's status says first: no room on a node (it waits, and says why), a checkout,
    // an image or a program that failed.
    if let Some(trouble) = pod_status::trouble(pod) {
        return if trouble.is_waiting() {
            (
                ProjectPhase::Starting,
                Verdict::progressing(Reason::PreviewStarting, trouble.message()),
            )
        } else {
            (
                ProjectPhase::Failed,
                Verdict::degraded(Reason::PreviewFailed, trouble.message()),
            )
        };
    }
    let status = pod.status.as_ref();
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    match status.and_then(|s| s.phase.as_deref()) {
        Some("Running") if ready => (
            ProjectPhase::Running,
            Verdict::ready(Reason::PreviewRunning, "the preview runs"),
        ),
        Some("Failed") => (
            ProjectPhase::Failed,
            Verdict::degraded(Reason::PreviewFailed, "the preview pod failed; see its logs"),
        ),
        Some("Succeeded") => (
            ProjectPhase::Failed,
            Verdict::degraded(Reason::PreviewExited, "the preview command exited"),
        ),
        _ => (
            ProjectPhase::Starting,
            Verdict::progressing(Reason::PreviewStarting, "waiting for the preview pod to be ready"),
        ),
    }
}

/// Pure: the phase of a project whose spec cannot be carried out (yet).
pub fn invalid_phase(verdict: &Verdict) -> ProjectPhase {
    if verdict.is_progressing() {
        ProjectPhase::Starting
    } else {
        ProjectPhase::Failed
    }
}

/// Pure: the project's status after a reconcile (`desired`: None when the spec is invalid and
/// nothing was applied).
pub fn status_of(
    project: &Project,
    phase: ProjectPhase,
    verdict: &Verdict,
    desired: Option<&Desired>,
) -> ProjectStatus {
    let ns = project.namespace().unwrap_or_default();
    let service = desired.and_then(|d| d.service.as_ref());
    let existing = project
        .status
        .as_ref()
        .map(|s| s.conditions.clone())
        .unwrap_or_default();
    ProjectStatus {
        observed_generation: project.metadata.generation,
        phase: Some(phase),
        preview_pod: desired.and_then(|d| d.pod.as_ref()).map(|p| p.name_any()),
        // The base path is part of the URL: a proxy forwards whole paths to a server under one.
        url: service.map(|s| {
            let base = project.spec.preview.base_path.as_deref().unwrap_or("/");
            format!(
                "http://{}.{ns}.svc:{}{}",
                s.name_any(),
                project.spec.preview.port,
                base.trim_end_matches('/')
            )
        }),
        port: service.map(|_| project.spec.preview.port),
        conditions: verdict.conditions(&existing, project.metadata.generation),
    }
}

/// Writes the project's status when it changed, and publishes the change of verdict.
pub async fn update(
    ctx: &Context,
    project: &Project,
    phase: ProjectPhase,
    verdict: &Verdict,
    desired: Option<&Desired>,
) -> Result<()> {
    let status = status_of(project, phase, verdict, desired);
    update_status(&ctx.client, project, project.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?;
    events::announce(ctx, project, verdict).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{super::fixtures::project, *};

    #[test]
    fn phases_follow_the_preview_pod() {
        let running = project(json!({"displayName": "D", "image": "py", "preview": {"running": true}}));
        assert_eq!(phase_of(&running, None).0, ProjectPhase::Starting);
        let pod: Pod = serde_json::from_value(json!({"status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "True"}]}}))
        .unwrap();
        let (phase, verdict) = phase_of(&running, Some(&pod));
        assert_eq!(phase, ProjectPhase::Running);
        assert!(verdict.is_ready());
        let failed: Pod = serde_json::from_value(json!({"status": {"phase": "Failed"}})).unwrap();
        assert_eq!(phase_of(&running, Some(&failed)).1.reason(), "PreviewFailed");
        let stopped = project(json!({"displayName": "D", "image": "py"}));
        assert_eq!(phase_of(&stopped, None).0, ProjectPhase::Stopped);
    }

    #[test]
    fn a_preview_that_cannot_run_says_why() {
        let running = project(json!({"displayName": "D", "image": "py", "preview": {"running": true}}));
        let pending: Pod = serde_json::from_value(json!({"status": {"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "message": "0/2 nodes are available: 1 Insufficient cpu."}]}}))
        .unwrap();
        let (phase, verdict) = phase_of(&running, Some(&pending));
        assert_eq!(phase, ProjectPhase::Starting);
        assert!(verdict.message().contains("Insufficient cpu"), "{verdict:?}");
        let checkout: Pod = serde_json::from_value(json!({"status": {"phase": "Pending",
            "initContainerStatuses": [{"name": "git-checkout", "ready": false, "restartCount": 1,
            "image": "g", "imageID": "", "lastState": {"terminated": {"exitCode": 128}}}]}}))
        .unwrap();
        let (phase, verdict) = phase_of(&running, Some(&checkout));
        assert_eq!(phase, ProjectPhase::Failed);
        assert!(verdict.message().contains("checkout"), "{verdict:?}");
    }
}
