//! The NetworkPolicies of organization namespaces (`LUDIS_ORG_NETWORK_POLICY`, on by default):
//! user pods are reached only by the API and reach only what their runner needs. Policies are per
//! workload, never "the namespace": a colleague's pod is as foreign as another organization's.
//!
//! - `ludis-default` selects every pod of the namespace. **Ingress**: none (a task, parse,
//!   report, package or schedule pod accepts no connection at all; a pod of the same namespace is
//!   refused like any other). **Egress** only to cluster DNS (namespace `kube-system`, UDP and TCP
//!   53), to the API's git endpoint (the API's pods, labels [`API_POD_LABELS`] in
//!   `LUDIS_SYSTEM_NAMESPACE`, or the networks of `LUDIS_ORG_NETWORK_API_CIDRS` when the API is
//!   not a pod of the cluster) on the API's port only, and to `LUDIS_ORG_NETWORK_EGRESS_CIDRS` (the
//!   object store, the administrator's allow-list; each entry all ports or one).
//! - `ludis-web` selects the pods that serve people through the API — previews and notebooks
//!   (component `preview`) and applications (`app`) of the operator — and admits **ingress** from
//!   the API only (its pods, or `LUDIS_ORG_NETWORK_API_CIDRS`): the app proxy and the preview's
//!   web view. Logs and terminals go through the API server and the kubelet, not the pod network.
//!
//! Policies add up (a pod is allowed what any policy selecting it allows), so these two say
//! everything. The API server, the kubelet and every other port of the API's address stay out of
//! reach: egress to the API is one port, never a whole address.
//!
//! The policies are applied with server-side apply under the API's field manager when the
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
    apimachinery::pkg::{
        apis::meta::v1::{LabelSelector, LabelSelectorRequirement},
        util::intstr::IntOrString,
    },
};
use kube::{
    Api, Client, ResourceExt as _,
    api::{DeleteParams, ListParams, ObjectMeta, Patch, PatchParams},
};
use ludis_crds::FIELD_MANAGER_API;

use crate::{settings::Settings, state::AppState};

/// The policy of every pod of an organization namespace: no ingress, the needed egress.
pub const NAME: &str = "ludis-default";
/// The policy of the pods people reach through the API: ingress from the API.
pub const WEB_NAME: &str = "ludis-web";
/// Every policy the API makes in an organization namespace.
pub const NAMES: [&str; 2] = [NAME, WEB_NAME];

/// The labels of the API's pods (the chart's).
pub const API_POD_LABELS: [(&str, &str); 2] = [
    ("app.kubernetes.io/name", "ludis"),
    ("app.kubernetes.io/component", "api"),
];

/// The operator's pods that people reach through the API (`app.kubernetes.io/component`):
/// previews and notebooks, and applications.
pub const WEB_COMPONENTS: [&str; 2] = ["preview", "app"];
/// `app.kubernetes.io/managed-by` of the operator's pods.
const OPERATOR: &str = "ludis-operator";
const COMPONENT: &str = "app.kubernetes.io/component";

/// The namespace of cluster DNS.
const DNS_NAMESPACE: &str = "kube-system";
const DNS_PORT: u16 = 53;
/// The label every namespace carries with its name.
const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";
const MANAGED_BY: &str = "app.kubernetes.io/managed-by";

/// A transport protocol of a NetworkPolicy port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Tcp,
    Udp,
}

impl Protocol {
    fn as_str(self) -> &'static str {
        match self {
            Self::Tcp => "TCP",
            Self::Udp => "UDP",
        }
    }
}

/// One network user pods may reach: all its ports, or one (`10.0.5.0/24`, `10.0.5.7/32:9000`,
/// `10.0.0.10/32:53/udp`; TCP unless `/udp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EgressCidr {
    pub net: IpNet,
    pub port: Option<(u16, Protocol)>,
}

impl std::fmt::Display for EgressCidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.net)?;
        match self.port {
            Some((port, Protocol::Tcp)) => write!(f, ":{port}"),
            Some((port, Protocol::Udp)) => write!(f, ":{port}/udp"),
            None => Ok(()),
        }
    }
}

