//! The NetworkPolicy `ludis-default` of organization namespaces (`LUDIS_ORG_NETWORK_POLICY`):
//! user pods reach nothing but what they need.
//!
//! - **Ingress** to every pod of the namespace only from the API's pods (namespace
//!   `LUDIS_SYSTEM_NAMESPACE`, labels [`API_POD_LABELS`]: the app proxy, logs and terminals) and
//!   from pods of the same namespace.
//! - **Egress** only to cluster DNS (namespace `kube-system`, UDP and TCP 53), to the API's pods
//!   on the API's own port (the git server it hosts; the port of `LUDIS_API_LISTEN`), to pods of
//!   the same namespace, and to the CIDRs of `LUDIS_ORG_NETWORK_EGRESS_CIDRS` (the S3 server's, a
//!   package mirror's).
//!
//! The policy is applied with server-side apply under the API's field manager when the
//! organization's namespace is ([`ensure`], from `organizations::ensure_namespace_of`), and at
//! start to every organization's namespace; when the setting is off, the start removes the
//! policies the API made in its organizations' namespaces ([`reconcile_all`]). [`build`] is
//! pure.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Context as _;
use ipnet::IpNet;
use k8s_openapi::{
    api::networking::v1::{
        IPBlock, NetworkPolicy, NetworkPolicyEgressRule, NetworkPolicyIngressRule, NetworkPolicyPeer,
        NetworkPolicyPort, NetworkPolicySpec,
    },
    apimachinery::pkg::{apis::meta::v1::LabelSelector, util::intstr::IntOrString},
};
use kube::{
    Api, Client, ResourceExt as _,
    api::{DeleteParams, ListParams, ObjectMeta, Patch, PatchParams},
};
use ludis_crds::FIELD_MANAGER_API;

use crate::{db, settings::Settings, state::AppState};

/// The policy's name in every organization namespace.
pub const NAME: &str = "ludis-default";

/// The labels of the API's pods (the chart's).
pub const API_POD_LABELS: [(&str, &str); 2] = [
    ("app.kubernetes.io/name", "ludis"),
    ("app.kubernetes.io/component", "api"),
];

/// The namespace of cluster DNS.
const DNS_NAMESPACE: &str = "kube-system";
const DNS_PORT: i32 = 53;
/// The label every namespace carries with its name.
const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";
const MANAGED_BY: &str = "app.kubernetes.io/managed-by";

/// `LUDIS_ORG_NETWORK_EGRESS_CIDRS`: comma-separated CIDRs, each in its canonical form
/// (`10.0.0.0/8`, not `10.1.2.3/8`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressCidrs(pub Vec<IpNet>);

impl std::str::FromStr for EgressCidrs {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut cidrs = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let net: IpNet = item.parse().map_err(|_| {
                format!(
                    "{item:?} is not a CIDR like 10.0.5.0/24 or fd00::/64 (LUDIS_ORG_NETWORK_EGRESS_CIDRS)"
                )
            })?;
            if net.trunc() != net {
                return Err(format!(
                    "{item:?} has host bits set: write the network, {} (LUDIS_ORG_NETWORK_EGRESS_CIDRS)",
                    net.trunc()
                ));
            }
            cidrs.push(net);
        }
        Ok(Self(cidrs))
    }
}

/// What user pods may reach besides their own namespace and cluster DNS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowed<'a> {
    /// Where the API's pods run.
    pub system_namespace: &'a str,
    /// The port the API's pods listen on (its git server); `None` when the system picks it
    /// (`LUDIS_API_LISTEN` with port 0, tests), which allows any port of the API's pods.
    pub api_port: Option<u16>,
    pub egress_cidrs: &'a [IpNet],
}

