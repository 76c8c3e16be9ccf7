//! What a pod shows the API: a pod shaped like the operator's, bound service-account tokens for
//! it as the kubelet would project them (TokenRequest), for tests that act as a pod's checkout.

use k8s_openapi::api::{
    authentication::v1::{BoundObjectReference, TokenRequest, TokenRequestSpec},
    core::v1::{Pod, ServiceAccount},
};
use kube::{Api, api::PostParams};
use serde_json::json;

/// Polls `done` every 200 ms for up to two minutes (the cluster's own pace on a busy machine).
pub async fn wait_until<F, Fut>(what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..600 {
        if done().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("timed out waiting until {what}");
}

/// A pod in `namespace` shaped like the operator's (Pod Security "restricted", the checkout
/// annotation naming `repository`) that never runs (no node matches it): what a token is bound to.
pub async fn checkout_pod(client: &kube::Client, namespace: &str, repository: &str) -> String {
    // The namespace's default service account appears shortly after the namespace.
    let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), namespace);
    wait_until("the namespace has its default service account", || async {
        accounts.get_opt("default").await.unwrap().is_some()
    })
    .await;
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {
            "generateName": "checkout-",
            "annotations": {ludis_crds::ANNOTATION_CHECKOUT: repository},
        },
        "spec": {
            "automountServiceAccountToken": false,
            "nodeSelector": {"ludis.dev/test-nowhere": "true"},
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "c", "image": "localhost/ludis/none:test",
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
            }],
        },
    }))
    .unwrap();
    let made = Api::<Pod>::namespaced(client.clone(), namespace)
        .create(&PostParams::default(), &pod)
        .await
        .expect("a pod is created");
    made.metadata.name.unwrap()
}

/// The token the kubelet would project into `pod` for `audience` (bound to the pod, 10 minutes).
pub async fn pod_token(client: &kube::Client, namespace: &str, pod: &str, audience: &str) -> String {
    let uid = Api::<Pod>::namespaced(client.clone(), namespace)
        .get(pod)
        .await
        .unwrap()
        .metadata
        .uid;
    let request = TokenRequest {
        spec: TokenRequestSpec {
            audiences: vec![audience.to_owned()],
            bound_object_ref: Some(BoundObjectReference {
                api_version: Some("v1".into()),
                kind: Some("Pod".into()),
                name: Some(pod.to_owned()),
                uid,
            }),
            expiration_seconds: Some(600),
        },
        ..Default::default()
    };
    let issued: TokenRequest = Api::<ServiceAccount>::namespaced(client.clone(), namespace)
        .create_subresource("token", "default", &PostParams::default(), &request)
        .await
        .expect("the API server issues a bound token");
    issued.status.expect("a token").token
}