/// A CIDR in its canonical form (`10.0.0.0/8`, not `10.1.2.3/8`); `setting` names the setting in
/// the error.
fn parse_net(item: &str, setting: &str) -> Result<IpNet, String> {
    let net: IpNet = item
        .parse()
        .map_err(|_| format!("{item:?} is not a CIDR like 10.0.5.0/24 or fd00::/64 ({setting})"))?;
    if net.trunc() != net {
        return Err(format!(
            "{item:?} has host bits set: write the network, {} ({setting})",
            net.trunc()
        ));
    }
    Ok(net)
}

fn items(s: &str) -> impl Iterator<Item = &str> {
    s.split(',').map(str::trim).filter(|i| !i.is_empty())
}

const EGRESS_SETTING: &str = "LUDIS_ORG_NETWORK_EGRESS_CIDRS";
const API_SETTING: &str = "LUDIS_ORG_NETWORK_API_CIDRS";

impl std::str::FromStr for EgressCidr {
    type Err = String;
    fn from_str(item: &str) -> Result<Self, Self::Err> {
        // The port follows the prefix length, which has no colon (an IPv6 address has).
        let (cidr, port) = match item.split_once('/') {
            Some((addr, rest)) => match rest.split_once(':') {
                Some((len, port)) => (format!("{addr}/{len}"), Some(port)),
                None => (item.to_owned(), None),
            },
            None => (item.to_owned(), None),
        };
        let net = parse_net(&cidr, EGRESS_SETTING)?;
        let port = port
            .map(|p| {
                let (number, protocol) = match p.split_once('/') {
                    Some((n, proto)) if proto.eq_ignore_ascii_case("udp") => (n, Protocol::Udp),
                    Some((n, proto)) if proto.eq_ignore_ascii_case("tcp") => (n, Protocol::Tcp),
                    Some(_) => {
                        return Err(format!(
                            "{item:?}: the protocol is tcp or udp, as in 10.0.0.10/32:53/udp ({EGRESS_SETTING})"
                        ));
                    }
                    None => (p, Protocol::Tcp),
                };
                match number.parse::<u16>() {
                    Ok(n) if n > 0 => Ok((n, protocol)),
                    _ => Err(format!(
                        "{item:?}: {number:?} is not a port (1-65535), as in 10.0.5.7/32:9000 ({EGRESS_SETTING})"
                    )),
                }
            })
            .transpose()?;
        Ok(Self { net, port })
    }
}

/// `LUDIS_ORG_NETWORK_EGRESS_CIDRS`: comma-separated [`EgressCidr`]s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressCidrs(pub Vec<EgressCidr>);

impl std::str::FromStr for EgressCidrs {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        items(s).map(str::parse).collect::<Result<_, _>>().map(Self)
    }
}

/// `LUDIS_ORG_NETWORK_API_CIDRS`: comma-separated CIDRs, each in its canonical form.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApiCidrs(pub Vec<IpNet>);

impl std::str::FromStr for ApiCidrs {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        items(s)
            .map(|item| parse_net(item, API_SETTING))
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

/// Who reaches user pods, and what they reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowed<'a> {
    /// Where the API's pods run.
    pub system_namespace: &'a str,
    /// The ports the API listens on for pods: its own (the git server) and its storage
    /// gateway's (`LUDIS_STORAGE_LISTEN`); empty when the system picks the API's
    /// (`LUDIS_API_LISTEN` with port 0, tests): then any port of the API's pods, and nothing of
    /// `api_cidrs` (whose addresses may offer other servers, the API server's among them).
    pub api_ports: Vec<u16>,
    /// Where the API is when it is not a pod of the cluster (a process on the node's host): its
    /// requests to pods come from there, and its git server is there.
    pub api_cidrs: &'a [IpNet],
    pub egress_cidrs: &'a [EgressCidr],
}

