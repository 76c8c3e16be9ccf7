//! The cluster side of identity and administration: organization namespaces (server-side apply
//! under the API's field manager) and asset ownership (the `ludis.dev/owner` annotation).

use std::collections::BTreeMap;

use anyhow::Context as _;
use k8s_openapi::{NamespaceResourceScope, api::core::v1::Namespace};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{DeleteParams, ListParams, ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{
    ANNOTATION_BUCKET, ANNOTATION_OWNER, Dataset, FIELD_MANAGER_API, Insight, LABEL_ORGANIZATION, Project,
    Workflow,
};
use serde::de::DeserializeOwned;

/// The asset kinds whose ownership can move (spec 001 §9 migration entity types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetKind {
    Insight,
    Project,
    Workflow,
    Dataset,
}

impl AssetKind {
    pub const ALL: [AssetKind; 4] = [Self::Project, Self::Insight, Self::Workflow, Self::Dataset];

    /// insight/application, project, workflow, dataset (any case, singular or plural; also the
    /// spec's entity type names Application, Insight, Project, Project_V2, Dataset, Workflow).
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_lowercase().trim_end_matches('s') {
            "insight" | "application" | "app" => Some(Self::Insight),
            "project" | "project_v2" | "projectv2" => Some(Self::Project),
            "workflow" => Some(Self::Workflow),
            "dataset" => Some(Self::Dataset),
            _ => None,
        }
    }

    /// The metrics entity name of the kind.
    pub fn metrics_entity(self) -> &'static str {
        match self {
            Self::Insight => "applications",
            Self::Project => "projects",
            Self::Workflow => "workflows",
            Self::Dataset => "datasets",
        }
    }

    pub fn plural_label(self, n: usize) -> String {
        let s = match self {
            Self::Insight => "insight",
            Self::Project => "project",
            Self::Workflow => "workflow",
            Self::Dataset => "dataset",
        };
        format!("{n} {s}{}", if n == 1 { "" } else { "s" })
    }
}

/// Creates (or keeps) an organization's namespace, labelled with the organization id and
/// annotated with the organization's bucket ([`ANNOTATION_BUCKET`],
/// [`crate::cluster::datasets::bucket_of`]).
pub async fn ensure_namespace(
    client: &Client,
    name: &str,
    organization_id: &str,
    bucket: &str,
) -> anyhow::Result<()> {
    let ns = Namespace {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            annotations: Some(BTreeMap::from([(
                ANNOTATION_BUCKET.to_owned(),
                bucket.to_owned(),
            )])),
            labels: Some(BTreeMap::from([
                (LABEL_ORGANIZATION.to_owned(), organization_id.to_owned()),
                (
                    "app.kubernetes.io/managed-by".to_owned(),
                    FIELD_MANAGER_API.to_owned(),
                ),
                ("app.kubernetes.io/part-of".to_owned(), "ludis".to_owned()),
                // User pods run under Pod Security "restricted" (DESIGN.md).
                (
                    "pod-security.kubernetes.io/enforce".to_owned(),
                    "restricted".to_owned(),
                ),
            ])),
            ..ObjectMeta::default()
        },
        ..Namespace::default()
    };
    Api::<Namespace>::all(client.clone())
        .patch(name, &PatchParams::apply(FIELD_MANAGER_API), &Patch::Apply(&ns))
        .await
        .with_context(|| format!("failed to apply namespace {name}"))?;
    Ok(())
}

pub async fn delete_namespace(client: &Client, name: &str) -> anyhow::Result<()> {
    match Api::<Namespace>::all(client.clone())
        .delete(name, &DeleteParams::default())
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e).with_context(|| format!("failed to delete namespace {name}")),
    }
}

fn api<K>(client: &Client, namespace: &str) -> Api<K>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>,
{
    Api::namespaced(client.clone(), namespace)
}

