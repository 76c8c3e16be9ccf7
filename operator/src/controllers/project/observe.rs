//! Observe (IO): what a project's reconcile reads — the image list, referenced Secrets and
//! datasets, and the project's children, from caches (Secrets from the API server).

use std::{collections::BTreeMap, sync::Arc};

use k8s_openapi::api::core::v1::{Pod, Secret};
use kube::{Api, ResourceExt as _, api::ObjectMeta};
use ludis_crds::{Project, project::GitSource};

use crate::{
    context::Context,
    datasets::{self, DatasetRef},
    error::{self, Error, Result},
    images::ImageCatalog,
    k8s::stores::{metadata, owned_by},
    sizes::SizeCatalog,
};

/// What the reconcile reads.
pub struct Observed {
    pub images: ImageCatalog,
    pub sizes: SizeCatalog,
    /// Referenced Secrets, by name: whether each exists.
    pub secrets: BTreeMap<String, bool>,
    pub datasets: BTreeMap<String, DatasetRef>,
    pub preview_pods: Vec<Arc<Pod>>,
    pub workspaces: Vec<ObjectMeta>,
    pub services: Vec<ObjectMeta>,
}

pub async fn observe(project: &Project, ctx: &Context) -> Result<Observed> {
    let ns = project.namespace().unwrap_or_default();
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let sizes = ctx.sizes().await.map_err(error::observe("size list"))?;
    let secrets_api: Api<Secret> = Api::namespaced(ctx.client.clone(), &ns);
    let mut secrets = BTreeMap::new();
    for name in referenced_secrets(project) {
        let exists = secrets_api
            .get_metadata_opt(&name)
            .await
            .map_err(error::observe("secret"))?
            .is_some();
        secrets.insert(name, exists);
    }
    let uid = project.uid().unwrap_or_default();
    let caches = &ctx.caches;
    let datasets = datasets::resolve(ctx, &ns, &project.spec.datasets).await?;
    Ok(Observed {
        images,
        sizes,
        secrets,
        datasets,
        preview_pods: owned_by(caches.preview_pods.ready("preview pod").await?, &ns, &uid),
        workspaces: metadata(&owned_by(caches.workspaces.ready("workspace").await?, &ns, &uid)),
        services: metadata(&owned_by(
            caches.project_services.ready("preview service").await?,
            &ns,
            &uid,
        )),
    })
}

/// The Secrets a project's pods need: its environment and its git credentials.
fn referenced_secrets(project: &Project) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(s) = &project.spec.env_secret {
        names.push(s.name.clone());
    }
    if let Some(GitSource {
        credentials_secret: Some(s),
        ..
    }) = &project.spec.git
    {
        names.push(s.name.clone());
    }
    names
}