impl<'a> Allowed<'a> {
    pub fn from_settings(settings: &'a Settings) -> Self {
        Self {
            system_namespace: &settings.system_namespace,
            api_port: Some(settings.listen.port()).filter(|&p| p != 0),
            egress_cidrs: &settings.org_network_egress_cidrs.0,
        }
    }
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn selector(pairs: &[(&str, &str)]) -> LabelSelector {
    LabelSelector {
        match_labels: Some(labels(pairs)),
        ..LabelSelector::default()
    }
}

/// Pods of the policy's own namespace.
fn same_namespace() -> NetworkPolicyPeer {
    NetworkPolicyPeer {
        pod_selector: Some(LabelSelector::default()),
        ..NetworkPolicyPeer::default()
    }
}

fn in_namespace(namespace: &str, pods: Option<LabelSelector>) -> NetworkPolicyPeer {
    NetworkPolicyPeer {
        namespace_selector: Some(selector(&[(NAMESPACE_NAME_LABEL, namespace)])),
        pod_selector: pods,
        ..NetworkPolicyPeer::default()
    }
}

fn port(protocol: &str, number: i32) -> NetworkPolicyPort {
    NetworkPolicyPort {
        protocol: Some(protocol.to_owned()),
        port: Some(IntOrString::Int(number)),
        ..NetworkPolicyPort::default()
    }
}

/// Pure: the policy of an organization's namespace.
pub fn build(namespace: &str, allowed: &Allowed<'_>) -> NetworkPolicy {
    let api_pods = || in_namespace(allowed.system_namespace, Some(selector(&API_POD_LABELS)));
    let mut egress = vec![
        NetworkPolicyEgressRule {
            to: Some(vec![in_namespace(DNS_NAMESPACE, None)]),
            ports: Some(vec![port("UDP", DNS_PORT), port("TCP", DNS_PORT)]),
        },
        NetworkPolicyEgressRule {
            to: Some(vec![api_pods()]),
            ports: allowed.api_port.map(|p| vec![port("TCP", i32::from(p))]),
        },
        NetworkPolicyEgressRule {
            to: Some(vec![same_namespace()]),
            ports: None,
        },
    ];
    if !allowed.egress_cidrs.is_empty() {
        egress.push(NetworkPolicyEgressRule {
            to: Some(
                allowed
                    .egress_cidrs
                    .iter()
                    .map(|cidr| NetworkPolicyPeer {
                        ip_block: Some(IPBlock {
                            cidr: cidr.to_string(),
                            except: None,
                        }),
                        ..NetworkPolicyPeer::default()
                    })
                    .collect(),
            ),
            ports: None,
        });
    }
    NetworkPolicy {
        metadata: ObjectMeta {
            name: Some(NAME.to_owned()),
            namespace: Some(namespace.to_owned()),
            labels: Some(labels(&[
                (MANAGED_BY, FIELD_MANAGER_API),
                ("app.kubernetes.io/part-of", "ludis"),
            ])),
            ..ObjectMeta::default()
        },
        spec: Some(NetworkPolicySpec {
            pod_selector: Some(LabelSelector::default()),
            policy_types: Some(vec!["Ingress".to_owned(), "Egress".to_owned()]),
            ingress: Some(vec![NetworkPolicyIngressRule {
                from: Some(vec![api_pods(), same_namespace()]),
                ports: None,
            }]),
            egress: Some(egress),
        }),
    }
}

/// Applies the policy to `namespace` (server-side apply under the API's field manager).
pub async fn apply(client: &Client, namespace: &str, allowed: &Allowed<'_>) -> anyhow::Result<()> {
    Api::<NetworkPolicy>::namespaced(client.clone(), namespace)
        .patch(
            NAME,
            &PatchParams::apply(FIELD_MANAGER_API),
            &Patch::Apply(&build(namespace, allowed)),
        )
        .await
        .with_context(|| format!("failed to apply the NetworkPolicy {NAME} in {namespace}"))?;
    Ok(())
}

/// Applies the policy to an organization's namespace when `LUDIS_ORG_NETWORK_POLICY` is on.
pub async fn ensure(state: &AppState, client: &Client, namespace: &str) -> anyhow::Result<()> {
    if !state.settings.org_network_policy {
        return Ok(());
    }
    apply(client, namespace, &Allowed::from_settings(&state.settings)).await
}

/// At start: with the setting on, applies the policy to every organization's namespace; off,
/// removes the policies the API made in its organizations' namespaces. Failures are logged.
pub async fn reconcile_all(state: AppState) {
    let Some(client) = state.kube.clone() else {
        return;
    };
    let namespaces: BTreeSet<String> =
        match db::organizations::list(&state.db, None, i64::from(u32::MAX), 0).await {
            Ok((orgs, _)) => orgs
                .iter()
                .map(|org| ludis_crds::organization_namespace(&org.slug))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "failed to list organizations for their NetworkPolicies");
                return;
            }
        };
    if !state.settings.org_network_policy {
        if let Err(e) = remove(&client, &namespaces).await {
            tracing::warn!(
                error = format!("{e:#}"),
                "failed to remove the organizations' NetworkPolicies"
            );
        }
        return;
    }
    let allowed = Allowed::from_settings(&state.settings);
    for namespace in &namespaces {
        if let Err(e) = apply(&client, namespace, &allowed).await {
            tracing::warn!(%namespace, error = format!("{e:#}"), "the organization's NetworkPolicy is not applied");
        }
    }
}

