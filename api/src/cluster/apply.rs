//! Server-side apply of the API's custom resources, the same for every kind: where a new asset's
//! resource goes ([`placement`]), its identity ([`object`]: the `ludis.dev/id` label and the
//! `ludis.dev/owner` annotation), applying it under the field manager `ludis-api`, never forced
//! ([`apply`]: a field another manager owns is a [`Conflict`], a missing organization namespace is
//! created first), and deleting it ([`delete`]). What each kind puts in its `spec` is in its own
//! module ([`super::insights`], [`super::datasets`]).

use std::collections::BTreeMap;

use anyhow::Context as _;
use k8s_openapi::NamespaceResourceScope;
use kube::{
    Api, Resource,
    api::{DeleteParams, Patch, PatchParams},
};
use ludis_crds::{ANNOTATION_OWNER, FIELD_MANAGER_API, LABEL_ID};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::organizations;
use crate::{
    db::{
        assets::{self, AssetRow},
        details::{Details, WithDetails},
    },
    domain::AssetKind,
    state::AppState,
};

/// An apply refused because another field manager (kubectl, a GitOps tool) owns a field the API
/// would change. Routes answer 409 with [`Conflict::message`]
/// (`err.downcast_ref::<Conflict>()`).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct Conflict {
    /// For people: which manager owns which field.
    pub message: String,
    /// The API server's own message (`Apply failed with 1 conflict: conflict with "kubectl" …`).
    pub detail: String,
}

/// A custom resource type the API applies.
pub trait Applied:
    Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug
{
    const KIND: AssetKind;
}

impl Applied for ludis_crds::Insight {
    const KIND: AssetKind = AssetKind::Insight;
}

impl Applied for ludis_crds::Dataset {
    const KIND: AssetKind = AssetKind::Dataset;
}

/// A kind whose assets the API writes as custom resources.
pub trait Written: Details {
    /// Applies the resource of `a` (nothing for one its resource manages, or without a cluster).
    fn apply(state: &AppState, a: &WithDetails<Self>) -> impl Future<Output = anyhow::Result<()>> + Send;
    /// Deletes the resource of `a` (one already gone is fine).
    fn delete(state: &AppState, a: &WithDetails<Self>) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// Where a new asset's resource goes: `(namespace, resource name)` to store in its row (the
/// organization's namespace `ludis-<slug>`, the name `<name slug>-<id prefix>`). `None` without a
/// cluster; such a row keeps `namespace`/`resource_name` unset (and the watcher never sweeps it).
pub async fn placement(
    state: &AppState,
    kind: AssetKind,
    organization_id: &str,
    id: &str,
    name: &str,
) -> anyhow::Result<Option<(String, String)>> {
    if state.kube.is_none() {
        return Ok(None);
    }
    let org = organizations::by_id(state, organization_id).await?;
    Ok(Some((
        ludis_crds::organization_namespace(&org.slug),
        resource_name(kind, name, id),
    )))
}

/// A readable, unique resource name: the display name's slug and the id's first 8 hex digits
/// (`sales-dashboard-1a2b3c4d`), a valid DNS label; the kind's noun for a name without letters
/// or digits (`insight-…`, `dataset-…`).
pub fn resource_name(kind: AssetKind, name: &str, id: &str) -> String {
    let mut slug = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let mut slug: String = slug.chars().take(40).collect();
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        slug.push_str(kind.noun());
    }
    let suffix: String = id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(8)
        .collect::<String>()
        .to_lowercase();
    format!("{slug}-{suffix}")
}

