//! Application addresses as the operator reports them (`http://<service>.<namespace>.svc:<port>`)
//! resolved through the Kubernetes API to the Service's cluster address, for an API that runs
//! outside the cluster on a machine that routes to the cluster's Services (the local platform;
//! `LUDIS_RESOLVE_SERVICES_VIA_API`). In a cluster, DNS does this.

use std::net::IpAddr;

use k8s_openapi::api::core::v1::Service;
use kube::Api;

/// `(service, namespace)` of a host name `<service>.<namespace>.svc[.cluster.local]`.
pub fn service_of_host(host: &str) -> Option<(&str, &str)> {
    let name = host
        .strip_suffix(".svc.cluster.local")
        .or_else(|| host.strip_suffix(".svc"))?;
    let (service, namespace) = name.split_once('.')?;
    let label = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    (label(service) && label(namespace)).then_some((service, namespace))
}

/// The cluster address of the Service a host name names; None when it names none, or the
/// Service has no cluster address (headless).
pub async fn cluster_address(kube: &kube::Client, host: &str) -> kube::Result<Option<IpAddr>> {
    let Some((service, namespace)) = service_of_host(host) else {
        return Ok(None);
    };
    let svc = Api::<Service>::namespaced(kube.clone(), namespace)
        .get_opt(service)
        .await?;
    Ok(svc
        .and_then(|s| s.spec?.cluster_ip)
        .and_then(|ip| ip.parse().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_service_names_are_resolved() {
        assert_eq!(
            service_of_host("sales.ludis-acme.svc"),
            Some(("sales", "ludis-acme"))
        );
        assert_eq!(
            service_of_host("sales.ludis-acme.svc.cluster.local"),
            Some(("sales", "ludis-acme"))
        );
        for host in [
            "sales.example.com",
            "svc",
            ".ns.svc",
            "a.b.c.svc",
            "Sales.ns.svc",
            "a.ns_1.svc",
            "127.0.0.1",
        ] {
            assert_eq!(service_of_host(host), None, "{host}");
        }
    }
}
