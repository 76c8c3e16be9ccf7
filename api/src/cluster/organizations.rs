//! The cluster side of organizations: their namespaces (server-side apply under the API's field
//! manager, labelled with the organization and annotated with its bucket), the bucket of their
//! datasets, and the assets in them (counted, and their `ludis.dev/owner` annotation moved).

use std::collections::BTreeMap;

use anyhow::Context as _;
use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client, ResourceExt as _,
    api::{ApiResource, DeleteParams, DynamicObject, ListParams, ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{ANNOTATION_BUCKET, ANNOTATION_OWNER, FIELD_MANAGER_API, LABEL_ORGANIZATION};

use crate::{
    db::{self, organizations::OrganizationRow},
    domain::AssetKind,
    state::AppState,
};

/// The custom resource type of a kind, for the calls that treat every kind alike (counting,
/// ownership moves); `None` for the kinds without one.
pub fn api_resource(kind: AssetKind) -> Option<ApiResource> {
    Some(match kind {
        AssetKind::Insight => ApiResource::erase::<ludis_crds::Insight>(&()),
        AssetKind::Dataset => ApiResource::erase::<ludis_crds::Dataset>(&()),
        AssetKind::ProjectV2 => ApiResource::erase::<ludis_crds::Project>(&()),
        AssetKind::Workflow => ApiResource::erase::<ludis_crds::Workflow>(&()),
        AssetKind::Project | AssetKind::Notebook => return None,
    })
}

/// The bucket of an organization's datasets: its bucket's name, else the API's `s3_bucket`.
pub async fn bucket_of(state: &AppState, organization_id: &str) -> anyhow::Result<String> {
    bucket_of_organization(state, &by_id(state, organization_id).await?).await
}

/// [`bucket_of`] for an organization already read (a `bucket_id` naming no bucket falls back to
/// the default too).
pub async fn bucket_of_organization(state: &AppState, org: &OrganizationRow) -> anyhow::Result<String> {
    let bucket = match &org.bucket_id {
        Some(id) => db::organizations::bucket(&state.db, id).await?.map(|b| b.name),
        None => None,
    };
    Ok(bucket.unwrap_or_else(|| state.settings.s3_bucket.clone()))
}

/// An organization that must exist (an internal error otherwise).
pub async fn by_id(state: &AppState, organization_id: &str) -> anyhow::Result<OrganizationRow> {
    db::organizations::by_id(&state.db, organization_id)
        .await?
        .with_context(|| format!("no organization {organization_id}"))
}

/// Creates (or updates) the namespace of `org` with its current bucket ([`ensure_namespace`]),
/// the API's rights in it ([`super::organization_access::ensure`]), its pods' storage client
/// configuration ([`super::storage_client::ensure`]), its tier's quota ([`super::quota::ensure`])
/// and its NetworkPolicy when the API applies one ([`super::network_policy::ensure`]).
pub async fn ensure_namespace_of(
    state: &AppState,
    client: &Client,
    org: &OrganizationRow,
) -> anyhow::Result<()> {
    let bucket = bucket_of_organization(state, org).await?;
    let namespace = ludis_crds::organization_namespace(&org.slug);
    ensure_namespace(client, &namespace, &org.id, &bucket).await?;
    super::organization_access::ensure(state, client, &namespace).await?;
    super::storage_client::ensure(client, &namespace).await?;
    super::quota::ensure(state, client, &namespace, &org.tier).await?;
    super::network_policy::ensure(state, client, &namespace).await
}

/// The platform's own namespace besides the configured system namespace (the chart's default).
const PLATFORM_NAMESPACE: &str = "ludis-system";

/// Pure: whether namespace `name` is the platform's (the API, its keys, the hosted git): never an
/// organization's.
pub fn is_platform_namespace(name: &str, system_namespace: &str) -> bool {
    name == system_namespace || name == PLATFORM_NAMESPACE
}

/// Who namespace `name` is, for organization `organization_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamespaceOwner {
    /// It does not exist.
    Free,
    /// Ludis made it for this organization (its label says so).
    This,
    /// Anyone else's: another organization's, or one Ludis did not make.
    Other,
}

/// Pure: who `ns` belongs to for organization `organization_id`, by its label.
pub fn owner_of(ns: Option<&Namespace>, organization_id: &str) -> NamespaceOwner {
    match ns {
        None => NamespaceOwner::Free,
        Some(ns) if ns.labels().get(LABEL_ORGANIZATION).map(String::as_str) == Some(organization_id) => {
            NamespaceOwner::This
        }
        Some(_) => NamespaceOwner::Other,
    }
}

/// Who namespace `name` is for organization `organization_id`, on the cluster.
pub async fn namespace_owner(
    client: &Client,
    name: &str,
    organization_id: &str,
) -> anyhow::Result<NamespaceOwner> {
    let ns = Api::<Namespace>::all(client.clone())
        .get_opt(name)
        .await
        .with_context(|| format!("failed to read namespace {name}"))?;
    Ok(owner_of(ns.as_ref(), organization_id))
}