/// At most `max` characters (a CRD's limit).
pub fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Pure: the applied object of an asset: identity and `spec`, and when `whole` (the API's own
/// resource) the id label and the owner annotation (when it has an owner).
pub fn object(asset: &AssetRow, namespace: &str, name: &str, spec: Value, whole: bool) -> Value {
    let mut metadata = json!({"name": name, "namespace": namespace});
    if whole {
        metadata["labels"] = json!({LABEL_ID: asset.id});
        if let Some(owner) = &asset.owner_uid {
            metadata["annotations"] = json!({ANNOTATION_OWNER: owner});
        }
    }
    json!({
        "apiVersion": format!("{}/{}", ludis_crds::GROUP, ludis_crds::VERSION),
        "kind": asset.kind.resource_kind().unwrap_or_default(),
        "metadata": metadata,
        "spec": spec,
    })
}

/// Applies `body` as the resource of `asset` under the API's field manager, never forced: a field
/// owned by another manager is a [`Conflict`]. A missing namespace is created (the organization's,
/// labelled, with its bucket) and the apply retried. Nothing without a cluster or for a row
/// without a resource.
pub async fn apply<K: Applied>(state: &AppState, asset: &AssetRow, body: &Value) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, asset.resource()) else {
        return Ok(());
    };
    if asset.kind != K::KIND {
        anyhow::bail!("asset {} is not a {}", asset.id, K::KIND.noun());
    }
    let api = Api::<K>::namespaced(client.clone(), namespace);
    let params = PatchParams::apply(FIELD_MANAGER_API);
    let no_namespace = |e: &kube::Error| matches!(e, kube::Error::Api(r) if r.code == 404 && r.message.contains("namespace"));
    let patch = || async { api.patch(name, &params, &Patch::Apply(body)).await };
    let mut done = patch().await;
    if matches!(&done, Err(e) if no_namespace(e)) {
        let ensured = match organizations::by_id(state, &asset.organization_id).await {
            Ok(org) => organizations::ensure_namespace_of(state, client, &org).await,
            Err(err) => Err(err),
        };
        match ensured {
            Err(err) => {
                tracing::warn!(%namespace, error = %format!("{err:#}"), "the organization namespace could not be created")
            }
            // A namespace created a moment ago may not have reached every admission cache yet.
            Ok(()) => {
                let mut attempt = 0;
                loop {
                    done = patch().await;
                    match &done {
                        Err(e) if no_namespace(e) && attempt < 5 => {
                            attempt += 1;
                            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                        }
                        _ => break,
                    }
                }
            }
        }
    }
    match done {
        Err(kube::Error::Api(e)) if e.code == 409 => Err(Conflict {
            message: conflict_message(K::KIND, &e.message),
            detail: e.message.clone(),
        }
        .into()),
        Err(e) => Err(e).with_context(|| format!("failed to apply {} {namespace}/{name}", K::KIND.noun())),
        Ok(applied) => {
            // The row (written next by the caller) reflects this version: the watcher mirrors no
            // older one over it (a new asset's row does not exist yet; its first mirror records it).
            let meta = applied.meta();
            let (uid, generation) = (
                meta.uid.as_deref().unwrap_or_default(),
                meta.generation.unwrap_or_default(),
            );
            assets::claim_generation(&state.db, &asset.id, uid, generation)
                .await
                .with_context(|| {
                    format!(
                        "failed to record the version of {} {namespace}/{name}",
                        K::KIND.noun()
                    )
                })?;
            Ok(())
        }
    }
}

/// Deletes the resource of `asset` (background propagation: its children go with it). One that
/// is already gone is fine; nothing without a cluster or for a row without a resource.
pub async fn delete<K: Applied>(state: &AppState, asset: &AssetRow) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, asset.resource()) else {
        return Ok(());
    };
    match Api::<K>::namespaced(client.clone(), namespace)
        .delete(name, &DeleteParams::background())
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e).with_context(|| format!("failed to delete {} {namespace}/{name}", K::KIND.noun())),
    }
}

/// Pure: a message for people from the API server's conflict message
/// (`Apply failed with 1 conflict: conflict with "kubectl" using ludis.dev/v1alpha1: .spec.running`).
pub fn conflict_message(kind: AssetKind, detail: &str) -> String {
    let what = kind.label().to_lowercase();
    let mut owners: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for part in detail.split("conflict with \"").skip(1) {
        let Some((manager, rest)) = part.split_once('"') else {
            continue;
        };
        let field = rest
            .rsplit_once(": ")
            .map(|(_, f)| f.trim().trim_end_matches(',').to_owned())
            .unwrap_or_default();
        owners.entry(manager.to_owned()).or_default().push(field);
    }
    if owners.is_empty() {
        return format!("The {what}'s resource was changed by another tool; change it there");
    }
    let who: Vec<String> = owners
        .iter()
        .map(|(m, f)| format!("{} ({m})", f.join(", ")))
        .collect();
    format!(
        "The {what}'s resource is managed outside Ludis: {} is set by another tool; change it there",
        who.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_names_are_dns_labels_with_the_id() {
        assert_eq!(
            resource_name(AssetKind::Insight, "Sales Dashboard!", "1A2B3C4D-5e6f"),
            "sales-dashboard-1a2b3c4d"
        );
        assert_eq!(
            resource_name(AssetKind::Dataset, "Sales 2024!", "1A2B3C4D-5e6f"),
            "sales-2024-1a2b3c4d"
        );
        assert_eq!(resource_name(AssetKind::Insight, "***", "abc"), "insight-abc");
        assert_eq!(resource_name(AssetKind::Dataset, "***", "abc"), "dataset-abc");
        assert_eq!(
            resource_name(AssetKind::Dataset, "", "12345678-9"),
            "dataset-12345678"
        );
        let long = resource_name(AssetKind::Dataset, &"x".repeat(100), "12345678-aaaa");
        assert!(long.len() <= 63, "{long}");
        assert!(
            long.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{long}"
        );
    }

    #[test]
    fn conflicts_name_the_fields_and_their_managers() {
        let m = conflict_message(
            AssetKind::Insight,
            "Apply failed with 2 conflicts: conflict with \"kubectl\" using ludis.dev/v1alpha1: .spec.running, conflict with \"argocd\" using ludis.dev/v1alpha1: .spec.displayName",
        );
        assert!(m.contains(".spec.running (kubectl)"), "{m}");
        assert!(m.contains(".spec.displayName (argocd)"), "{m}");
        assert!(m.starts_with("The application's resource"), "{m}");
    }

    #[test]
    fn conflicts_speak_of_the_dataset() {
        let m = conflict_message(
            AssetKind::Dataset,
            "Apply failed with 1 conflict: conflict with \"gitops-e2e\" using ludis.dev/v1alpha1: .spec.displayName",
        );
        assert_eq!(
            m,
            "The dataset's resource is managed outside Ludis: .spec.displayName (gitops-e2e) is set by another tool; change it there"
        );
    }
}
