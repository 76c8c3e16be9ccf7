//! The organizations' NetworkPolicies (`LUDIS_ORG_NETWORK_POLICY`, on by default) against the
//! real control plane and node, whose enforcer (kube-router's firewall, dev/node.sh) applies them:
//! - the API applies them to a new organization's namespace when on, and a start applies them to
//!   every existing organization's namespace when on and removes them when off;
//! - attacks from inside real containers fail while their controls succeed: a pod of another
//!   organization, and a colleague's pod of the same one, cannot reach a preview or an app that
//!   the API reaches; user pods reach the API's git port and its storage gateway but not the object
//!   store behind it, the API server beside it, nor the kubelet; task pods accept nothing, not
//!   even from the API.
//!
//! What they say is unit-tested in `cluster/network_policy.rs`. Skipped, with a message, when no
//! cluster is configured locally; with one, the real node must run (dev/test.sh starts it).

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use k8s_openapi::api::{core::v1::Pod, networking::v1::NetworkPolicy};
use kube::{Api, api::DeleteParams};
use ludis_api::Settings;
use serde_json::json;

use crate::{
    helpers::{apps_with, cluster, spawn_app_with},
    real_node::{LinkApp, app_on_link, exec, image, node_env, organization, ready_pods, superadmin},
};

/// Waits until the policy `name` is there (or gone).
async fn until_policy(policies: &Api<NetworkPolicy>, name: &str, there: bool) -> Option<NetworkPolicy> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let found = policies.get_opt(name).await.unwrap();
        if found.is_some() == there {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "the policy {name} is still {}",
            if there { "absent" } else { "there" }
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn organization_namespaces_get_the_network_policy_only_when_it_is_on() {
    let Some(client) = cluster().await else {
        return;
    };
    let on = |s: &mut Settings| {
        s.org_network_egress_cidrs = "10.0.5.0/24".parse().unwrap();
    };

    // On (the default): a new organization's namespace has them.
    let app = apps_with(on).await.remove(0);
    assert!(app.state.settings.org_network_policy, "on by default");
    let root = superadmin(&app).await;
    let (_, namespace) = organization(&app, &root).await;
    let policies: Api<NetworkPolicy> = Api::namespaced(client.clone(), &namespace);
    let policy = policies
        .get("ludis-default")
        .await
        .expect("the policy is applied");
    let spec = serde_json::to_value(policy.spec.clone().unwrap()).unwrap();
    assert_eq!(spec["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(spec["podSelector"], json!({}));
    assert_eq!(spec.get("ingress"), None, "no ingress at all: {spec}");
    assert_eq!(
        spec["egress"].as_array().unwrap().last().unwrap()["to"],
        json!([{"ipBlock": {"cidr": "10.0.5.0/24"}}])
    );
    let web = policies
        .get("ludis-web")
        .await
        .expect("the web policy is applied");
    let web = serde_json::to_value(web.spec.unwrap()).unwrap();
    assert_eq!(web["policyTypes"], json!(["Ingress"]));
    assert_eq!(
        web["ingress"][0]["from"][0]["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"],
        app.state.settings.system_namespace
    );
    let managers: Vec<_> = policy
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .filter_map(|f| f.manager)
        .collect();
    assert_eq!(managers, ["ludis-api"]);

    // Off: none.
    let off = apps_with(|s| s.org_network_policy = false).await.remove(0);
    let off_root = superadmin(&off).await;
    let (_, bare) = organization(&off, &off_root).await;
    let bare_policies: Api<NetworkPolicy> = Api::namespaced(client.clone(), &bare);
    assert!(bare_policies.get_opt("ludis-default").await.unwrap().is_none());

    // Turned on, a start applies it to the existing namespace; turned off again, a start removes
    // it. (The other API keeps serving meanwhile, on the same database.)
    let restart = |policy: bool| {
        let mut settings = (*off.state.settings).clone();
        settings.org_network_policy = policy;
        spawn_app_with(move |_| settings)
    };
    let _on_again = restart(true).await;
    until_policy(&bare_policies, "ludis-default", true).await;
    until_policy(&bare_policies, "ludis-web", true).await;
    let _off_again = restart(false).await;
    until_policy(&bare_policies, "ludis-default", false).await;
    until_policy(&bare_policies, "ludis-web", false).await;
    // The first organization's policies are not this database's to remove.
    assert!(policies.get_opt("ludis-default").await.unwrap().is_some());
    assert!(policies.get_opt("ludis-web").await.unwrap().is_some());
}

// --- enforcement on the real node -------------------------------------------------------------

/// What a TCP connect from somewhere came to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Connect {
    Connected,
    /// Refused (the enforcer's REJECT, or no listener) or timed out (a DROP).
    Blocked(String),
}

/// The connect attempt of a pod: Python's socket, a 3 s timeout (an immediate refusal under
/// the enforcer's REJECT; a DROP would be the timeout).
const CONNECT: &str = r#"
import socket, sys
s = socket.socket()
s.settimeout(3)
try:
    s.connect((sys.argv[1], int(sys.argv[2])))
    print("connected")
except ConnectionRefusedError:
    print("refused")
except socket.timeout:
    print("timeout")
except OSError as e:
    print("error", e.errno)
"#;

/// Resolves a name with the pod's resolver (cluster DNS).
const RESOLVE: &str = r#"
import socket, sys
try:
    print(socket.gethostbyname(sys.argv[1]))
except OSError as e:
    print("error", e)
"#;

/// A TCP connect from inside a pod.
async fn connect_from(pods: &Api<Pod>, pod: &str, ip: &str, port: u16) -> Connect {
    let out = exec(pods, pod, &["python3", "-c", CONNECT, ip, &port.to_string()]).await;
    if out == "connected" {
        Connect::Connected
    } else {
        Connect::Blocked(out)
    }
}

/// A TCP connect from this machine (the host's end of the node's link, as the API's proxy).
async fn connect_from_host(ip: &str, port: u16) -> Connect {
    let address = SocketAddr::new(ip.parse().unwrap(), port);
    match tokio::time::timeout(Duration::from_secs(3), tokio::net::TcpStream::connect(address)).await {
        Ok(Ok(_)) => Connect::Connected,
        Ok(Err(e)) => Connect::Blocked(e.to_string()),
        Err(_) => Connect::Blocked("timeout".into()),
    }
}

/// The port every test pod serves (as a preview's web server does).
const WEB_PORT: u16 = 8501;

/// A pod of the operator's kind `component` serving HTTP on [`WEB_PORT`], for the real node.
fn user_pod(name: &str, component: &str) -> Pod {
    let image = image("python");
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {
            "app.kubernetes.io/managed-by": "ludis-operator",
            "app.kubernetes.io/component": component,
        }},
        "spec": {
            "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
            "automountServiceAccountToken": false,
            "terminationGracePeriodSeconds": 0,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "main", "image": image, "workingDir": "/tmp",
                "args": ["python3", "-m", "http.server", WEB_PORT.to_string(), "--bind", "0.0.0.0"],
                "readinessProbe": {"tcpSocket": {"port": WEB_PORT}, "periodSeconds": 1},
                "resources": {"requests": {"cpu": "10m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}
            }]
        }
    }))
    .unwrap()
}

