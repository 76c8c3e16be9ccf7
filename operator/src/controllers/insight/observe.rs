//! Observe (IO): what an insight's reconcile reads — the image list, its source project,
//! referenced datasets, the organization's bucket (reports) and its children, from caches.

use std::{collections::BTreeMap, sync::Arc};

use k8s_openapi::api::{apps::v1::Deployment, batch::v1::Job, core::v1::Pod};
use kube::{Api, ResourceExt as _, api::ObjectMeta, runtime::reflector::ObjectRef};
use ludis_crds::{Insight, LABEL_INSIGHT, Project, insight::InsightType, project::GitSource};

use crate::{
    context::Context,
    datasets::{self, DatasetRef},
    error::{self, Error, Result},
    images::ImageCatalog,
    k8s::stores::{metadata, owned_by},
    sizes::SizeCatalog,
};

/// What the reconcile reads (a source project missing from the cache is looked up).
pub struct Observed {
    pub images: ImageCatalog,
    pub sizes: SizeCatalog,
    /// Whether the source project exists (None: no source).
    pub project_exists: Option<bool>,
    /// The source project's repository, when it has one and the cache holds it (an application
    /// checks out its published revision from there).
    pub git: Option<GitSource>,
    pub datasets: BTreeMap<String, DatasetRef>,
    /// The organization's bucket, where a report's output goes (reports only).
    pub bucket: Option<String>,
    pub deployments: Vec<Arc<Deployment>>,
    /// The application's pods (any revision), newest first.
    pub pods: Vec<Arc<Pod>>,
    pub jobs: Vec<Arc<Job>>,
    pub services: Vec<ObjectMeta>,
}

impl Observed {
    /// The application's Deployment (named like the insight).
    pub fn deployment(&self, name: &str) -> Option<&Deployment> {
        self.deployments
            .iter()
            .map(AsRef::as_ref)
            .find(|d| d.metadata.name.as_deref() == Some(name))
    }
}

pub async fn observe(insight: &Insight, ctx: &Context) -> Result<Observed> {
    let ns = &insight.namespace().unwrap_or_default();
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let sizes = ctx.sizes().await.map_err(error::observe("size list"))?;
    let caches = &ctx.caches;
    // The source project: from the cache, else (it may lag a project created a moment ago: only
    // a hit is trusted) from the API server.
    let (project_exists, git) = match &insight.spec.source {
        None => (None, None),
        Some(src) => {
            let cached = caches
                .projects
                .get()
                .and_then(|s| s.get(&ObjectRef::new(&src.project).within(ns)));
            let spec = match cached {
                Some(guard) => Some(guard.0.as_ref().ok().map(|p| p.spec.clone())),
                None => Api::<Project>::namespaced(ctx.client.clone(), ns)
                    .get_opt(&src.project)
                    .await
                    .map_err(error::observe("source project"))?
                    .map(|p| Some(p.spec)),
            };
            let git = spec.as_ref().and_then(|s| s.as_ref()?.git.clone());
            (Some(spec.is_some()), git)
        }
    };
    let uid = insight.uid().unwrap_or_default();
    let datasets = datasets::resolve(ctx, ns, &insight.spec.datasets).await?;
    let bucket = match insight.spec.type_ {
        InsightType::Report if insight.spec.app_url.is_none() => Some(datasets::bucket_of(ctx, ns).await?),
        _ => None,
    };
    let name = insight.name_any();
    let mut pods = match insight.spec.type_ {
        InsightType::Application => caches.app_pods.ready("application pod").await?.state_filter(|p| {
            p.metadata.namespace.as_deref() == Some(ns.as_str())
                && p.labels().get(LABEL_INSIGHT) == Some(&name)
                && p.metadata.deletion_timestamp.is_none()
        }),
        _ => Vec::new(),
    };
    pods.sort_by(|a, b| b.metadata.creation_timestamp.cmp(&a.metadata.creation_timestamp));
    Ok(Observed {
        images,
        sizes,
        project_exists,
        git,
        pods,
        datasets,
        bucket,
        deployments: owned_by(caches.deployments.ready("deployment").await?, ns, &uid),
        jobs: owned_by(caches.report_jobs.ready("report job").await?, ns, &uid),
        services: metadata(&owned_by(
            caches.insight_services.ready("service").await?,
            ns,
            &uid,
        )),
    })
}