/// The namespaces Ludis made for the organizations of the database, skipping (with a warning)
/// one of an organization's name that is not labelled as its own.
pub async fn own_namespaces(state: &AppState, client: &Client) -> anyhow::Result<Vec<String>> {
    let (orgs, _) = db::organizations::list(&state.db, None, i64::from(u32::MAX), 0).await?;
    let mut own = Vec::new();
    for org in orgs {
        let namespace = ludis_crds::organization_namespace(&org.slug);
        match namespace_owner(client, &namespace, &org.id).await? {
            NamespaceOwner::This => own.push(namespace),
            NamespaceOwner::Free => {}
            NamespaceOwner::Other => {
                tracing::warn!(%namespace, organization = %org.id, "an organization's namespace is not labelled as its own: left alone");
            }
        }
    }
    Ok(own)
}

/// At start: `ensure` in every namespace Ludis made for an organization ([`own_namespaces`]);
/// failures are logged, saying `what` was not applied.
pub async fn ensure_in_own_namespaces<F, Fut>(state: &AppState, what: &str, ensure: F)
where
    F: Fn(Client, String) -> Fut,
    Fut: Future<Output = anyhow::Result<()>>,
{
    let Some(client) = state.kube.clone() else {
        return;
    };
    let namespaces = match own_namespaces(state, &client).await {
        Ok(namespaces) => namespaces,
        Err(e) => {
            tracing::warn!(
                error = format!("{e:#}"),
                "failed to list organizations' namespaces for {what}"
            );
            return;
        }
    };
    for namespace in namespaces {
        if let Err(e) = ensure(client.clone(), namespace.clone()).await {
            tracing::warn!(%namespace, error = format!("{e:#}"), "{what} is not applied");
        }
    }
}

/// Creates (or keeps) an organization's namespace, labelled with the organization id and
/// annotated with the organization's bucket ([`ANNOTATION_BUCKET`], [`bucket_of`]). A namespace of
/// that name that Ludis did not make for the organization is left as it is (an error).
pub async fn ensure_namespace(
    client: &Client,
    name: &str,
    organization_id: &str,
    bucket: &str,
) -> anyhow::Result<()> {
    if namespace_owner(client, name, organization_id).await? == NamespaceOwner::Other {
        anyhow::bail!("namespace {name} exists and is not this organization's: it is left as it is");
    }
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
                // User pods run under Pod Security "restricted" (docs/design.md).
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

/// Deletes organization `organization_id`'s namespace `name` — only when Ludis made it for the
/// organization (its label); any other is left, with a warning.
pub async fn delete_namespace(client: &Client, name: &str, organization_id: &str) -> anyhow::Result<()> {
    if namespace_owner(client, name, organization_id).await? == NamespaceOwner::Other {
        tracing::warn!(namespace = %name, organization = %organization_id, "not deleting a namespace that is not the organization's");
        return Ok(());
    }
    match Api::<Namespace>::all(client.clone())
        .delete(name, &DeleteParams::default())
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e).with_context(|| format!("failed to delete namespace {name}")),
    }
}

/// The resources of a kind in a namespace (none for a kind without resources or a namespace that
/// does not exist).
async fn list(client: &Client, namespace: &str, kind: AssetKind) -> anyhow::Result<Vec<DynamicObject>> {
    let Some(resource) = api_resource(kind) else {
        return Ok(Vec::new());
    };
    let api = Api::<DynamicObject>::namespaced_with(client.clone(), namespace, &resource);
    match api.list(&ListParams::default()).await {
        Ok(list) => Ok(list.items),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("failed to list {} in {namespace}", resource.plural)),
    }
}

/// The assets (custom resources) in an organization's namespace, per kind (non-zero only).
pub async fn count_assets(client: &Client, namespace: &str) -> anyhow::Result<Vec<(AssetKind, usize)>> {
    let mut counts = Vec::new();
    for kind in AssetKind::with_resources() {
        let n = list(client, namespace, kind).await?.len();
        if n > 0 {
            counts.push((kind, n));
        }
    }
    Ok(counts)
}

/// Moves the owner annotation of every asset of `kind` owned by `from` to `to`.
pub async fn migrate_owner(
    client: &Client,
    namespace: &str,
    kind: AssetKind,
    from: &str,
    to: &str,
) -> anyhow::Result<usize> {
    let Some(resource) = api_resource(kind) else {
        return Ok(0);
    };
    let api = Api::<DynamicObject>::namespaced_with(client.clone(), namespace, &resource);
    let mut moved = 0;
    for obj in list(client, namespace, kind).await? {
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
    fn every_kind_with_a_resource_names_its_type() {
        for kind in AssetKind::ALL {
            assert_eq!(
                api_resource(*kind).map(|r| r.kind),
                kind.resource_kind().map(str::to_owned),
                "{kind}"
            );
        }
    }
}
