//! Observe (IO): the run's workflow and its project, the image list, where its upload tasks put files, and its
//! task pods (listed fresh: a pod's outcome decides what runs next).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use kube::{Api, ResourceExt as _, api::ListParams};
use ludis_crds::{LABEL_WORKFLOW_RUN, Project, Workflow, WorkflowRun};

use crate::{
    context::Context,
    datasets::{self, DatasetRef},
    error::{self, Error, Result},
    images::ImageCatalog,
    k8s::labels::children_selector,
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
    /// The datasets of the workflow's upload tasks that are ready.
    pub destinations: Destinations,
    /// The run's task pods.
    pub pods: Vec<Pod>,
}

pub async fn observe(run: &WorkflowRun, ctx: &Context) -> Result<Observed> {
    let ns = run.namespace().unwrap_or_default();
    let Some(workflow) = Api::<Workflow>::namespaced(ctx.client.clone(), &ns)
        .get_opt(&run.spec.workflow)
        .await
        .map_err(error::observe("workflow"))?
    else {
        return Ok(Observed::default());
    };
    let project = Api::<Project>::namespaced(ctx.client.clone(), &ns)
        .get_opt(&workflow.spec.project)
        .await
        .map_err(error::observe("project"))?;
    let images = ctx.images().await.map_err(Error::ReadImages)?;
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
    let pods = Api::<Pod>::namespaced(ctx.client.clone(), &ns)
        .list(&ListParams::default().labels(&children_selector(LABEL_WORKFLOW_RUN, &run.name_any())))
        .await
        .map_err(error::observe("task pods"))?
        .items;
    Ok(Observed {
        workflow: Some(workflow),
        project,
        images,
        destinations,
        pods,
    })
}