#[tokio::test]
async fn pods_are_reached_only_by_the_api_and_reach_only_what_they_need() {
    let Some(client) = cluster().await else {
        return;
    };
    let node_ip = node_env("LUDIS_NODE_IP");
    let service_ip = node_env("LUDIS_NODE_SVC_IP");
    let enforcer = node_env("LUDIS_NODE_NETWORK_POLICY_ENFORCER");
    let apiserver_port = kube::Config::infer()
        .await
        .unwrap()
        .cluster_url
        .port_u16()
        .expect("the API server's port");
    let s3_port: u16 = node_env("LUDIS_POD_S3_ENDPOINT")
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("the S3 endpoint of pods has a port");

    // The API listens at the host's end of the link, where pods reach its git server, as
    // dev/up.sh's does (through a forwarder there).
    let LinkApp {
        app,
        host_ip,
        api_port,
        storage_port,
    } = app_on_link(|_| {}).await;
    let root = superadmin(&app).await;
    let ((_, a), (_, b)) = (organization(&app, &root).await, organization(&app, &root).await);

    // Organization A: a preview, a colleague's app, a workflow task; organization B: an app.
    let ips = ready_pods(
        &client,
        &[
            (&a, user_pod("preview", "preview")),
            (&a, user_pod("colleague", "app")),
            (&a, user_pod("task", "task")),
            (&b, user_pod("intruder", "app")),
        ],
    )
    .await;
    let [preview, colleague, task, _intruder] = [&ips[0], &ips[1], &ips[2], &ips[3]];
    let (pods_a, pods_b) = (
        Api::<Pod>::namespaced(client.clone(), &a),
        Api::<Pod>::namespaced(client.clone(), &b),
    );

    // The enforcer applies a pod's rules once it has seen the pod with its address: wait until
    // the first attack is refused (a node without an enforcer never gets there).
    let deadline = Instant::now() + Duration::from_secs(60);
    while connect_from(&pods_b, "intruder", preview, WEB_PORT).await == Connect::Connected {
        assert!(
            Instant::now() < deadline,
            "a pod of another organization still reaches a preview after 60 s: NetworkPolicies are not \
             enforced. The real node runs their enforcer ({enforcer}) beside kube-proxy: dev/node.sh up \
             starts it (dev/test.sh and dev/up.sh run that); `dev/node.sh status` shows whether it runs, \
             and its log is $LUDIS_STATE/node/logs/kube-router.log"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    // (a) Another organization's pod reaches neither the preview nor the app, which the API
    // (this machine, as its app proxy) reaches.
    for target in [preview, colleague] {
        assert!(
            matches!(
                connect_from(&pods_b, "intruder", target, WEB_PORT).await,
                Connect::Blocked(_)
            ),
            "organization B reaches {target}"
        );
        assert_eq!(
            connect_from_host(target, WEB_PORT).await,
            Connect::Connected,
            "the API reaches {target}"
        );
    }
    let page = reqwest::get(format!("http://{preview}:{WEB_PORT}/"))
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "the API's proxy gets the preview's page");

    // (b) A colleague's pod of the same organization does not reach the preview either.
    assert!(
        matches!(
            connect_from(&pods_a, "colleague", preview, WEB_PORT).await,
            Connect::Blocked(_)
        ),
        "a colleague's app reaches the preview"
    );

    // (c) User pods reach the API's git port and its storage gateway, and resolve names, but not
    // the object store behind the gateway, the API server beside them (at the same address, and as
    // the `kubernetes` Service), nor the kubelet.
    for (pods, pod) in [(&pods_a, "preview"), (&pods_b, "intruder")] {
        assert_eq!(
            connect_from(pods, pod, &host_ip, api_port).await,
            Connect::Connected,
            "{pod} reaches the API's git server"
        );
        assert_eq!(
            connect_from(pods, pod, &host_ip, storage_port).await,
            Connect::Connected,
            "{pod} reaches the API's storage gateway"
        );
        let resolved = exec(
            pods,
            pod,
            &["python3", "-c", RESOLVE, "kubernetes.default.svc.cluster.local"],
        )
        .await;
        assert_eq!(resolved, service_ip, "{pod} resolves names through cluster DNS");
        for (ip, port, what) in [
            (host_ip.as_str(), apiserver_port, "the API server"),
            (host_ip.as_str(), s3_port, "the object store (its forwarder)"),
            (service_ip.as_str(), 443, "the API server's Service"),
            (node_ip.as_str(), 10250, "the kubelet"),
        ] {
            // The control: this machine reaches it.
            if what != "the API server's Service" {
                assert_eq!(
                    connect_from_host(ip, port).await,
                    Connect::Connected,
                    "{what} listens at {ip}:{port}"
                );
            }
            assert!(
                matches!(connect_from(pods, pod, ip, port).await, Connect::Blocked(_)),
                "{pod} reaches {what} at {ip}:{port}"
            );
        }
    }

    // (d) A task pod accepts nothing, not even from the API, though it serves.
    assert_eq!(
        connect_from(&pods_a, "task", "127.0.0.1", WEB_PORT).await,
        Connect::Connected,
        "the task pod serves"
    );
    assert!(
        matches!(connect_from_host(task, WEB_PORT).await, Connect::Blocked(_)),
        "the API reaches the task pod"
    );
    assert!(
        matches!(
            connect_from(&pods_a, "colleague", task, WEB_PORT).await,
            Connect::Blocked(_)
        ),
        "a pod of its organization reaches the task pod"
    );
    assert!(
        matches!(
            connect_from(&pods_b, "intruder", task, WEB_PORT).await,
            Connect::Blocked(_)
        ),
        "another organization's pod reaches the task pod"
    );

    for (pods, name) in [
        (&pods_a, "preview"),
        (&pods_a, "colleague"),
        (&pods_a, "task"),
        (&pods_b, "intruder"),
    ] {
        let _ = pods.delete(name, &DeleteParams::default()).await;
    }
}
