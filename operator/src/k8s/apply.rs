//! Server-side apply (field manager `ludis-operator`): of a child, skipped when unchanged (see
//! [`super::children`] for a whole set of children), and of a status, skipped when unchanged.

use std::fmt::Debug;

use k8s_openapi::{NamespaceResourceScope, apimachinery::pkg::apis::meta::v1::OwnerReference};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{ANNOTATION_APPLIED_HASH, FIELD_MANAGER_OPERATOR};
use serde::{Serialize, de::DeserializeOwned};

/// The controller owner reference pointing at `owner`, for its children.
pub fn owner_ref<K: Resource<DynamicType = ()>>(owner: &K) -> OwnerReference {
    owner
        .controller_owner_ref(&())
        .expect("a stored object has a name and uid")
}

/// Server-side applies `obj` in `ns` as the operator (forcing conflicts: the operator owns its
/// children's fields).
pub async fn apply<K>(client: &Client, ns: &str, obj: &K) -> kube::Result<K>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned,
{
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    api.patch(
        &obj.name_any(),
        &PatchParams::apply(FIELD_MANAGER_OPERATOR).force(),
        &Patch::Apply(obj),
    )
    .await
}

/// A stable content hash (FNV-1a 64 over the JSON form): the same value hashes the same in
/// every build and on every machine, unlike `std`'s hasher.
pub fn content_hash(value: &impl Serialize) -> u64 {
    let json = serde_json::to_vec(value).expect("a Kubernetes object serializes");
    json.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Applies `desired` (see [`apply`]) unless `current` — the child as last seen by a cache —
/// already carries the hash of `desired` and is not being deleted. `force` applies anyway (a
/// periodic pass that undoes changes made to children by hand). Returns whether it applied.
pub async fn apply_if_changed<K>(
    client: &Client,
    ns: &str,
    desired: &K,
    current: Option<&ObjectMeta>,
    force: bool,
) -> kube::Result<bool>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned,
{
    let hash = format!("{:016x}", content_hash(desired));
    let unchanged = current.is_some_and(|m| {
        m.deletion_timestamp.is_none()
            && m.annotations
                .as_ref()
                .and_then(|a| a.get(ANNOTATION_APPLIED_HASH))
                == Some(&hash)
    });
    if unchanged && !force {
        return Ok(false);
    }
    let mut obj = desired.clone();
    obj.annotations_mut()
        .insert(ANNOTATION_APPLIED_HASH.to_owned(), hash);
    apply(client, ns, &obj).await?;
    Ok(true)
}

/// Server-side applies the status of a Ludis resource.
pub async fn patch_status<K>(client: &Client, obj: &K, status: impl Serialize) -> kube::Result<K>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + Debug + DeserializeOwned,
{
    let api: Api<K> = Api::namespaced(client.clone(), &obj.namespace().unwrap_or_default());
    let patch = serde_json::json!({
        "apiVersion": K::api_version(&()),
        "kind": K::kind(&()),
        "status": status,
    });
    api.patch_status(
        &obj.name_any(),
        &PatchParams::apply(FIELD_MANAGER_OPERATOR).force(),
        &Patch::Apply(&patch),
    )
    .await
}

/// Server-side applies `new` as the status of `obj` unless it equals `current`, the status `obj`
/// was read with. Returns the object as written (None: unchanged, nothing written).
pub async fn update_status<K, S>(
    client: &Client,
    obj: &K,
    current: Option<&S>,
    new: &S,
) -> kube::Result<Option<K>>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + Debug + DeserializeOwned,
    S: Serialize + PartialEq,
{
    if current == Some(new) {
        return Ok(None);
    }
    patch_status(client, obj, new).await.map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_hash_is_stable_and_follows_the_content() {
        // FNV-1a 64 of `"a"` (the JSON form of the string a), computed independently.
        assert_eq!(content_hash(&"a"), 0xd427_2417_d7c7_7eea);
        assert_eq!(content_hash(&("x", 1)), content_hash(&("x", 1)));
        assert_ne!(content_hash(&("x", 1)), content_hash(&("x", 2)));
    }
}
