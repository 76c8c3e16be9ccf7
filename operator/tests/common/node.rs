//! The local platform's real node in tests: its addresses, the images built for it, pods that
//! run there, exec into them, object storage as pods reach it, and git repositories served to
//! pods over HTTP. dev/test.sh exports what these read (from `dev/node.sh plan` and
//! `dev/images.sh refs`).

use std::{collections::BTreeMap, path::Path, process::Command};

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api, Client,
    api::{AttachParams, PostParams},
};
use serde_json::json;
use tokio::io::AsyncReadExt as _;

use super::eventually;

/// A setting of the node: from the environment (dev/test.sh exports them), else from the file the
/// node wrote, `$LUDIS_STATE/node/node.env` (`KEY='value'` lines).
fn env(name: &str) -> String {
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
            panic!("{name} is not set and not in {file:?}: run the tests with dev/test.sh, which starts the real node")
        })
}

/// The node's name and address (`kubectl get nodes`).
pub const NODE_NAME: &str = "ludis-node";

pub fn node_ip() -> String {
    env("LUDIS_NODE_IP")
}

/// The host's end of the node's link: what pods reach of this machine (S3, test servers).
pub fn host_ip() -> String {
    env("LUDIS_NODE_HOST_IP")
}

/// The address of the `kubernetes` Service (the first of the Service range).
pub fn kubernetes_service_ip() -> String {
    env("LUDIS_NODE_SVC_IP")
}

/// Object storage as pods reach it (the host's end of the link, forwarded to the S3 server).
pub fn pod_s3_endpoint() -> String {
    env("LUDIS_POD_S3_ENDPOINT")
}

/// The reference of a local image (`python`, `r`, `git`, `pause`).
pub fn image(name: &str) -> String {
    let refs = env("LUDIS_IMAGE_REFS");
    refs.split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no image {name} in LUDIS_IMAGE_REFS={refs}"))
        .to_owned()
}

/// The S3 server as this machine reaches it (on loopback), and its keys (never a pod's).
pub fn s3_endpoint() -> String {
    env("LUDIS_S3_ENDPOINT")
}

pub fn s3_access_key() -> String {
    env("LUDIS_S3_ACCESS_KEY")
}

pub fn s3_secret_key() -> String {
    env("LUDIS_S3_SECRET_KEY")
}

/// The S3 client of the host (the server on loopback).
pub fn s3() -> aws_sdk_s3::Client {
    ludis_storage::client(&ludis_storage::S3Settings {
        endpoint: s3_endpoint(),
        region: "us-east-1".into(),
        access_key: s3_access_key(),
        secret_key: s3_secret_key(),
    })
}

/// Every key under a prefix.
pub async fn keys(s3: &aws_sdk_s3::Client, bucket: &str, prefix: &str) -> Vec<String> {
    let out = s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(prefix)
        .send()
        .await
        .unwrap();
    out.contents()
        .iter()
        .filter_map(|o| o.key().map(str::to_owned))
        .collect()
}

/// An object's body as text.
pub async fn object_text(s3: &aws_sdk_s3::Client, bucket: &str, key: &str) -> String {
    let out = s3.get_object().bucket(bucket).key(key).send().await.unwrap();
    let bytes = out.body.collect().await.unwrap().into_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A pod for the real node: the image `image` (a local one), `args` under the image's entrypoint
/// (tini), the toleration of the node's taint, and Pod Security "restricted".
pub fn pod(name: &str, image_name: &str, args: &[&str]) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
            "automountServiceAccountToken": false,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "main", "image": image(image_name), "args": args,
                "resources": {"requests": {"cpu": "50m", "memory": "128Mi"}, "limits": {"memory": "512Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}
            }]
        }
    }))
    .unwrap()
}

/// Creates a pod and waits until it is Ready.
pub async fn ready_pod(client: &Client, ns: &str, pod: Pod) -> Pod {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    let name = pod.metadata.name.clone().unwrap();
    pods.create(&PostParams::default(), &pod).await.unwrap();
    eventually(&format!("pod {name} to be Ready"), || async {
        let p = pods.get(&name).await.ok()?;
        let ready = p
            .status
            .as_ref()?
            .conditions
            .as_ref()?
            .iter()
            .any(|c| c.type_ == "Ready" && c.status == "True");
        ready.then_some(p)
    })
    .await
}

/// What an exec returned: stdout, stderr and the exit status the kubelet reported.
pub struct Exec {
    pub stdout: String,
    pub stderr: String,
    pub status: k8s_openapi::apimachinery::pkg::apis::meta::v1::Status,
}

