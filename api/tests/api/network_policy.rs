//! The organizations' NetworkPolicies (`LUDIS_ORG_NETWORK_POLICY`, on by default) against the
//! real control plane and node, whose enforcer (kube-router's firewall, dev/node.sh) applies them:
//! - the API applies them to a new organization's namespace when on, and a start applies them to
//!   every existing organization's namespace when on and removes them when off;
//! - attacks from inside real containers fail while their controls succeed: a pod of another
//!   organization, and a colleague's pod of the same one, cannot reach a preview or an app that
//!   the API reaches; user pods reach the API's git port but not the API server beside it, nor the
//!   kubelet; task pods accept nothing, not even from the API.
//!
//! What they say is unit-tested in `cluster/network_policy.rs`. Skipped, with a message, when no
//! cluster is configured locally; with one, the real node must run (dev/test.sh starts it).

use std::{
    net::{IpAddr, SocketAddr},
    time::{Duration, Instant},
};

use k8s_openapi::api::{core::v1::Pod, networking::v1::NetworkPolicy};
use kube::{
    Api, Client,
    api::{AttachParams, DeleteParams, PostParams},
};
use ludis_api::Settings;
use serde_json::json;
use tokio::io::AsyncReadExt as _;

use crate::helpers::{TestApp, apps_with, cluster, missing_dir, spawn_app_with, unique};

/// A superadmin's token on `app`.
async fn superadmin(app: &TestApp) -> String {
    let home = app.org(&unique("Home"), 10).await;
    let email = format!(
        "root-{}@ludis.example",
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    app.user(&email, "root-pass", "superadmin", &home).await;
    app.login(&email, "root-pass").await.0
}

/// Creates an organization through the API; returns its namespace.
async fn organization(app: &TestApp, root: &str) -> String {
    let (s, b) = app
        .post(
            "/v1/organizations",
            Some(root),
            json!({"organization": {"name": unique("Fenced"), "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["namespace_created"], true);
    b["organization"]["namespace"].as_str().unwrap().to_owned()
}

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
    let namespace = organization(&app, &root).await;
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
    let bare = organization(&off, &off_root).await;
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

/// A setting of the real node: from the environment (dev/test.sh exports them), else from the
/// file the node wrote, `$LUDIS_STATE/node/node.env` (`KEY='value'` lines).
fn node_env(name: &str) -> String {
    if let Ok(value) = std::env::var(name) {
        return value;
    }
    let file = std::env::var("LUDIS_STATE")
        .map(|state| format!("{state}/node/node.env"))
        .unwrap_or_default();
    std::fs::read_to_string(&file)
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix('='))
        .map(|value| value.trim_matches('\'').to_owned())
        .unwrap_or_else(|| {
            panic!(
                "{name} is not set and not in {file:?}: the real node and its NetworkPolicy enforcer must run \
                 (dev/test.sh starts them with dev/node.sh)"
            )
        })
}

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

async fn exec(pods: &Api<Pod>, pod: &str, command: &[&str]) -> String {
    let mut attached = pods
        .exec(
            pod,
            command.iter().copied(),
            &AttachParams::default().stdout(true).stderr(true),
        )
        .await
        .unwrap_or_else(|e| panic!("exec in {pod}: {e}"));
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let (mut out, mut err) = (attached.stdout().unwrap(), attached.stderr().unwrap());
    let (a, b) = tokio::join!(out.read_to_string(&mut stdout), err.read_to_string(&mut stderr));
    a.unwrap();
    b.unwrap();
    attached.join().await.unwrap();
    assert!(stderr.is_empty(), "exec in {pod}: {stderr}");
    stdout.trim().to_owned()
}

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
    let image = node_env("LUDIS_IMAGE_REFS")
        .split_whitespace()
        .find_map(|w| w.strip_prefix("python=").map(str::to_owned))
        .expect("the python image is built for the node");
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

/// Creates the pods and waits until each is Ready (serving); returns their IPs, in order.
async fn ready_pods(client: &Client, pods: &[(&str, Pod)]) -> Vec<String> {
    for (namespace, pod) in pods {
        Api::<Pod>::namespaced(client.clone(), namespace)
            .create(&PostParams::default(), pod)
            .await
            .unwrap();
    }
    // Generous: the node may be busy with other tests' pods.
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut ips = Vec::new();
    for (namespace, pod) in pods {
        let name = pod.metadata.name.as_deref().unwrap();
        let api = Api::<Pod>::namespaced(client.clone(), namespace);
        loop {
            let p = api.get(name).await.unwrap();
            let status = p.status.unwrap_or_default();
            let ready = status
                .conditions
                .iter()
                .flatten()
                .any(|c| c.type_ == "Ready" && c.status == "True");
            if let (true, Some(ip)) = (ready, status.pod_ip) {
                ips.push(ip);
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the pod {namespace}/{name} is not Ready after 300 s: {:?}",
                status.container_statuses
            );
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    ips
}

/// A free port on `ip` (bound, then released for the API to take).
fn free_port(ip: IpAddr) -> u16 {
    std::net::TcpListener::bind((ip, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn pods_are_reached_only_by_the_api_and_reach_only_what_they_need() {
    let Some(client) = cluster().await else {
        return;
    };
    let host_ip = node_env("LUDIS_NODE_HOST_IP");
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
    let api_port = free_port(host_ip.parse().unwrap());
    let (api_cidrs, egress) = (
        format!("{host_ip}/32"),
        node_env("LUDIS_ORG_NETWORK_EGRESS_CIDRS"),
    );
    let app = spawn_app_with(move |dir| {
        let mut s = Settings::for_tests(
            format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display()),
            missing_dir(),
        );
        s.listen = SocketAddr::new(host_ip.parse().unwrap(), api_port);
        s.org_network_policy = true;
        s.org_network_api_cidrs = api_cidrs.parse().unwrap();
        s.org_network_egress_cidrs = egress.parse().unwrap();
        s
    })
    .await;
    let host_ip = node_env("LUDIS_NODE_HOST_IP");
    let root = superadmin(&app).await;
    let (a, b) = (organization(&app, &root).await, organization(&app, &root).await);

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

    // (c) User pods reach the API's git port and the object store, and resolve names, but not the
    // API server beside them (at the same address, and as the `kubernetes` Service), nor the
    // kubelet.
    for (pods, pod) in [(&pods_a, "preview"), (&pods_b, "intruder")] {
        assert_eq!(
            connect_from(pods, pod, &host_ip, api_port).await,
            Connect::Connected,
            "{pod} reaches the API's git server"
        );
        assert_eq!(
            connect_from(pods, pod, &host_ip, s3_port).await,
            Connect::Connected,
            "{pod} reaches the object store"
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
