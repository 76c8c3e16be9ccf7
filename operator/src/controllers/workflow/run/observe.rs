//! Observe (IO): the run's workflow and its project, the image list, where its upload tasks put
//! files, and its task pods — from the controllers' caches (a workflow or project missing from
//! its cache is looked up). A task pod missing from the cache is one created a moment ago: the
//! task stays running until its pod shows up.

use std::{collections::BTreeMap, sync::Arc};

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt as _;
use ludis_crds::{Project, Workflow, WorkflowRun};

use crate::{
    context::Context,
    datasets::{self, DatasetRef},
    error::{self, Error, Result},
    images::ImageCatalog,
    k8s::stores::{cached_or_get, owned_by},
    sizes::SizeCatalog,
};

/// Where upload tasks put their files: dataset name → `s3://bucket/prefix`.
pub type Destinations = BTreeMap<String, String>;

/// What the reconcile reads. Without a workflow, nothing else is read.
#[derive(Default)]
pub struct Observed {
    /// The run's workflow (None: it does not exist).
    pub workflow: Option<Workflow>,
    /// The workflow's project (its repository is what the tasks check out).
    pub project: Option<Project>,
    pub images: ImageCatalog,
    pub sizes: SizeCatalog,
    /// The datasets of the workflow's upload tasks that are ready.
    pub destinations: Destinations,
    /// The run's task pods (without their spec).
    pub pods: Vec<Arc<Pod>>,
}

impl Observed {
    /// What its task pods are built from.
    pub fn resolvers(&self) -> super::task_pod::Resolvers<'_> {
        super::task_pod::Resolvers {
            images: &self.images,
            sizes: &self.sizes,
            destinations: &self.destinations,
        }
    }
}

pub async fn observe(run: &WorkflowRun, ctx: &Context) -> Result<Observed> {
    let ns = run.namespace().unwrap_or_default();
    let caches = &ctx.caches;
    let Some(workflow) = cached_or_get(&caches.workflows, &ctx.client, &ns, &run.spec.workflow)
        .await
        .map_err(error::observe("workflow"))?
    else {
        return Ok(Observed::default());
    };
    let project = cached_or_get(&caches.projects, &ctx.client, &ns, &workflow.spec.project)
        .await
        .map_err(error::observe("project"))?;
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let sizes = ctx.sizes().await.map_err(error::observe("size list"))?;
    let mut destinations = Destinations::new();
    for upload in workflow.spec.tasks.iter().filter_map(|t| t.upload.as_ref()) {
        if destinations.contains_key(&upload.dataset) {
            continue;
        }
        let dataset = datasets::get(ctx, &ns, &upload.dataset).await?;
        if let DatasetRef::At(url) = DatasetRef::of(dataset.as_ref()) {
            destinations.insert(upload.dataset.clone(), url);
        }
    }
    let pods = owned_by(
        caches.task_pods.ready("task pod").await?,
        &ns,
        &run.uid().unwrap_or_default(),
    );
    Ok(Observed {
        workflow: Some(workflow),
        project,
        images,
        sizes,
        destinations,
        pods,
    })
}