/// Deletes the policies the API made in `namespaces` (found with one list call).
async fn remove(client: &Client, namespaces: &BTreeSet<String>) -> anyhow::Result<()> {
    let ours = ListParams::default()
        .labels(&format!("{MANAGED_BY}={FIELD_MANAGER_API}"))
        .fields(&format!("metadata.name={NAME}"));
    let list = match Api::<NetworkPolicy>::all(client.clone()).list(&ours).await {
        Ok(list) => list,
        // Without the right to list them, the API never made any.
        Err(kube::Error::Api(e)) if e.code == 403 => return Ok(()),
        Err(e) => return Err(e).context("failed to list NetworkPolicies"),
    };
    for policy in list {
        let Some(namespace) = policy.namespace().filter(|n| namespaces.contains(n)) else {
            continue;
        };
        match Api::<NetworkPolicy>::namespaced(client.clone(), &namespace)
            .delete(NAME, &DeleteParams::default())
            .await
        {
            Ok(_) => {
                tracing::info!(%namespace, "removed the NetworkPolicy {NAME} (LUDIS_ORG_NETWORK_POLICY is off)")
            }
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => return Err(e).with_context(|| format!("failed to delete {NAME} in {namespace}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cidrs(s: &str) -> Vec<IpNet> {
        s.parse::<EgressCidrs>().unwrap().0
    }

    #[test]
    fn egress_cidrs_are_validated() {
        assert!(cidrs("").is_empty());
        assert!(cidrs(" , ").is_empty());
        assert_eq!(
            cidrs("10.0.5.0/24, 192.168.1.10/32,fd00::/64")
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["10.0.5.0/24", "192.168.1.10/32", "fd00::/64"]
        );
        for (bad, says) in [
            ("10.0.0.0", "is not a CIDR"),
            ("10.0.0.0/33", "is not a CIDR"),
            ("s3.example/32", "is not a CIDR"),
            ("10.0.0.0/8,nope", "\"nope\" is not a CIDR"),
            ("10.1.2.3/8", "write the network, 10.0.0.0/8"),
        ] {
            let err = bad.parse::<EgressCidrs>().unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn the_policy_admits_the_api_and_the_namespace_and_lets_out_only_what_is_needed() {
        let egress_cidrs = cidrs("10.0.5.0/24,fd00::/64");
        let allowed = Allowed {
            system_namespace: "ludis-system",
            api_port: Some(8080),
            egress_cidrs: &egress_cidrs,
        };
        let policy = serde_json::to_value(build("ludis-acme", &allowed)).unwrap();
        let api_pods = serde_json::json!({
            "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ludis-system"}},
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": "ludis", "app.kubernetes.io/component": "api"}},
        });
        assert_eq!(
            policy,
            serde_json::json!({
                "apiVersion": "networking.k8s.io/v1",
                "kind": "NetworkPolicy",
                "metadata": {
                    "name": "ludis-default",
                    "namespace": "ludis-acme",
                    "labels": {"app.kubernetes.io/managed-by": "ludis-api", "app.kubernetes.io/part-of": "ludis"},
                },
                "spec": {
                    "podSelector": {},
                    "policyTypes": ["Ingress", "Egress"],
                    "ingress": [{"from": [api_pods, {"podSelector": {}}]}],
                    "egress": [
                        {
                            "to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}}}],
                            "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
                        },
                        {"to": [api_pods], "ports": [{"protocol": "TCP", "port": 8080}]},
                        {"to": [{"podSelector": {}}]},
                        {"to": [{"ipBlock": {"cidr": "10.0.5.0/24"}}, {"ipBlock": {"cidr": "fd00::/64"}}]},
                    ],
                },
            })
        );
    }

    #[test]
    fn without_cidrs_nothing_outside_is_reachable() {
        let allowed = Allowed {
            system_namespace: "platform",
            api_port: Some(9000),
            egress_cidrs: &[],
        };
        let spec = build("ludis-b", &allowed).spec.unwrap();
        let egress = spec.egress.unwrap();
        assert_eq!(egress.len(), 3, "DNS, the API, the namespace");
        assert!(
            egress
                .iter()
                .flat_map(|rule| rule.to.iter().flatten())
                .all(|peer| peer.ip_block.is_none())
        );
        let to_api = &egress[1];
        assert_eq!(
            to_api.ports.as_ref().unwrap()[0].port,
            Some(IntOrString::Int(9000))
        );
        let any_port = build(
            "ludis-b",
            &Allowed {
                api_port: None,
                ..allowed
            },
        );
        assert_eq!(any_port.spec.unwrap().egress.unwrap()[1].ports, None);
        assert_eq!(
            to_api.to.as_ref().unwrap()[0]
                .namespace_selector
                .as_ref()
                .unwrap()
                .match_labels
                .as_ref()
                .unwrap()[NAMESPACE_NAME_LABEL],
            "platform"
        );
    }
}
