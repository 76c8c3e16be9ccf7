//! Apply (IO): server-side apply the project's children when they changed, and delete the preview
//! pods and services that are no longer wanted.

use k8s_openapi::api::core::v1::{Pod, Service};
use kube::ResourceExt as _;
use ludis_crds::Project;

use super::{CONTROLLER, build::Desired, observe::Observed};
use crate::{context::Context, error::Result, k8s::stores::metadata};

pub async fn apply(ctx: &Context, project: &Project, desired: &Desired, observed: &Observed) -> Result<()> {
    let children = ctx.children(CONTROLLER, project);
    children
        .apply("workspace volume", &desired.pvc, &observed.workspaces)
        .await?;
    let pods = metadata(&observed.preview_pods);
    if let Some(pod) = &desired.pod {
        // A pod's spec cannot change in place; its name carries the spec's hash.
        children.apply("preview pod", pod, &pods).await?;
    }
    if let Some(svc) = &desired.service {
        children.apply("preview service", svc, &observed.services).await?;
    }
    let keep: Vec<String> = desired.pod.iter().map(|p| p.name_any()).collect();
    children
        .delete_orphans::<Pod>("preview pods", &pods, &keep)
        .await?;
    let keep: Vec<String> = desired.service.iter().map(|s| s.name_any()).collect();
    children
        .delete_orphans::<Service>("preview services", &observed.services, &keep)
        .await?;
    children.applied();
    Ok(())
}
