//! Helpers shared by the integration tests: a client of the configured cluster, a namespace per
//! test, polling with a timeout, and the real node (`node`).
#![allow(dead_code)] // each test binary uses a different subset

pub mod health;
pub mod node;
pub mod storage_gateway;

use std::{future::Future, time::Duration};

use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client,
    api::{DeleteParams, PostParams},
};
use serde_json::json;

pub const FIELD_MANAGER: &str = "ludis-integration-test";
pub const TIMEOUT: Duration = Duration::from_secs(90);

/// rustls links ring and aws-lc-rs (the API's storage gateway, a test dependency, links the
/// AWS SDK's default client): kube's TLS takes ring, as the operator's does.
pub fn tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

pub async fn client() -> Client {
    tls();
    Client::try_default().await.expect(
        "no Kubernetes cluster configured: run the tests with dev/test.sh, or start one with \
         `dev/cluster.sh up` and export the KUBECONFIG it prints",
    )
}

/// A fresh namespace for one test, deleted when the guard is dropped.
pub struct TestNamespace {
    pub name: String,
}

impl TestNamespace {
    pub async fn new(client: &Client, prefix: &str) -> Self {
        let name = format!("{prefix}-{}", unique_suffix());
        let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": name}})).unwrap();
        Api::<Namespace>::all(client.clone())
            .create(&PostParams::default(), &ns)
            .await
            .unwrap();
        // Pods are admitted only once the namespace's default service account exists.
        let sa: Api<k8s_openapi::api::core::v1::ServiceAccount> = Api::namespaced(client.clone(), &name);
        eventually("the default service account", || async {
            sa.get_opt("default").await.ok().flatten()
        })
        .await;
        Self { name }
    }
}

impl Drop for TestNamespace {
    fn drop(&mut self) {
        // Best effort: the namespace controller removes everything inside. The test's runtime is
        // blocked here, so the request runs on a runtime (and client) of its own.
        let name = self.name.clone();
        let _ = std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async move {
                tls();
                if let Ok(client) = Client::try_default().await {
                    let _ = Api::<Namespace>::all(client)
                        .delete(&name, &DeleteParams::background())
                        .await;
                }
            })
        })
        .join();
    }
}

fn unique_suffix() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Polls `check` until it yields a value, or fails the test after [`TIMEOUT`].
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out after {TIMEOUT:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Installs (server-side applies) every Ludis CRD and waits until the API server serves them.
pub async fn install_crds(client: &Client) {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    use kube::api::{Patch, PatchParams};
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    for crd in ludis_crds::all_crds() {
        let name = crd.metadata.name.clone().unwrap();
        crds.patch(
            &name,
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&crd),
        )
        .await
        .unwrap_or_else(|e| panic!("the API server refused the CRD {name}: {e}"));
        eventually(&format!("CRD {name} to be established"), || async {
            let c = crds.get(&name).await.ok()?;
            let conds = c.status?.conditions?;
            conds
                .iter()
                .any(|c| c.type_ == "Established" && c.status == "True")
                .then_some(())
        })
        .await;
    }
}

/// The namespace of the operator's own objects in tests.
pub const SYSTEM_NAMESPACE: &str = "ludis-system";

/// Starts the controllers once for this test binary, in a thread of their own (so they outlive
/// each test's runtime), after installing the CRDs and the image list, with a stand-in for the
/// API's storage gateway ([`storage_gateway`]).
pub async fn start_operator() {
    static STARTED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    let client = client().await;
    install_crds(&client).await;
    ensure_image_list(&client).await;
    STARTED.get_or_init(|| {
        // Pods reach object storage through a stand-in for the API's storage gateway.
        let (gateway, storage_url) = storage_gateway::bind();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            rt.block_on(async move {
                tls();
                let client = Client::try_default().await.unwrap();
                tokio::spawn(storage_gateway::serve(gateway, client.clone()));
                let metrics = std::sync::Arc::new(ludis_operator::metrics::Metrics::default());
                // The operator's own images: the ones built for the real node.
                let config = ludis_operator::context::Config {
                    git_image: node::image("git"),
                    tick_image: node::image("git"),
                    upload_image: node::image("python"),
                    storage_url: Some(storage_url),
                    ..ludis_operator::context::Config::for_tests(SYSTEM_NAMESPACE)
                };
                let ctx = ludis_operator::context::Context::new(client, config, metrics, Some("test".into()));
                ludis_operator::controllers::run(std::sync::Arc::new(ctx), std::future::pending()).await;
            });
        });
    });
}

/// The administrator's image list of the local platform (seeds/ludis-images.json): id → the
/// reference of the image built here.
pub fn image_list() -> std::collections::BTreeMap<String, String> {
    ludis_operator::images::ImageCatalog::from_seed(
        include_str!("../../../seeds/ludis-images.json"),
        node::image,
    )
    .expect("seeds/ludis-images.json parses")
    .0
}

/// The administrator's image list used by the tests.
pub async fn ensure_image_list(client: &Client) {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Patch, PatchParams};
    let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": SYSTEM_NAMESPACE}})).unwrap();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    namespaces
        .patch(
            SYSTEM_NAMESPACE,
            &PatchParams::apply(FIELD_MANAGER),
            &Patch::Apply(&ns),
        )
        .await
        .unwrap();
    let cm = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "ludis-images", "namespace": SYSTEM_NAMESPACE},
        "data": image_list()
    });
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), SYSTEM_NAMESPACE);
    cms.patch(
        "ludis-images",
        &PatchParams::apply(FIELD_MANAGER).force(),
        &Patch::Apply(&cm),
    )
    .await
    .unwrap();
}

/// The named condition's (status, reason) of a Ludis object's status, if any.
pub fn condition(status: &serde_json::Value, type_: &str) -> Option<(String, String)> {
    status["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == type_)
        .map(|c| {
            (
                c["status"].as_str().unwrap_or_default().to_owned(),
                c["reason"].as_str().unwrap_or_default().to_owned(),
            )
        })
}

/// A project `name` whose git repository holds `files` (committed and served to pods), without a
/// preview: what workflows check out. Returns the repository (served while it lives).
pub async fn project_with_repo(
    client: &Client,
    ns: &str,
    name: &str,
    files: &std::collections::BTreeMap<&str, &str>,
) -> node::GitRepo {
    use ludis_crds::{Project, ProjectSpec};
    let repo = node::serve_repo(files).await;
    let spec: ProjectSpec = serde_json::from_value(json!({
        "displayName": name, "image": "default-python", "git": {"url": repo.url}
    }))
    .unwrap();
    Api::<Project>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &Project::new(name, spec))
        .await
        .unwrap();
    repo
}
