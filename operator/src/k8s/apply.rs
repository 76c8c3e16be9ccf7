//! Server-side apply of children (field manager `ludis-operator`), orphan deletion by label, and
//! status patches.

use std::fmt::Debug;

use k8s_openapi::{NamespaceResourceScope, apimachinery::pkg::apis::meta::v1::OwnerReference};
use kube::{
    Api, Client, Resource, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams},
};
use ludis_crds::FIELD_MANAGER_OPERATOR;
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

/// Deletes the children selected by `selector` whose names are not in `keep`; returns how many.
pub async fn delete_orphans<K>(
    client: &Client,
    ns: &str,
    selector: &str,
    keep: &[String],
) -> kube::Result<usize>
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()> + Clone + Debug + DeserializeOwned,
{
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    let mut deleted = 0;
    for child in api.list_metadata(&ListParams::default().labels(selector)).await? {
        let name = child.name_any();
        if !keep.contains(&name) && child.metadata.deletion_timestamp.is_none() {
            match api.delete(&name, &DeleteParams::background()).await {
                Ok(_) => deleted += 1,
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(deleted)
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
