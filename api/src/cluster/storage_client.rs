//! The AWS SDK configuration file of an organization's pods (ConfigMap
//! [`ludis_crds::STORAGE_CLIENT_CONFIGMAP`], projected beside each pod's storage token and named
//! by `AWS_CONFIG_FILE`): path-style addressing, so the storage gateway may be reached by any
//! name (`http://ludis-api.ludis-system.svc:8082/<bucket>/<key>`; virtual-hosted style would ask
//! DNS for `<bucket>.ludis-api…`). Applied with the namespace, and at start to every
//! organization's namespace.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api, Client,
    api::{ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{FIELD_MANAGER_API, STORAGE_CLIENT_CONFIG_KEY, STORAGE_CLIENT_CONFIGMAP};

use crate::state::AppState;

/// The SDKs' config file (botocore, the AWS CLI, the C++ SDK under arrow, paws).
pub const CONFIG: &str = "[default]\ns3 =\n    addressing_style = path\n";

/// Pure: the ConfigMap of `namespace`.
pub fn build(namespace: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(STORAGE_CLIENT_CONFIGMAP.into()),
            namespace: Some(namespace.into()),
            labels: Some(BTreeMap::from([
                ("app.kubernetes.io/managed-by".into(), FIELD_MANAGER_API.into()),
                ("app.kubernetes.io/part-of".into(), "ludis".into()),
            ])),
            ..ObjectMeta::default()
        },
        data: Some(BTreeMap::from([(
            STORAGE_CLIENT_CONFIG_KEY.into(),
            CONFIG.into(),
        )])),
        ..ConfigMap::default()
    }
}

/// Applies the ConfigMap to `namespace`.
pub async fn ensure(client: &Client, namespace: &str) -> anyhow::Result<()> {
    Api::<ConfigMap>::namespaced(client.clone(), namespace)
        .patch(
            STORAGE_CLIENT_CONFIGMAP,
            &PatchParams::apply(FIELD_MANAGER_API).force(),
            &Patch::Apply(&build(namespace)),
        )
        .await?;
    Ok(())
}

/// At start: every organization's namespace gets it. Failures are logged.
pub async fn ensure_all(state: AppState) {
    super::organizations::ensure_in_own_namespaces(
        &state,
        "the storage client configuration",
        |client, namespace| async move { ensure(&client, &namespace).await },
    )
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_address_the_gateway_path_style() {
        let map = build("ludis-acme");
        assert_eq!(map.metadata.name.as_deref(), Some("ludis-storage-client"));
        assert_eq!(map.metadata.namespace.as_deref(), Some("ludis-acme"));
        let config = &map.data.unwrap()["config"];
        assert!(config.starts_with("[default]\n"));
        assert!(config.contains("addressing_style = path"));
    }
}
