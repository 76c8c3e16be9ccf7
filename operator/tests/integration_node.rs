//! The local platform's real node (dev/node.sh): pods of the images built here run there for
//! real — their own output in the logs, exec inside the container, exit codes from the process —
//! and are contained: the kubelet API refuses them, they reach Services (by cluster DNS), object
//! storage and the host's end of the node's link, and nothing outside this machine (no route).
//!
//! Needs the cluster dev/test.sh starts.

use k8s_openapi::api::core::v1::{Node, Pod, Service};
use kube::{
    Api,
    api::{LogParams, PostParams},
};
use serde_json::json;

use common::{
    TestNamespace, client,
    node::{self, NODE_NAME, cluster_ip, exec, http_body, pod, ready_pod},
};

mod common;

#[tokio::test]
async fn a_pod_runs_on_the_real_node_with_its_own_output_and_exec() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-node").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let program = "import socket, sys, time\n\
                   print('hello from', socket.gethostname())\n\
                   print('a line on stderr', file=sys.stderr)\n\
                   time.sleep(3600)";
    let p = ready_pod(
        &client,
        &ns.name,
        pod("worker", "python", &["python", "-c", program]),
    )
    .await;

    let node_name = p.spec.as_ref().unwrap().node_name.clone().unwrap();
    assert_eq!(node_name, NODE_NAME);
    let node = Api::<Node>::all(client.clone()).get(NODE_NAME).await.unwrap();
    let info = node.status.unwrap().node_info.unwrap();
    assert!(
        info.container_runtime_version.starts_with("containerd://"),
        "{info:?}"
    );
    assert_eq!(
        p.status.unwrap().host_ip.as_deref(),
        Some(node::node_ip().as_str())
    );

    // The container's own output, both streams, through the kubelet and the API server.
    let logs = common::eventually("the pod's output in its logs", || async {
        let logs = pods.logs("worker", &LogParams::default()).await.ok()?;
        logs.contains("a line on stderr").then_some(logs)
    })
    .await;
    assert!(logs.contains("hello from worker\n"), "logs were {logs:?}");

    // Exec runs inside the container: its hostname, its user, its root filesystem and PID 1.
    let e = exec(
        &pods,
        "worker",
        &[
            "sh",
            "-c",
            "hostname; id -u; grep -h VERSION_CODENAME /etc/os-release; tr '\\0' ' ' </proc/1/cmdline",
        ],
    )
    .await;
    assert_eq!(e.exit_code(), Some(0), "stderr: {}", e.stderr);
    let lines: Vec<_> = e.stdout.lines().collect();
    assert_eq!(lines[0], "worker");
    assert_eq!(lines[1], "1000");
    assert_eq!(lines[2], "VERSION_CODENAME=bookworm");
    assert!(
        lines[3].starts_with("/usr/bin/tini -- python -c"),
        "PID 1 is {:?}",
        lines[3]
    );
    // This machine's files are not there.
    let marker = tempfile::NamedTempFile::new().unwrap();
    let path = marker.path().to_str().unwrap();
    let e = exec(&pods, "worker", &["test", "-e", path]).await;
    assert_eq!(e.exit_code(), Some(1), "{path} is visible inside the pod");
    // A failing command's own exit code comes back.
    let e = exec(&pods, "worker", &["sh", "-c", "echo out; echo err >&2; exit 3"]).await;
    assert_eq!((e.stdout.as_str(), e.stderr.as_str()), ("out\n", "err\n"));
    assert_eq!(e.exit_code(), Some(3), "status was {:?}", e.status);
}

/// Runs in a pod: tries the kubelet API of the node the pod runs on, anonymously, as any pod could.
const KUBELET_PROBE: &str = r#"
import json, os, ssl, urllib.request, urllib.error
context = ssl._create_unverified_context()
answers = {}
for method, path in [("GET", "/pods"), ("GET", "/runningpods/"), ("POST", "/run/default/x/y?cmd=id")]:
    request = urllib.request.Request(f"https://{os.environ['NODE_IP']}:10250{path}", method=method)
    try:
        answers[path] = urllib.request.urlopen(request, context=context, timeout=5).status
    except urllib.error.HTTPError as e:
        answers[path] = e.code
print(json.dumps(answers))
"#;

#[tokio::test]
async fn the_kubelet_api_refuses_a_pod() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-kubelet").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    ready_pod(&client, &ns.name, pod("probe", "python", &["sleep", "3600"])).await;
    let script = format!(
        "NODE_IP={} python - <<'EOF'\n{KUBELET_PROBE}\nEOF",
        node::node_ip()
    );
    let e = exec(&pods, "probe", &["sh", "-c", &script]).await;
    assert_eq!(e.exit_code(), Some(0), "stderr: {}", e.stderr);
    let answers: serde_json::Value = serde_json::from_str(e.stdout.trim()).unwrap();
    assert_eq!(
        answers,
        json!({"/pods": 401, "/runningpods/": 401, "/run/default/x/y?cmd=id": 401}),
        "the kubelet answered a pod without credentials"
    );
}

/// Runs in a pod: what it can reach. Prints one JSON object.
const REACH_PROBE: &str = r#"
import errno, json, os, socket, urllib.request, urllib.error
out = {}
def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return [r.status, r.read().decode()]
    except urllib.error.HTTPError as e:
        return [e.code, e.read().decode()]
out["service_by_name"] = fetch("http://web/")
out["service_by_fqdn"] = fetch(f"http://web.{os.environ['NS']}.svc.cluster.local/")
out["web_address"] = socket.gethostbyname("web")
out["kubernetes_address"] = socket.gethostbyname("kubernetes.default")
out["s3"] = fetch(os.environ["S3"] + "/")[0]
try:
    socket.getaddrinfo("example.com", 80)
    out["outside_name"] = "resolved"
