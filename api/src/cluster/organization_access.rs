//! What the API may do inside an organization's namespace — its projects' Secrets, the logs,
//! terminals and restarts of its pods, its ConfigMaps and NetworkPolicies — it gets there only:
//! the chart's ClusterRole of these rights (`LUDIS_ORGANIZATION_ROLE`) is bound to the API's own
//! service account (`LUDIS_SERVICE_ACCOUNT`) by a RoleBinding in each namespace the API makes for
//! an organization, and by nothing cluster-wide. The RoleBinding goes with the namespace. Without
//! the setting (a development cluster's administrator credentials) nothing is bound.
//!
//! The cluster's authorizer learns a new binding a moment after it is written, so [`ensure`]
//! returns once it does (a SelfSubjectAccessReview), and what follows in that namespace is not
//! refused.

use std::{fmt, str::FromStr, time::Duration};

use anyhow::Context as _;
use k8s_openapi::api::{
    authorization::v1::{ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec},
    rbac::v1::{RoleBinding, RoleRef, Subject},
};
use kube::{
    Api, Client,
    api::{ObjectMeta, Patch, PatchParams, PostParams},
};
use ludis_crds::FIELD_MANAGER_API;

use crate::state::AppState;

/// The RoleBinding's name in every organization namespace.
pub const ROLE_BINDING: &str = "ludis-api";
const MANAGED_BY: &str = "app.kubernetes.io/managed-by";
/// How long [`ensure`] waits for the authorizer to honour a new binding.
const HONOURED_WITHIN: Duration = Duration::from_secs(30);

/// A service account, `namespace:name` in settings (the RoleBindings' subject).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceAccount {
    pub namespace: String,
    pub name: String,
}

impl FromStr for ServiceAccount {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (namespace, name) = s
            .split_once(':')
            .ok_or_else(|| format!("{s:?} is not namespace:name"))?;
        for part in [namespace, name] {
            let valid = !part.is_empty()
                && part.len() <= 253
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
                && !part.starts_with(['-', '.'])
                && !part.ends_with(['-', '.']);
            if !valid {
                return Err(format!("{part:?} in {s:?} is not a Kubernetes name"));
            }
        }
        Ok(Self {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        })
    }
}

impl fmt::Display for ServiceAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.namespace, self.name)
    }
}

/// The role to bind and to whom, when the API binds one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub cluster_role: String,
    pub service_account: ServiceAccount,
}

impl Binding {
    /// From the settings: `None` without a role; an error for a role without its subject.
    pub fn from_settings(
        role: &str,
        service_account: Option<&ServiceAccount>,
    ) -> Result<Option<Self>, String> {
        match (role.trim(), service_account) {
            ("", _) => Ok(None),
            (role, Some(account)) => Ok(Some(Self {
                cluster_role: role.to_owned(),
                service_account: account.clone(),
            })),
            (_, None) => Err("LUDIS_ORGANIZATION_ROLE needs LUDIS_SERVICE_ACCOUNT (namespace:name of the API's service account)".into()),
        }
    }

    /// Pure: the RoleBinding of `namespace`.
    pub fn role_binding(&self, namespace: &str) -> RoleBinding {
        RoleBinding {
            metadata: ObjectMeta {
                name: Some(ROLE_BINDING.into()),
                namespace: Some(namespace.into()),
                labels: Some([(MANAGED_BY.to_owned(), FIELD_MANAGER_API.to_owned())].into()),
                ..Default::default()
            },
            role_ref: RoleRef {
                api_group: "rbac.authorization.k8s.io".into(),
                kind: "ClusterRole".into(),
                name: self.cluster_role.clone(),
            },
            subjects: Some(vec![Subject {
                kind: "ServiceAccount".into(),
                name: self.service_account.name.clone(),
                namespace: Some(self.service_account.namespace.clone()),
                ..Default::default()
            }]),
        }
    }
}

/// Binds the organization role in `namespace` (when the API binds one) and waits until the
/// cluster honours it.
pub async fn ensure(state: &AppState, client: &Client, namespace: &str) -> anyhow::Result<()> {
    let settings = &state.settings;
    let Some(binding) =
        Binding::from_settings(&settings.organization_role, settings.service_account.as_ref())
            .map_err(anyhow::Error::msg)?
    else {
        return Ok(());
    };
    Api::<RoleBinding>::namespaced(client.clone(), namespace)
        .patch(
            ROLE_BINDING,
            &PatchParams::apply(FIELD_MANAGER_API).force(),
            &Patch::Apply(&binding.role_binding(namespace)),
        )
        .await
        .with_context(|| format!("failed to bind the API's organization role in {namespace}"))?;
    let deadline = tokio::time::Instant::now() + HONOURED_WITHIN;
    while !may_patch_configmaps(client, namespace).await? {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the API's RoleBinding in {namespace} is not honoured after {}s",
            HONOURED_WITHIN.as_secs()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(())
}

/// At start: every organization namespace gets the binding (an upgrade from a release that
/// granted these rights cluster-wide). Failures are logged.
pub async fn ensure_all(state: &AppState) {
    if state.settings.organization_role.trim().is_empty() {
        return;
    }
    super::organizations::ensure_in_own_namespaces(
        state,
        "the API's RoleBinding",
        |client, namespace| async move { ensure(state, &client, &namespace).await },
    )
    .await;
}

/// Whether the API may patch ConfigMaps in `namespace` (one of the organization role's rights).
async fn may_patch_configmaps(client: &Client, namespace: &str) -> anyhow::Result<bool> {
    let review = SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                namespace: Some(namespace.into()),
                verb: Some("patch".into()),
                resource: Some("configmaps".into()),
                ..Default::default()
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let reviewed = Api::<SelfSubjectAccessReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await
        .context("failed to review the API's own access")?;
    Ok(reviewed.status.is_some_and(|s| s.allowed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_accounts_are_namespace_and_name() {
        let sa: ServiceAccount = "ludis-platform:ludis-api".parse().unwrap();
        assert_eq!(
            (sa.namespace.as_str(), sa.name.as_str()),
            ("ludis-platform", "ludis-api")
        );
        assert_eq!(sa.to_string(), "ludis-platform:ludis-api");
        for bad in ["ludis-api", ":x", "x:", "a:B", "a:b:c", "a:-b", "a/b:c"] {
            assert!(bad.parse::<ServiceAccount>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_role_binds_the_apis_service_account_only_when_both_are_set() {
        let sa: ServiceAccount = "sys:api".parse().unwrap();
        assert_eq!(Binding::from_settings("", Some(&sa)), Ok(None));
        assert_eq!(Binding::from_settings("", None), Ok(None));
        assert!(Binding::from_settings("org-role", None).is_err());
        let binding = Binding::from_settings("org-role", Some(&sa)).unwrap().unwrap();
        let rb = binding.role_binding("ludis-acme");
        assert_eq!(rb.metadata.namespace.as_deref(), Some("ludis-acme"));
        assert_eq!(rb.metadata.name.as_deref(), Some(ROLE_BINDING));
        assert_eq!(
            (rb.role_ref.kind.as_str(), rb.role_ref.name.as_str()),
            ("ClusterRole", "org-role")
        );
        let subject = &rb.subjects.unwrap()[0];
        assert_eq!(
            (
                subject.kind.as_str(),
                subject.name.as_str(),
                subject.namespace.as_deref()
            ),
            ("ServiceAccount", "api", Some("sys"))
        );
    }
}