async fn count<K>(client: &Client, namespace: &str) -> anyhow::Result<usize>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + DeserializeOwned
        + std::fmt::Debug,
{
    match api::<K>(client, namespace).list(&ListParams::default()).await {
        Ok(list) => Ok(list.items.len()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(0),
        Err(e) => Err(e).with_context(|| format!("failed to list {} in {namespace}", K::plural(&()))),
    }
}

/// The assets (custom resources) in an organization's namespace, per kind (non-zero only).
pub async fn count_assets(client: &Client, namespace: &str) -> anyhow::Result<Vec<(AssetKind, usize)>> {
    let counts = [
        (AssetKind::Project, count::<Project>(client, namespace).await?),
        (AssetKind::Insight, count::<Insight>(client, namespace).await?),
        (AssetKind::Workflow, count::<Workflow>(client, namespace).await?),
        (AssetKind::Dataset, count::<Dataset>(client, namespace).await?),
    ];
    Ok(counts.into_iter().filter(|(_, n)| *n > 0).collect())
}

async fn migrate<K>(client: &Client, namespace: &str, from: &str, to: &str) -> anyhow::Result<usize>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + DeserializeOwned
        + std::fmt::Debug,
{
    let api = api::<K>(client, namespace);
    let list = match api.list(&ListParams::default()).await {
        Ok(l) => l,
        Err(kube::Error::Api(e)) if e.code == 404 => return Ok(0),
        Err(e) => return Err(e).context("failed to list assets"),
    };
    let mut moved = 0;
    for obj in list.items {
        if obj.annotations().get(ANNOTATION_OWNER).map(String::as_str) != Some(from) {
            continue;
        }
        // A merge patch of the one annotation: no other field changes hands.
        let patch = serde_json::json!({"metadata": {"annotations": {ANNOTATION_OWNER: to}}});
        api.patch(&obj.name_any(), &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .with_context(|| format!("failed to move the owner of {}", obj.name_any()))?;
        moved += 1;
    }
    Ok(moved)
}

/// Moves the owner annotation of every asset of `kind` owned by `from` to `to`.
pub async fn migrate_owner(
    client: &Client,
    namespace: &str,
    kind: AssetKind,
    from: &str,
    to: &str,
) -> anyhow::Result<usize> {
    match kind {
        AssetKind::Project => migrate::<Project>(client, namespace, from, to).await,
        AssetKind::Insight => migrate::<Insight>(client, namespace, from, to).await,
        AssetKind::Workflow => migrate::<Workflow>(client, namespace, from, to).await,
        AssetKind::Dataset => migrate::<Dataset>(client, namespace, from, to).await,
    }
}

/// An organization slug from its name: lowercase letters, digits and single hyphens, at most
/// 40 characters (the namespace `ludis-<slug>` stays a valid DNS label).
pub fn slugify(name: &str) -> String {
    let mut slug = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let mut slug: String = slug.chars().take(40).collect();
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() { "org".to_owned() } else { slug }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_dns_labels() {
        for (name, slug) in [
            ("Acme", "acme"),
            ("Acme Corp.", "acme-corp"),
            ("  Über  Data!! ", "ber-data"),
            ("***", "org"),
            ("a".repeat(80).as_str(), &"a".repeat(40)),
        ] {
            assert_eq!(slugify(name), slug, "{name}");
        }
    }

    #[test]
    fn entity_types_parse() {
        for (s, k) in [
            ("insight", Some(AssetKind::Insight)),
            ("Application", Some(AssetKind::Insight)),
            ("applications", Some(AssetKind::Insight)),
            ("project", Some(AssetKind::Project)),
            ("Project_V2", Some(AssetKind::Project)),
            ("Workflow", Some(AssetKind::Workflow)),
            ("datasets", Some(AssetKind::Dataset)),
            ("notebook", None),
            ("", None),
        ] {
            assert_eq!(AssetKind::parse(s), k, "{s}");
        }
    }
}
