//! Apply (IO): server-side apply the insight's Deployment and Service when they changed, create
//! its render Job once, and delete the children that are no longer wanted.

use k8s_openapi::api::{apps::v1::Deployment, batch::v1::Job, core::v1::Service};
use kube::ResourceExt as _;
use ludis_crds::Insight;

use super::{CONTROLLER, build::Desired, observe::Observed};
use crate::{context::Context, error::Result, k8s::stores::metadata};

pub async fn apply(ctx: &Context, insight: &Insight, desired: &Desired, observed: &Observed) -> Result<()> {
    let children = ctx.children(CONTROLLER, insight);
    let deployments = metadata(&observed.deployments);
    let jobs = metadata(&observed.jobs);
    // The Deployment and its Service are independent: applied side by side.
    let deployment = async {
        match &desired.deployment {
            Some(d) => children.apply("deployment", d, &deployments).await.map(|_| ()),
            None => Ok(()),
        }
    };
    let service = async {
        match &desired.service {
            Some(s) => children.apply("service", s, &observed.services).await.map(|_| ()),
            None => Ok(()),
        }
    };
    futures::try_join!(deployment, service)?;
    if let Some(j) = &desired.job {
        // A Job's template is immutable: created once (its name carries the hash of what it
        // renders), never re-applied.
        children.create("report job", j, &jobs).await?;
    }
    let keep: Vec<String> = desired.deployment.iter().map(|d| d.name_any()).collect();
    children
        .delete_orphans::<Deployment>("deployments", &deployments, &keep)
        .await?;
    let keep: Vec<String> = desired.service.iter().map(|s| s.name_any()).collect();
    children
        .delete_orphans::<Service>("services", &observed.services, &keep)
        .await?;
    let keep: Vec<String> = desired.job.iter().map(|j| j.name_any()).collect();
    children.delete_orphans::<Job>("jobs", &jobs, &keep).await?;
    children.applied();
    Ok(())
}
