//! The real node as tests attack from it: its settings (node.env), organizations made through
//! the API (their namespaces, policies and storage client configuration applied), pods made
//! Ready, commands run in them.

use std::{
    net::{IpAddr, SocketAddr},
    time::{Duration, Instant},
};

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api, Client,
    api::{AttachParams, PostParams},
};
use ludis_api::Settings;
use serde_json::json;
use tokio::io::AsyncReadExt as _;

use crate::helpers::{TestApp, missing_dir, spawn_app_with, unique};

/// An API where pods reach it, and its ports there.
pub struct LinkApp {
    pub app: TestApp,
    /// The host's end of the node's link.
    pub host_ip: String,
    pub api_port: u16,
    pub storage_port: u16,
}

/// An API (SQLite) listening at the host's end of the node's link, where pods reach its git
/// server and its storage gateway (as dev/up.sh's does through its forwarders), with the
/// organizations' NetworkPolicies node.env says an API there needs; `tweak` adds settings.
pub async fn app_on_link(tweak: impl FnOnce(&mut Settings)) -> LinkApp {
    let host_ip = node_env("LUDIS_NODE_HOST_IP");
    let ip: IpAddr = host_ip.parse().unwrap();
    let (api_port, storage_port) = (free_port(ip), free_port(ip));
    let egress = node_env("LUDIS_ORG_NETWORK_EGRESS_CIDRS");
    let app = spawn_app_with(|dir| {
        let mut s = Settings::for_tests(
            format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display()),
            missing_dir(),
        );
        s.listen = SocketAddr::new(ip, api_port);
        s.storage_listen = SocketAddr::new(ip, storage_port).to_string().parse().unwrap();
        s.org_network_policy = true;
        s.org_network_api_cidrs = format!("{host_ip}/32").parse().unwrap();
        s.org_network_egress_cidrs = egress.parse().unwrap();
        tweak(&mut s);
        s
    })
    .await;
    LinkApp {
        app,
        host_ip,
        api_port,
        storage_port,
    }
}

/// A superadmin's token on `app`.
pub async fn superadmin(app: &TestApp) -> String {
    let home = app.org(&unique("Home"), 10).await;
    let email = format!(
        "root-{}@ludis.example",
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    app.user(&email, "root-pass", "superadmin", &home).await;
    app.login(&email, "root-pass").await.0
}

/// Creates an organization through the API; returns its id and namespace.
pub async fn organization(app: &TestApp, root: &str) -> (String, String) {
    let (s, b) = app
        .post(
            "/v1/organizations",
            Some(root),
            json!({"organization": {"name": unique("Fenced"), "admin_email": "a@b.example", "tier": "free", "max_seats": 10}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["namespace_created"], true);
    (
        b["organization"]["id"].as_str().unwrap().to_owned(),
        b["organization"]["namespace"].as_str().unwrap().to_owned(),
    )
}

/// A setting of the real node: from the environment (dev/test.sh exports them), else from the
/// file the node wrote, `$LUDIS_STATE/node/node.env` (`KEY='value'` lines).
pub fn node_env(name: &str) -> String {
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

/// The reference of the node's image `name` (`python`, `r`, `git`).
pub fn image(name: &str) -> String {
    node_env("LUDIS_IMAGE_REFS")
        .split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('=').map(str::to_owned))
        .unwrap_or_else(|| panic!("the {name} image is not built for the node"))
}

/// Runs `command` in `pod`; its standard output (a standard error fails the test).
pub async fn exec(pods: &Api<Pod>, pod: &str, command: &[&str]) -> String {
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

/// Creates the pods and waits until each is Ready (serving); returns their IPs, in order.
pub async fn ready_pods(client: &Client, pods: &[(&str, Pod)]) -> Vec<String> {
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
pub fn free_port(ip: IpAddr) -> u16 {
    std::net::TcpListener::bind((ip, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