impl Exec {
    /// The exit code: 0 on success, else the `ExitCode` cause of the failure.
    pub fn exit_code(&self) -> Option<i32> {
        if self.status.status.as_deref() == Some("Success") {
            return Some(0);
        }
        self.status
            .details
            .as_ref()?
            .causes
            .as_ref()?
            .iter()
            .find(|c| c.reason.as_deref() == Some("ExitCode"))?
            .message
            .as_ref()?
            .parse()
            .ok()
    }
}

pub async fn exec(pods: &Api<Pod>, pod: &str, command: &[&str]) -> Exec {
    exec_in(pods, pod, None, command).await
}

/// [`exec`] in the named container (`None`: the pod's only one).
pub async fn exec_in(pods: &Api<Pod>, pod: &str, container: Option<&str>, command: &[&str]) -> Exec {
    let mut params = AttachParams::default().stdout(true).stderr(true);
    if let Some(c) = container {
        params = params.container(c);
    }
    let mut attached = pods.exec(pod, command.iter().copied(), &params).await.unwrap();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let (mut out, mut err) = (attached.stdout().unwrap(), attached.stderr().unwrap());
    let (a, b) = tokio::join!(out.read_to_string(&mut stdout), err.read_to_string(&mut stderr));
    a.unwrap();
    b.unwrap();
    let status = attached.take_status().unwrap().await.expect("an exit status");
    Exec {
        stdout,
        stderr,
        status,
    }
}

/// The ClusterIP of a Service.
pub async fn cluster_ip(client: &Client, ns: &str, service: &str) -> String {
    Api::<k8s_openapi::api::core::v1::Service>::namespaced(client.clone(), ns)
        .get(service)
        .await
        .unwrap()
        .spec
        .unwrap()
        .cluster_ip
        .unwrap()
}

/// One GET: the body when the answer is 200.
pub async fn get(url: &str) -> Option<String> {
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(5))
        .build()
        .unwrap();
    let response = http.get(url).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    response.text().await.ok()
}

/// GETs a URL until it answers 200 and returns the body (a server in a pod may start listening a
/// moment after its pod is Running).
pub async fn http_body(url: &str) -> String {
    eventually(&format!("{url} to answer 200"), || get(url)).await
}

/// A git repository served to pods over git's "dumb" HTTP protocol (static files), from the host's
/// end of the node's link, for as long as this value lives.
pub struct GitRepo {
    /// The clone URL pods use.
    pub url: String,
    /// The commit of branch main.
    pub head: String,
    _dir: tempfile::TempDir,
    server: tokio::task::JoinHandle<()>,
}

impl GitRepo {
    /// Commits `files` (path → content) on top of main and serves the new head; returns it.
    pub fn commit(&mut self, files: &BTreeMap<&str, &str>) -> String {
        let dir = self._dir.path();
        let work = dir.join("work");
        for (path, content) in files {
            let file = work.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, content).unwrap();
        }
        git(&work, &["add", "."]);
        git(&work, &["commit", "-q", "-m", "a change of the test"]);
        let bare = dir.join("repo.git");
        git(&bare, &["fetch", "-q", "../work", "main:main"]);
        git(&bare, &["update-server-info"]);
        let head = Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(&work)
            .output()
            .expect("git is installed");
        self.head = String::from_utf8(head.stdout).unwrap().trim().to_owned();
        self.head.clone()
    }
}

impl Drop for GitRepo {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=Ludis test", "-c", "user.email=test@ludis.local"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Commits `files` (path → content) on branch main of a new repository and serves it.
pub async fn serve_repo(files: &BTreeMap<&str, &str>) -> GitRepo {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    for (path, content) in files {
        let file = work.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
    git(&work, &["init", "-q", "--initial-branch=main"]);
    git(&work, &["add", "."]);
    git(&work, &["commit", "-q", "-m", "files of the test"]);
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(&work)
        .output()
        .expect("git is installed");
    let head = String::from_utf8(head.stdout).unwrap().trim().to_owned();
    git(dir.path(), &["clone", "-q", "--bare", "work", "repo.git"]);
    git(&dir.path().join("repo.git"), &["update-server-info"]);

    let listener = tokio::net::TcpListener::bind((host_ip(), 0)).await.unwrap();
    let url = format!("http://{}/repo.git", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback_service(tower_http::services::ServeDir::new(dir.path()));
    let server = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    GitRepo {
        url,
        head,
        _dir: dir,
        server,
    }
}