except socket.gaierror as e:
    out["outside_name"] = e.errno
def connect(family, address):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(address)
        return "connected"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e))
    finally:
        s.close()
out["outside_v4"] = connect(socket.AF_INET, ("203.0.113.10", 80))
out["outside_v6"] = connect(socket.AF_INET6, ("2001:db8::10", 80))
out["host_v4"] = connect(socket.AF_INET, (os.environ["HOST_OUTSIDE"], 22)) if os.environ["HOST_OUTSIDE"] else "skipped"
print(json.dumps(out))
"#;

/// This machine's address on its way out (the source of its default route), if it has one.
fn outside_address() -> String {
    let out = std::process::Command::new("ip")
        .args(["-4", "route", "get", "203.0.113.10"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<_> = text.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == "src")
        .and_then(|i| words.get(i + 1))
        .map_or_else(String::new, |s| (*s).to_owned())
}

#[tokio::test]
async fn pods_reach_services_and_storage_by_cluster_dns_and_nothing_outside() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-reach").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let server = "import http.server\n\
                  class H(http.server.BaseHTTPRequestHandler):\n\
                  \x20   def do_GET(self):\n\
                  \x20       self.send_response(200); self.end_headers(); self.wfile.write(b'served by web')\n\
                  http.server.HTTPServer(('', 8080), H).serve_forever()";
    ready_pod(&client, &ns.name, pod("web", "python", &["python", "-c", server])).await;
    let svc: Service = serde_json::from_value(json!({
        "metadata": {"name": "web"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": 8080}]}
    }))
    .unwrap();
    Api::<Service>::namespaced(client.clone(), &ns.name)
        .create(&PostParams::default(), &svc)
        .await
        .unwrap();
    let web_ip = cluster_ip(&client, &ns.name, "web").await;
    // This machine reaches the Service too (its routes lead into the node).
    assert_eq!(http_body(&format!("http://{web_ip}/")).await, "served by web");

    ready_pod(&client, &ns.name, pod("client", "python", &["sleep", "3600"])).await;
    let script = format!(
        "NS={} S3={} HOST_OUTSIDE={} python - <<'EOF'\n{REACH_PROBE}\nEOF",
        ns.name,
        node::pod_s3_endpoint(),
        outside_address()
    );
    let e = exec(&pods, "client", &["sh", "-c", &script]).await;
    assert_eq!(e.exit_code(), Some(0), "stderr: {}", e.stderr);
    let out: serde_json::Value = serde_json::from_str(e.stdout.trim()).unwrap();
    assert_eq!(out["service_by_name"], json!([200, "served by web"]), "{out}");
    assert_eq!(out["service_by_fqdn"], json!([200, "served by web"]), "{out}");
    assert_eq!(out["web_address"], web_ip.as_str());
    assert_eq!(out["kubernetes_address"], node::kubernetes_service_ip().as_str());
    // The S3 server answers (an unsigned request is refused by S3 itself).
    assert_eq!(out["s3"], 403, "{out}");
    // Cluster DNS answers other names itself, NXDOMAIN (EAI_NONAME), and forwards nothing.
    assert_eq!(out["outside_name"], -2, "{out}");
    // No route leads anywhere else: the connection fails at once, nothing is sent.
    assert_eq!(out["outside_v4"], "ENETUNREACH", "{out}");
    assert!(
        ["ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"].contains(&out["outside_v6"].as_str().unwrap()),
        "{out}"
    );
    assert!(
        ["ENETUNREACH", "skipped"].contains(&out["host_v4"].as_str().unwrap()),
        "this machine's own outside address was reachable: {out}"
    );
}

/// The node enforces local storage, as sizes will rely on (issue 34): a pod writing more than its
/// emptyDir's `sizeLimit` is evicted by the kubelet, and one writing less runs on (the control).
#[tokio::test]
async fn a_pod_writing_past_its_scratch_size_limit_is_evicted() {
    let client = client().await;
    let ns = TestNamespace::new(&client, "it-evict").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let writer = |name: &str, megabytes: u32| {
        let program = format!(
            "with open('/scratch/data', 'wb') as f:\n    f.write(b'x' * ({megabytes} * 1024 * 1024))\n    f.flush()\nimport time\ntime.sleep(3600)"
        );
        let mut p = pod(name, "python", &["python", "-c", &program]);
        let spec = p.spec.as_mut().unwrap();
        spec.volumes = Some(vec![
            serde_json::from_value(json!({"name": "scratch", "emptyDir": {"sizeLimit": "16Mi"}})).unwrap(),
        ]);
        spec.containers[0].volume_mounts = Some(vec![
            serde_json::from_value(json!({"name": "scratch", "mountPath": "/scratch"})).unwrap(),
        ]);
        p
    };
    ready_pod(&client, &ns.name, writer("within", 4)).await;
    pods.create(&PostParams::default(), &writer("past", 64))
        .await
        .unwrap();
    let evicted = common::eventually("the pod past its limit to be evicted", || async {
        let status = pods.get("past").await.ok()?.status?;
        (status.phase.as_deref() == Some("Failed")).then_some(status)
    })
    .await;
    assert_eq!(evicted.reason.as_deref(), Some("Evicted"), "{evicted:?}");
    assert!(
        evicted.message.as_deref().unwrap_or_default().contains("scratch"),
        "the message names the volume: {evicted:?}"
    );
    let within = pods.get("within").await.unwrap().status.unwrap();
    assert_eq!(
        within.phase.as_deref(),
        Some("Running"),
        "the control: {within:?}"
    );
}
