//! Project custom resources written by the API: server-side apply under the field manager
//! `ludis-api`, never forced ([`apply::apply`]), with the fields the API decides
//! (`displayName`, `description`, `language`, `git`, `image`, `envSecret`, `datasets`,
//! `preview`), the `ludis.dev/id` label and the `ludis.dev/owner` annotation. `spec.sharing`
//! and anything else set with kubectl stay with whoever set them.
//!
//! Beside it, two Secrets owned by the Project (so they go with it): `<name>-git`, the owner's git
//! username and token for an external remote (the preview's checkout reads it), and `<name>-env`,
//! the project's environment variables (the preview's environment, read at its next start).
//!
//! A project applied with kubectl or GitOps (`origin = resource`) belongs to its resource: the API
//! applies nothing to it. Without a cluster, or for a row without a resource, every call does
//! nothing.

use std::collections::BTreeMap;

use anyhow::Context as _;
use k8s_openapi::{
    ByteString,
    api::core::v1::Secret,
    apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference},
};
use kube::{
    Api, Resource as _,
    api::{Patch, PatchParams},
};
use ludis_crds::{FIELD_MANAGER_API, LABEL_ID, Project as ProjectCr};
use serde_json::{Value, json};

use super::apply::{self, truncate};
use crate::{
    db::{
        assets,
        projects::{Project, ProjectRow},
    },
    domain::{AssetKind, Language},
    state::AppState,
};

/// The CRD's limits on `displayName` and `description` (characters).
const MAX_NAME: usize = 128;
const MAX_DESCRIPTION: usize = 2000;
/// The port the preview serves its web view on.
pub const PREVIEW_PORT: i32 = 8080;
/// The port a legacy project's JupyterLab listens on (JupyterLab's own default).
pub const JUPYTER_PORT: i32 = 8888;

impl apply::Applied for ProjectCr {
    const KIND: AssetKind = AssetKind::ProjectV2;
}

/// The Secret that held a project's git credentials before pods cloned with their own identity
/// (`<resource name>-git`): removed when the project's resource is applied.
fn retired_git_secret_name(resource: &str) -> String {
    format!("{resource}-git")
}

/// The Secret of a project's environment variables: `<resource name>-env`.
pub fn env_secret_name(resource: &str) -> String {
    format!("{resource}-env")
}

/// Where a new project's resource goes ([`apply::placement`]); `None` without a cluster.
pub async fn placement(
    state: &AppState,
    organization_id: &str,
    id: &str,
    name: &str,
) -> anyhow::Result<Option<(String, String)>> {
    apply::placement(state, AssetKind::ProjectV2, organization_id, id, name).await
}

/// Applies the Project resource of `p` (creating it, or updating the fields the API owns). Does
/// nothing for a project its resource manages, without a cluster, or for a row without a
/// resource. Another manager owning a field the API would change is a [`apply::Conflict`].
pub async fn apply(state: &AppState, p: &Project) -> anyhow::Result<()> {
    if p.asset.is_managed() {
        return Ok(());
    }
    let Some((namespace, name)) = p.asset.resource() else {
        return Ok(());
    };
    let datasets = dataset_names(state, &p.details, namespace).await?;
    let hosted = hosted_url(&state.settings.git_url, namespace, &p.asset.id);
    let web_base = format!("{}/", crate::routes::apps::mount_prefix(state, &p.asset.id));
    let context = Context {
        datasets: &datasets,
        hosted: hosted.as_deref(),
        web_base: &web_base,
    };
    let body = object(p, namespace, name, &context);
    apply::apply::<ProjectCr>(state, &p.asset, &body).await?;
    remove_retired_git_secret(state, namespace, name).await
}

/// Deletes the project's retired git Secret (a checkout token, or the owner's personal access
/// token of an imported project) when there still is one.
async fn remove_retired_git_secret(state: &AppState, namespace: &str, name: &str) -> anyhow::Result<()> {
    let Some(client) = &state.kube else {
        return Ok(());
    };
    let secret = retired_git_secret_name(name);
    match Api::<Secret>::namespaced(client.clone(), namespace)
        .delete(&secret, &Default::default())
        .await
    {
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        done => done
            .map(|_| ())
            .with_context(|| format!("failed to delete the retired secret {namespace}/{secret}")),
    }
}

/// Deletes the Project resource (its Secrets, volume and pods go with it).
pub async fn delete(state: &AppState, p: &Project) -> anyhow::Result<()> {
    apply::delete::<ProjectCr>(state, &p.asset).await
}

impl apply::Written for ProjectRow {
    async fn apply(state: &AppState, p: &Project) -> anyhow::Result<()> {
        apply(state, p).await
    }
    async fn delete(state: &AppState, p: &Project) -> anyhow::Result<()> {
        delete(state, p).await
    }
}

