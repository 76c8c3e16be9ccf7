//! Which pod is calling: a workload proves who it is with the service-account token the kubelet
//! projected into it for one audience (e.g. [`ludis_crds::GIT_AUDIENCE`]), which the API has
//! the cluster review (TokenReview). A reviewed token names its pod (the `pod-name` and `pod-uid`
//! the API server binds it to); the pod as it is now — its namespace, labels and the annotations
//! the operator wrote — says what it may reach. The token expires within minutes and dies with
//! the pod: a deleted pod's token fails the review.

use k8s_openapi::api::{
    authentication::v1::{TokenReview, TokenReviewSpec},
    core::v1::Pod,
};
use kube::{
    Api, ResourceExt as _,
    api::{ObjectMeta, PostParams},
};

use crate::state::AppState;

/// The extra fields of a reviewed bound token naming its pod.
const POD_NAME: &str = "authentication.kubernetes.io/pod-name";
const POD_UID: &str = "authentication.kubernetes.io/pod-uid";
/// Service-account usernames: `system:serviceaccount:<namespace>:<name>`.
const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";
/// A token longer than this is not a service-account token (they are about 1 KB).
const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// A pod that proved who it is.
pub struct PodIdentity {
    pub namespace: String,
    pub pod: Pod,
    /// The audience (one of those asked for) the token was issued for.
    pub audience: String,
}

/// The pod `token` was issued to, for one of `audiences`: `None` when the token is not a valid
/// service-account token for one of them bound to a pod that still exists (or without a
/// cluster). Errors are the cluster's (it could not be asked).
pub async fn verify(
    state: &AppState,
    token: &str,
    audiences: &[&str],
) -> anyhow::Result<Option<PodIdentity>> {
    let Some(client) = &state.kube else {
        return Ok(None);
    };
    let token = token.trim();
    if token.is_empty() || token.len() > MAX_TOKEN_BYTES {
        return Ok(None);
    }
    let review = TokenReview {
        metadata: ObjectMeta::default(),
        spec: TokenReviewSpec {
            token: Some(token.to_owned()),
            audiences: Some(audiences.iter().map(|a| (*a).to_owned()).collect()),
        },
        status: None,
    };
    let reviewed = Api::<TokenReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await?;
    let Some(status) = reviewed.status.filter(|s| s.authenticated == Some(true)) else {
        return Ok(None);
    };
    let Some(audience) = status
        .audiences
        .iter()
        .flatten()
        .find(|a| audiences.contains(&a.as_str()))
        .cloned()
    else {
        return Ok(None);
    };
    let Some(user) = status.user else {
        return Ok(None);
    };
    let Some((namespace, _account)) = user
        .username
        .as_deref()
        .and_then(|u| u.strip_prefix(SERVICE_ACCOUNT_PREFIX))
        .and_then(|rest| rest.split_once(':'))
    else {
        return Ok(None);
    };
    let extra = user.extra.unwrap_or_default();
    let one = |key: &str| match extra.get(key).map(Vec::as_slice) {
        Some([value]) => Some(value.clone()),
        _ => None,
    };
    let (Some(name), Some(uid)) = (one(POD_NAME), one(POD_UID)) else {
        return Ok(None);
    };
    let Some(pod) = Api::<Pod>::namespaced(client.clone(), namespace)
        .get_opt(&name)
        .await?
    else {
        return Ok(None);
    };
    // A pod of the same name made after the token's: not the one it was issued to.
    if pod.uid().as_deref() != Some(uid.as_str()) || pod.metadata.deletion_timestamp.is_some() {
        return Ok(None);
    }
    Ok(Some(PodIdentity {
        namespace: namespace.to_owned(),
        pod,
        audience,
    }))
}

impl PodIdentity {
    /// The pod's name.
    pub fn name(&self) -> String {
        self.pod.name_any()
    }

    /// The pod's uid.
    pub fn uid(&self) -> String {
        self.pod.uid().unwrap_or_default()
    }

    /// The pod's annotation `key`.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.pod.annotations().get(key).map(String::as_str)
    }
}