impl<'a> Allowed<'a> {
    pub fn from_settings(settings: &'a Settings) -> Self {
        Self {
            system_namespace: &settings.system_namespace,
            api_ports: match settings.listen.port() {
                0 => Vec::new(),
                port => std::iter::once(port)
                    .chain(settings.storage_listen.0.map(|a| a.port()).filter(|&p| p != 0))
                    .collect(),
            },
            api_cidrs: &settings.org_network_api_cidrs.0,
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

fn in_namespace(namespace: &str, pods: Option<LabelSelector>) -> NetworkPolicyPeer {
    NetworkPolicyPeer {
        namespace_selector: Some(selector(&[(NAMESPACE_NAME_LABEL, namespace)])),
        pod_selector: pods,
        ..NetworkPolicyPeer::default()
    }
}

fn ip_block(net: &IpNet) -> NetworkPolicyPeer {
    NetworkPolicyPeer {
        ip_block: Some(IPBlock {
            cidr: net.to_string(),
            except: None,
        }),
        ..NetworkPolicyPeer::default()
    }
}

fn port(protocol: Protocol, number: u16) -> NetworkPolicyPort {
    NetworkPolicyPort {
        protocol: Some(protocol.as_str().to_owned()),
        port: Some(IntOrString::Int(i32::from(number))),
        ..NetworkPolicyPort::default()
    }
}

fn metadata(name: &str, namespace: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_owned()),
        namespace: Some(namespace.to_owned()),
        labels: Some(labels(&[
            (MANAGED_BY, FIELD_MANAGER_API),
            ("app.kubernetes.io/part-of", "ludis"),
        ])),
        ..ObjectMeta::default()
    }
}

/// The API's ports as policy ports; `None`: any port (the API's own is not known).
fn api_ports(allowed: &Allowed<'_>) -> Option<Vec<NetworkPolicyPort>> {
    (!allowed.api_ports.is_empty()).then(|| {
        allowed
            .api_ports
            .iter()
            .map(|&p| port(Protocol::Tcp, p))
            .collect()
    })
}

/// Pure: the policies of an organization's namespace ([`NAMES`], in that order).
pub fn build(namespace: &str, allowed: &Allowed<'_>) -> Vec<NetworkPolicy> {
    let api_pods = || in_namespace(allowed.system_namespace, Some(selector(&API_POD_LABELS)));
    let mut egress = vec![
        NetworkPolicyEgressRule {
            to: Some(vec![in_namespace(DNS_NAMESPACE, None)]),
            ports: Some(vec![port(Protocol::Udp, DNS_PORT), port(Protocol::Tcp, DNS_PORT)]),
        },
        NetworkPolicyEgressRule {
            to: Some(vec![api_pods()]),
            ports: api_ports(allowed),
        },
    ];
    if let (Some(ports), false) = (api_ports(allowed), allowed.api_cidrs.is_empty()) {
        egress.push(NetworkPolicyEgressRule {
            to: Some(allowed.api_cidrs.iter().map(ip_block).collect()),
            ports: Some(ports),
        });
    }
    // One rule per port (a rule's ports apply to all its peers); the networks of all ports first.
    let any_port: Vec<_> = allowed
        .egress_cidrs
        .iter()
        .filter(|c| c.port.is_none())
        .map(|c| ip_block(&c.net))
        .collect();
    if !any_port.is_empty() {
        egress.push(NetworkPolicyEgressRule {
            to: Some(any_port),
            ports: None,
        });
    }
    for cidr in allowed.egress_cidrs {
        if let Some((number, protocol)) = cidr.port {
            egress.push(NetworkPolicyEgressRule {
                to: Some(vec![ip_block(&cidr.net)]),
                ports: Some(vec![port(protocol, number)]),
            });
        }
    }
    let default = NetworkPolicy {
        metadata: metadata(NAME, namespace),
        spec: Some(NetworkPolicySpec {
            pod_selector: Some(LabelSelector::default()),
            policy_types: Some(vec!["Ingress".to_owned(), "Egress".to_owned()]),
            ingress: None,
            egress: Some(egress),
        }),
    };
    let mut from_api = vec![api_pods()];
    from_api.extend(allowed.api_cidrs.iter().map(ip_block));
    let web = NetworkPolicy {
        metadata: metadata(WEB_NAME, namespace),
        spec: Some(NetworkPolicySpec {
            pod_selector: Some(LabelSelector {
                match_labels: Some(labels(&[(MANAGED_BY, OPERATOR)])),
                match_expressions: Some(vec![LabelSelectorRequirement {
                    key: COMPONENT.to_owned(),
                    operator: "In".to_owned(),
                    values: Some(WEB_COMPONENTS.iter().map(|c| (*c).to_owned()).collect()),
                }]),
            }),
            policy_types: Some(vec!["Ingress".to_owned()]),
            ingress: Some(vec![NetworkPolicyIngressRule {
                from: Some(from_api),
                ports: None,
            }]),
            egress: None,
        }),
    };
    vec![default, web]
}

/// Applies the policies to `namespace` (server-side apply under the API's field manager).
pub async fn apply(client: &Client, namespace: &str, allowed: &Allowed<'_>) -> anyhow::Result<()> {
    let api = Api::<NetworkPolicy>::namespaced(client.clone(), namespace);
    for policy in build(namespace, allowed) {
        let name = policy.name_any();
        api.patch(
            &name,
            &PatchParams::apply(FIELD_MANAGER_API),
            &Patch::Apply(&policy),
        )
        .await
        .with_context(|| format!("failed to apply the NetworkPolicy {name} in {namespace}"))?;
    }
    Ok(())
}

/// Applies the policies to an organization's namespace when `LUDIS_ORG_NETWORK_POLICY` is on.
pub async fn ensure(state: &AppState, client: &Client, namespace: &str) -> anyhow::Result<()> {
    if !state.settings.org_network_policy {
        return Ok(());
    }
    apply(client, namespace, &Allowed::from_settings(&state.settings)).await
}

/// At start: with the setting on, applies the policies to every organization's namespace; off,
/// removes the policies the API made in its organizations' namespaces. Failures are logged.
pub async fn reconcile_all(state: AppState) {
    let Some(client) = state.kube.clone() else {
        return;
    };
    let namespaces: BTreeSet<String> = match super::organizations::own_namespaces(&state, &client).await {
        Ok(namespaces) => namespaces.into_iter().collect(),
        Err(e) => {
            tracing::warn!(
                error = format!("{e:#}"),
                "failed to list organizations for their NetworkPolicies"
            );
            return;
        }
    };
    if !state.settings.org_network_policy {
        tracing::warn!(
            "LUDIS_ORG_NETWORK_POLICY is off: user pods of every organization can be reached from any pod of the cluster"
        );
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
            tracing::warn!(%namespace, error = format!("{e:#}"), "the organization's NetworkPolicies are not applied");
        }
    }
}