/// Writes one of the project's Secrets (`data`: key → value), owned by its Project resource.
/// Nothing without a cluster or for a row without a resource.
pub async fn write_secret(
    state: &AppState,
    p: &Project,
    secret_name: &str,
    data: BTreeMap<String, String>,
) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, p.asset.resource()) else {
        return Ok(());
    };
    let project = Api::<ProjectCr>::namespaced(client.clone(), namespace)
        .get(name)
        .await
        .with_context(|| format!("failed to read project {namespace}/{name}"))?;
    let owner = project
        .controller_owner_ref(&())
        .map(|mut r| {
            r.controller = Some(false);
            r
        })
        .unwrap_or_else(|| OwnerReference {
            api_version: ProjectCr::api_version(&()).into_owned(),
            kind: ProjectCr::kind(&()).into_owned(),
            name: name.to_owned(),
            uid: project.metadata.uid.clone().unwrap_or_default(),
            ..Default::default()
        });
    let secret = Secret {
        metadata: ObjectMeta {
            name: Some(secret_name.to_owned()),
            namespace: Some(namespace.to_owned()),
            labels: Some(BTreeMap::from([(LABEL_ID.to_owned(), p.asset.id.clone())])),
            owner_references: Some(vec![owner]),
            ..Default::default()
        },
        data: Some(
            data.into_iter()
                .map(|(k, v)| (k, ByteString(v.into_bytes())))
                .collect(),
        ),
        type_: Some("Opaque".into()),
        ..Default::default()
    };
    Api::<Secret>::namespaced(client.clone(), namespace)
        .patch(
            secret_name,
            &PatchParams::apply(FIELD_MANAGER_API).force(),
            &Patch::Apply(&secret),
        )
        .await
        .with_context(|| format!("failed to write secret {namespace}/{secret_name}"))?;
    Ok(())
}

/// The resource names of the project's datasets that have one in the same namespace.
async fn dataset_names(state: &AppState, p: &ProjectRow, namespace: &str) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for id in &p.dataset_ids {
        if let Some(a) = assets::by_id(&state.db, id).await?
            && a.kind == AssetKind::Dataset
            && a.namespace.as_deref() == Some(namespace)
            && let Some(name) = a.resource_name
        {
            out.push(name);
        }
    }
    Ok(out)
}

/// Where a resource's pods reach: the cluster's names for the references the API resolved.
pub struct Context<'a> {
    /// The datasets' resource names.
    pub datasets: &'a [String],
    /// Where a hosted repository is served to pods (this API's git server), if it is.
    pub hosted: Option<&'a str>,
    /// The path the app proxy serves the project's web view under: `/` at the root of its own
    /// origin, else `/apps/{id}/` (JupyterLab serves under it; the web view's URL carries it).
    pub web_base: &'a str,
}

/// Pure: a legacy project's size (GiB, digits) as the workspace volume's size.
fn workspace_size(size: &str) -> Option<String> {
    size.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .map(|n| format!("{n}Gi"))
}

/// Pure: where preview pods clone hosted repository `id` of `namespace` from this API's git
/// server at `base` (`LUDIS_GIT_URL`); `None` when it is not set.
pub fn hosted_url(base: &str, namespace: &str, id: &str) -> Option<String> {
    let base = base.trim().trim_end_matches('/');
    (!base.is_empty()).then(|| format!("{base}/{namespace}/{id}.git"))
}

/// Pure: the applied object: identity, the id label, the owner annotation and the spec fields the
/// API decides. Pods clone the project's repository from this API's git server at
/// `context.hosted` (a hosted repository, or the API's mirror of an imported project's remote)
/// with their own identity, so no credentials are named; without it there is no `git` (the
/// preview starts from the workspace volume).
pub fn object(p: &Project, namespace: &str, name: &str, context: &Context) -> Value {
    let d = &p.details;
    let git = context.hosted.map(|url| json!({"url": url, "branch": d.branch}));
    let mut spec = json!({
        "displayName": truncate(&p.asset.name, MAX_NAME),
        "description": truncate(&p.asset.description, MAX_DESCRIPTION),
        "language": match d.language { Language::Python => "python", Language::R => "r" },
        "image": d.image_id,
        "envSecret": {"name": env_secret_name(name)},
        "datasets": context.datasets.iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "preview": {"running": d.running, "port": PREVIEW_PORT},
    });
    if let Some(git) = git {
        spec["git"] = git;
    }
    if let Some(file) = &d.run_file {
        spec["preview"]["file"] = json!(file);
    }
    if let Some(size) = &d.size_id {
        spec["size"] = json!(size);
    }
    if d.is_notebook() {
        // JupyterLab serves where the app proxy mounts the project's web view, and the proxy
        // forwards whole paths (the web view's URL carries the base).
        spec["flavour"] = json!("notebook");
        spec["preview"]["basePath"] = json!(context.web_base);
        spec["preview"]["port"] = json!(JUPYTER_PORT);
        if let Some(size) = workspace_size(&d.size) {
            spec["workspaceSize"] = json!(size);
        }
    }
    apply::object(&p.asset, namespace, name, spec, true)
}

#[cfg(test)]
mod tests {
    use ludis_crds::{ANNOTATION_OWNER, LABEL_ID};

    use super::*;
    use crate::{db::assets::AssetRow, domain::Origin};

