//! Server-side apply (field manager `ludis-operator`) of a child, skipped when unchanged (see
//! [`super::children`] for a whole set of children), and status writes, skipped when unchanged.

use std::fmt::Debug;

use k8s_openapi::{NamespaceResourceScope, apimachinery::pkg::apis::meta::v1::OwnerReference};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{ANNOTATION_APPLIED_HASH, FIELD_MANAGER_OPERATOR};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};

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

/// Writes `new` as the status of `obj`, whose status was `old`: a JSON merge patch of the whole of
/// `new`, with the fields `old` had and `new` has not as null. The operator is the only writer of
/// its kinds' statuses, and a merge patch costs the API server far less than a server-side apply.
/// Returns the object as written.
pub async fn patch_status<K, S>(client: &Client, obj: &K, old: Option<&S>, new: &S) -> kube::Result<K>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + Debug + DeserializeOwned,
    S: Serialize,
{
    let api: Api<K> = Api::namespaced(client.clone(), &obj.namespace().unwrap_or_default());
    let json = |s: Option<&S>| serde_json::to_value(s).expect("a status serializes");
    let patch = serde_json::json!({ "status": merge_patch(&json(old), &json(Some(new))) });
    api.patch_status(
        &obj.name_any(),
        &PatchParams {
            field_manager: Some(FIELD_MANAGER_OPERATOR.to_owned()),
            ..Default::default()
        },
        &Patch::Merge(&patch),
    )
    .await
}

/// Pure: a JSON merge patch (RFC 7386) that turns `old` into `new`: every member of `new`
/// (objects member by member), and the members `old` had and `new` has not as null; any other
/// value whole. Members equal in both are written too: `old` comes from a cache that may lag what
/// the server holds, and a member left out because the stale copy already had it would keep the
/// server's newer value.
pub fn merge_patch(old: &Value, new: &Value) -> Value {
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => {
            let mut patch = Map::new();
            for (key, value) in new {
                let member = match old.get(key) {
                    Some(was) => merge_patch(was, value),
                    None => value.clone(),
                };
                patch.insert(key.clone(), member);
            }
            for key in old.keys().filter(|k| !new.contains_key(*k)) {
                patch.insert(key.clone(), Value::Null);
            }
            Value::Object(patch)
        }
        _ => new.clone(),
    }
}

/// Writes `new` as the status of `obj` (see [`patch_status`]) unless it equals `current`, the
/// status `obj` was read with. Returns the object as written (None: unchanged, nothing written).
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
    patch_status(client, obj, current, new).await.map(Some)
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

    #[test]
    fn a_merge_patch_carries_the_new_status_and_nulls_what_went() {
        let old = serde_json::json!({"phase": "Failed", "completionTime": "t1", "tasks": [{"name": "a"}],
            "dag": {"dagId": "d", "schedule": "@daily"}, "notified": true});
        let new = serde_json::json!({"phase": "Running", "tasks": [{"name": "a"}, {"name": "b"}],
            "dag": {"dagId": "d"}, "notified": true, "startTime": "t0"});
        let patch = merge_patch(&old, &new);
        assert_eq!(
            patch,
            serde_json::json!({"phase": "Running", "completionTime": null, "notified": true,
                "tasks": [{"name": "a"}, {"name": "b"}], "dag": {"dagId": "d", "schedule": null}, "startTime": "t0"})
        );
        // Applied to the old status (json-patch's RFC 7386 merge), it gives the new one.
        let mut doc = old.clone();
        json_patch::merge(&mut doc, &patch);
        assert_eq!(doc, new);
        assert_eq!(merge_patch(&serde_json::Value::Null, &new), new);
    }

    #[test]
    fn a_merge_patch_from_a_stale_status_still_gives_the_new_one() {
        // The cache still has the status before the last write; the server has the written one.
        let stale = serde_json::json!({"phase": "Stopped", "url": "http://a"});
        let server = serde_json::json!({"phase": "Starting", "url": "http://b"});
        let new = serde_json::json!({"phase": "Running", "url": "http://a"});
        let mut doc = server.clone();
        json_patch::merge(&mut doc, &merge_patch(&stale, &new));
        assert_eq!(doc, new);
    }
}