/// Deletes the policies the API made in `namespaces`.
async fn remove(client: &Client, namespaces: &BTreeSet<String>) -> anyhow::Result<()> {
    let ours = ListParams::default().labels(&format!("{MANAGED_BY}={FIELD_MANAGER_API}"));
    for namespace in namespaces {
        let api = Api::<NetworkPolicy>::namespaced(client.clone(), namespace);
        let list = match api.list(&ours).await {
            Ok(list) => list,
            // Without the right to list them there, the API never made any.
            Err(kube::Error::Api(e)) if e.code == 403 => continue,
            Err(e) => {
                return Err(e).with_context(|| format!("failed to list NetworkPolicies in {namespace}"));
            }
        };
        for name in list
            .iter()
            .map(|p| p.name_any())
            .filter(|n| NAMES.contains(&n.as_str()))
        {
            match api.delete(&name, &DeleteParams::default()).await {
                Ok(_) => {
                    tracing::info!(%namespace, "removed the NetworkPolicy {name} (LUDIS_ORG_NETWORK_POLICY is off)")
                }
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e).with_context(|| format!("failed to delete {name} in {namespace}")),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn egress(s: &str) -> Vec<EgressCidr> {
        s.parse::<EgressCidrs>().unwrap().0
    }

    fn nets(s: &str) -> Vec<IpNet> {
        s.parse::<ApiCidrs>().unwrap().0
    }

    #[test]
    fn egress_cidrs_are_validated_with_an_optional_port() {
        assert!(egress("").is_empty());
        assert!(egress(" , ").is_empty());
        assert_eq!(
            egress("10.0.5.0/24, 192.168.1.10/32:9000,fd00::/64, 10.0.0.10/32:53/udp, fd00::1/128:443/TCP")
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "10.0.5.0/24",
                "192.168.1.10/32:9000",
                "fd00::/64",
                "10.0.0.10/32:53/udp",
                "fd00::1/128:443"
            ]
        );
        for (bad, says) in [
            ("10.0.0.0", "is not a CIDR"),
            ("10.0.0.0/33", "is not a CIDR"),
            ("s3.example/32", "is not a CIDR"),
            ("10.0.0.0/8,nope", "\"nope\" is not a CIDR"),
            ("10.1.2.3/8", "write the network, 10.0.0.0/8"),
            ("10.1.2.3/8:80", "write the network, 10.0.0.0/8"),
            ("10.0.0.1/32:", "is not a port"),
            ("10.0.0.1/32:0", "is not a port"),
            ("10.0.0.1/32:70000", "is not a port"),
            ("10.0.0.1/32:53/sctp", "the protocol is tcp or udp"),
            ("10.0.0.1:53", "is not a CIDR"),
        ] {
            let err = bad.parse::<EgressCidrs>().unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
            assert!(err.contains("LUDIS_ORG_NETWORK_EGRESS_CIDRS"), "{bad}: {err}");
        }
    }

    #[test]
    fn api_cidrs_are_networks_without_ports() {
        assert!(nets("").is_empty());
        assert_eq!(nets("10.141.255.1/32, fd00::/64").len(), 2);
        for bad in ["10.141.255.1/32:8080", "10.141.255.1", "10.141.255.1/24"] {
            let err = bad.parse::<ApiCidrs>().unwrap_err();
            assert!(err.contains("LUDIS_ORG_NETWORK_API_CIDRS"), "{bad}: {err}");
        }
    }

    fn api_pods(namespace: &str) -> serde_json::Value {
        json!({
            "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}},
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": "ludis", "app.kubernetes.io/component": "api"}},
        })
    }

    #[test]
    fn no_pod_accepts_anything_but_previews_and_apps_accept_the_api() {
        let egress_cidrs = egress("10.0.5.0/24,fd00::/64,10.0.9.7/32:9000,10.0.0.10/32:53/udp");
        let api_cidrs = nets("10.141.255.1/32");
        let allowed = Allowed {
            system_namespace: "ludis-system",
            api_ports: vec![8080],
            api_cidrs: &api_cidrs,
            egress_cidrs: &egress_cidrs,
        };
        let policies = serde_json::to_value(build("ludis-acme", &allowed)).unwrap();
        let metadata = |name: &str| {
            json!({
                "name": name,
                "namespace": "ludis-acme",
                "labels": {"app.kubernetes.io/managed-by": "ludis-api", "app.kubernetes.io/part-of": "ludis"},
            })
        };
        assert_eq!(
            policies,
            json!([
                {
                    "apiVersion": "networking.k8s.io/v1",
                    "kind": "NetworkPolicy",
                    "metadata": metadata("ludis-default"),
                    "spec": {
                        "podSelector": {},
                        // Ingress with no rule: nothing comes in, not even from the namespace.
                        "policyTypes": ["Ingress", "Egress"],
                        "egress": [
                            {
                                "to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}}}],
                                "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
                            },
                            {"to": [api_pods("ludis-system")], "ports": [{"protocol": "TCP", "port": 8080}]},
                            {"to": [{"ipBlock": {"cidr": "10.141.255.1/32"}}], "ports": [{"protocol": "TCP", "port": 8080}]},
                            {"to": [{"ipBlock": {"cidr": "10.0.5.0/24"}}, {"ipBlock": {"cidr": "fd00::/64"}}]},
                            {"to": [{"ipBlock": {"cidr": "10.0.9.7/32"}}], "ports": [{"protocol": "TCP", "port": 9000}]},
                            {"to": [{"ipBlock": {"cidr": "10.0.0.10/32"}}], "ports": [{"protocol": "UDP", "port": 53}]},
                        ],
                    },
                },
                {
                    "apiVersion": "networking.k8s.io/v1",
                    "kind": "NetworkPolicy",
                    "metadata": metadata("ludis-web"),
                    "spec": {
                        "podSelector": {
                            "matchLabels": {"app.kubernetes.io/managed-by": "ludis-operator"},
                            "matchExpressions": [{"key": "app.kubernetes.io/component", "operator": "In", "values": ["preview", "app"]}],
                        },
                        "policyTypes": ["Ingress"],
                        "ingress": [{"from": [api_pods("ludis-system"), {"ipBlock": {"cidr": "10.141.255.1/32"}}]}],
                    },
                },
            ])
        );
    }

    #[test]
    fn no_peer_is_a_pod_of_the_namespace_and_the_api_address_is_one_port() {
        let api_cidrs = nets("10.141.255.1/32");
        let allowed = Allowed {
            system_namespace: "platform",
            api_ports: vec![9000],
            api_cidrs: &api_cidrs,
            egress_cidrs: &[],
        };
        for policy in build("ludis-b", &allowed) {
            let spec = policy.spec.unwrap();
            let peers = spec
                .ingress
                .iter()
                .flatten()
                .flat_map(|r| r.from.iter().flatten())
                .chain(spec.egress.iter().flatten().flat_map(|r| r.to.iter().flatten()));
            for peer in peers {
                // A peer with a pod selector and no namespace selector is the policy's own
                // namespace: a colleague's pod.
                assert!(
                    peer.pod_selector.is_none() || peer.namespace_selector.is_some(),
                    "{peer:?}"
                );
            }
            // Every rule to an address names its ports, but the administrator's allow-list.
            for rule in spec.egress.iter().flatten() {
                if rule.to.iter().flatten().any(|p| p.ip_block.is_some()) {
                    assert!(rule.ports.is_some(), "{rule:?}");
                }
            }
        }
        let egress = build("ludis-b", &allowed).remove(0).spec.unwrap().egress.unwrap();
        assert_eq!(egress.len(), 3, "DNS, the API's pods, the API's address");
        assert_eq!(
            egress[1].to.as_ref().unwrap()[0]
                .namespace_selector
                .as_ref()
                .unwrap()
                .match_labels
                .as_ref()
                .unwrap()[NAMESPACE_NAME_LABEL],
            "platform"
        );
    }

    #[test]
    fn without_the_api_port_its_address_is_not_reachable_at_all() {
        let api_cidrs = nets("10.141.255.1/32");
        let allowed = Allowed {
            system_namespace: "ludis-system",
            api_ports: Vec::new(),
            api_cidrs: &api_cidrs,
            egress_cidrs: &[],
        };
        let [default, web]: [NetworkPolicy; 2] = build("ludis-b", &allowed).try_into().unwrap();
        let egress = default.spec.unwrap().egress.unwrap();
        assert_eq!(egress.len(), 2, "DNS and the API's pods: {egress:?}");
        assert_eq!(egress[1].ports, None, "any port of the API's pods");
        assert!(
            egress
                .iter()
                .flat_map(|r| r.to.iter().flatten())
                .all(|p| p.ip_block.is_none())
        );
        // Its requests still reach previews and apps.
        let from = web.spec.unwrap().ingress.unwrap().remove(0).from.unwrap();
        assert_eq!(from[1].ip_block.as_ref().unwrap().cidr, "10.141.255.1/32");
    }
}