    fn project(repo_url: Option<&str>) -> Project {
        let id = "1a2b3c4d-0000-4000-8000-000000000000";
        Project {
            asset: AssetRow {
                owner_uid: Some("u1".into()),
                description: "Forecasts".into(),
                origin: Origin::Api,
                ..AssetRow::new(
                    AssetKind::ProjectV2,
                    id.into(),
                    "org".into(),
                    "Sales model".into(),
                    0,
                )
            }
            .placed(Some(("ludis-acme".into(), "sales-model-1a2b3c4d".into()))),
            details: ProjectRow {
                id: id.into(),
                language: Language::R,
                repo_url: repo_url.map(str::to_owned),
                branch: "main".into(),
                image_id: "r-4.4".into(),
                running: true,
                ..ProjectRow::default()
            },
        }
    }

    /// No datasets, no hosted repository, the web view at `web_base`.
    fn plain(web_base: &str) -> Context<'_> {
        Context {
            datasets: &[],
            hosted: None,
            web_base,
        }
    }

    #[test]
    fn the_object_carries_the_id_the_owner_and_the_fields_the_api_decides() {
        let p = project(Some("https://git.example/acme/sales.git"));
        let datasets = ["sales-data-12345678".to_owned()];
        let o = object(
            &p,
            "ludis-acme",
            "sales-model-1a2b3c4d",
            &Context {
                datasets: &datasets,
                hosted: Some("http://api.ludis-system.svc:8080/git/ludis-acme/p1.git"),
                web_base: "/",
            },
        );
        assert_eq!(o["kind"], "Project");
        assert_eq!(o["metadata"]["labels"][LABEL_ID], p.asset.id);
        assert_eq!(o["metadata"]["annotations"][ANNOTATION_OWNER], "u1");
        // An imported project's pods clone the API's mirror of its remote, with their own
        // identity: neither the remote nor a credential is named.
        assert!(o["spec"]["git"].get("credentialsSecret").is_none(), "{o}");
        assert_eq!(o["spec"]["envSecret"]["name"], "sales-model-1a2b3c4d-env");
        // It decodes as the CRD's type; sharing is left to whoever sets it.
        let cr: ProjectCr = serde_json::from_value(o).unwrap();
        assert_eq!(cr.spec.display_name, "Sales model");
        assert_eq!(cr.spec.language, ludis_crds::common::Language::R);
        assert_eq!(cr.spec.image, "r-4.4");
        assert!(cr.spec.preview.running);
        assert_eq!(cr.spec.preview.port, PREVIEW_PORT);
        assert_eq!(cr.spec.datasets[0].name, "sales-data-12345678");
        assert_eq!(
            cr.spec.git.unwrap().url,
            "http://api.ludis-system.svc:8080/git/ludis-acme/p1.git"
        );
        assert_eq!(cr.spec.sharing, None);
        assert_eq!(cr.spec.flavour, ludis_crds::project::ProjectFlavour::Code);
        assert_eq!(cr.spec.preview.base_path, None);
    }

    #[test]
    fn a_notebook_project_runs_jupyterlab_under_its_app_prefix() {
        let mut p = project(None);
        p.details.flavour = crate::domain::ProjectFlavour::Notebook;
        p.details.size = "7".into();
        let o = object(
            &p,
            "ns",
            "n",
            &plain("/apps/1a2b3c4d-0000-4000-8000-000000000000/"),
        );
        let cr: ProjectCr = serde_json::from_value(o).unwrap();
        assert_eq!(cr.spec.flavour, ludis_crds::project::ProjectFlavour::Notebook);
        assert_eq!(
            cr.spec.preview.base_path.as_deref(),
            Some("/apps/1a2b3c4d-0000-4000-8000-000000000000/")
        );
        // At the root of its own origin, JupyterLab serves at the root.
        let o = object(&p, "ns", "n", &plain("/"));
        assert_eq!(o["spec"]["preview"]["basePath"], "/");
        assert_eq!(cr.spec.workspace_size, "7Gi");
        assert_eq!(cr.spec.preview.port, JUPYTER_PORT);
        assert_eq!(workspace_size("0"), None);
        assert_eq!(workspace_size("x"), None);
    }

    #[test]
    fn a_hosted_project_is_cloned_from_the_apis_git_server_when_it_has_one() {
        let o = object(&project(None), "ns", "n", &plain("/"));
        assert!(o["spec"].get("git").is_none(), "{o}");
        assert_eq!(o["spec"]["datasets"], json!([]));
        let url = hosted_url("http://api.ludis-system.svc:8080/git/", "ns", "id1");
        assert_eq!(
            url.as_deref(),
            Some("http://api.ludis-system.svc:8080/git/ns/id1.git")
        );
        assert_eq!(hosted_url(" ", "ns", "id1"), None);
        let o = object(
            &project(None),
            "ns",
            "n",
            &Context {
                hosted: url.as_deref(),
                ..plain("/")
            },
        );
        assert_eq!(
            o["spec"]["git"]["url"],
            "http://api.ludis-system.svc:8080/git/ns/id1.git"
        );
        assert!(o["spec"]["git"].get("credentialsSecret").is_none(), "{o}");
    }
}
