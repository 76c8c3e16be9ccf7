//! What containment costs, on the platform `dev/bench-node.sh` started (its API, operator, S3
//! server and real node):
//! 1. **Pod start** of the same pods as the operator makes workload pods — in the administrator's
//!    organization namespace (the API applied its NetworkPolicies, which the node enforces), with
//!    the labels the policies select, and a storage identity (a projected service-account token
//!    and the SDK's config, `StorageIdentity`) — p50 and p99 beside the bare pods' rounds.
//! 2. **S3 read throughput** from a pod: one script reads the same 64 MiB object of a dataset,
//!    with the root key straight from the S3 server (a pod of the benchmark's namespace, which has
//!    no policies) and with a workload pod's scoped credentials through the API's storage gateway
//!    (the SDK's own `AssumeRoleWithWebIdentity`, every request decided by the access rule);
//!    MB/s of each, the best of a few reads, and their ratio (the target is ≥ 0.9).
//!
//! Environment: BENCH_API (the API's URL), BENCH_ADMIN_EMAIL, BENCH_ADMIN_PASSWORD,
//! BENCH_STORAGE_URL (the gateway as pods reach it: the operator's LUDIS_STORAGE_URL),
//! BENCH_POD_S3 (the S3 server as pods reach it), LUDIS_S3_ENDPOINT, LUDIS_S3_ACCESS_KEY and
//! LUDIS_S3_SECRET_KEY (the root key, as the API has it), BENCH_MIB (the object's size).

use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api, Client, ResourceExt as _,
    api::{DeleteParams, ListParams, LogParams, PostParams},
};
use ludis_crds::Dataset;
use ludis_operator::{context::Config, controllers::storage_identity::StorageIdentity};
use serde_json::{Value, json};

use super::{clear, pod, report, round};

/// The platform to measure.
pub struct Platform {
    api: String,
    email: String,
    password: String,
    storage_url: String,
    pod_s3: String,
    s3: ludis_storage::S3Settings,
    mib: usize,
}

impl Platform {
    /// From the environment; `None` without BENCH_API.
    pub fn from_env() -> Option<Self> {
        let var = |name: &str| std::env::var(name).unwrap_or_default();
        let api = std::env::var("BENCH_API").ok()?;
        Some(Self {
            api: api.trim_end_matches('/').to_owned(),
            email: var("BENCH_ADMIN_EMAIL"),
            password: var("BENCH_ADMIN_PASSWORD"),
            storage_url: var("BENCH_STORAGE_URL"),
            pod_s3: var("BENCH_POD_S3"),
            s3: ludis_storage::S3Settings {
                endpoint: var("LUDIS_S3_ENDPOINT"),
                region: "us-east-1".into(),
                access_key: var("LUDIS_S3_ACCESS_KEY"),
                secret_key: var("LUDIS_S3_SECRET_KEY"),
            },
            mib: var("BENCH_MIB").parse().unwrap_or(64),
        })
    }
}

/// Reads s3://$1/$2 $3 times with whatever credentials the environment gives boto3; prints the
/// size and each read's bytes per second as JSON.
const READER: &str = r#"
import json, sys, time, boto3
from botocore.config import Config
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}))
bucket, key, reads = sys.argv[1], sys.argv[2], int(sys.argv[3])
rates, size = [], 0
for _ in range(reads):
    start, size = time.perf_counter(), 0
    body = s3.get_object(Bucket=bucket, Key=key)["Body"]
    for chunk in iter(lambda: body.read(1 << 20), b""):
        size += len(chunk)
    rates.append(size / (time.perf_counter() - start))
print(json.dumps({"bytes": size, "rates": rates}))
"#;
const READS: usize = 3;

/// A signed-in administrator of the platform's API.
struct Admin<'a> {
    platform: &'a Platform,
    http: reqwest::Client,
    token: String,
}

impl<'a> Admin<'a> {
    async fn sign_in(platform: &'a Platform) -> anyhow::Result<Self> {
        let http = reqwest::Client::new();
        let body: Value = http
            .post(format!("{}/v1/auth/login", platform.api))
            .json(&json!({"user": {"email": platform.email, "password": platform.password}}))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let token = body["token"]
            .as_str()
            .context("the sign-in answered no token")?
            .to_owned();
        Ok(Self {
            platform,
            http,
            token,
        })
    }

    /// POSTs `body` to `path`; the answer.
    async fn post(&self, path: &str, body: Value) -> anyhow::Result<Value> {
        let res = self
            .http
            .post(format!("{}{path}", self.platform.api))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await?;
        let status = res.status();
        let answer: Value = res.json().await.unwrap_or_default();
        if !status.is_success() {
            bail!("POST {path}: {status} {answer}");
        }
        Ok(answer)
    }
}

/// A dataset made through the API, as the operator placed it: its namespace, its resource's
/// name, its bucket and prefix.
struct Placed {
    namespace: String,
    resource: String,
    bucket: String,
    prefix: String,
}

async fn dataset(client: &Client, admin: &Admin<'_>) -> anyhow::Result<Placed> {
    let name = format!("bench-read-{}", std::process::id());
    let made = admin
        .post(
            "/v1/datasets/createdataset",
            json!({"dataset": {"name": name, "description": "pod_start_bench", "deletion_policy": "Delete"}}),
        )
        .await?;
    let id = made["dataset"]["id"]
        .as_str()
        .context("no dataset id")?
        .to_owned();
    let datasets: Api<Dataset> = Api::all(client.clone());
    let selector = format!("{}={id}", ludis_crds::LABEL_ID);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let found = datasets.list(&ListParams::default().labels(&selector)).await?;
        if let Some(d) = found.items.first()
            && let Some(status) = &d.status
            && let (Some(bucket), Some(prefix)) = (&status.bucket, &status.prefix)
        {
            return Ok(Placed {
                namespace: d.namespace().unwrap_or_default(),
                resource: d.name_any(),
                bucket: bucket.clone(),
                prefix: prefix.clone(),
            });
        }
        if Instant::now() > deadline {
            bail!("the operator did not place dataset {id} within 120 s");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// A workload pod as the operator makes a preview: in `dataset`'s namespace, the project's id
/// and the labels the organization's policies select, the storage identity for the dataset;
/// running `args`.
fn workload_pod(
    name: &str,
    image: &str,
    project: &str,
    identity: &StorageIdentity,
    args: Vec<String>,
) -> Pod {
    let mut p = pod(name, image);
    let labels = p.labels_mut();
    labels.insert(ludis_crds::LABEL_ID.into(), project.into());
    labels.insert("app.kubernetes.io/component".into(), "preview".into());
    labels.insert("app.kubernetes.io/managed-by".into(), "ludis-operator".into());
    identity.annotate(p.annotations_mut());
    let spec = p.spec.as_mut().expect("a pod has a spec");
    spec.volumes = Some(identity.volumes(spec.volumes.take().unwrap_or_default()));
    let container = &mut spec.containers[0];
    identity.give(container);
    if !args.is_empty() {
        container.args = Some(args);
        spec.restart_policy = Some("Never".into());
    }
    p
}

/// The reader's arguments for `placed`'s object `key`.
fn reader_args(placed: &Placed, key: &str) -> Vec<String> {
    ["python", "-c", READER, &placed.bucket, key, &READS.to_string()]
        .map(str::to_owned)
        .to_vec()
}

/// Runs `pod` to its end; the best of the rates its reader printed (bytes/s) and the size read.
async fn read_in(pods: &Api<Pod>, pod: Pod) -> anyhow::Result<(f64, u64)> {
    let name = pod.name_any();
    pods.create(&PostParams::default(), &pod).await?;
    let deadline = Instant::now() + Duration::from_secs(600);
    let phase = loop {
        let phase = pods
            .get(&name)
            .await?
            .status
            .and_then(|s| s.phase)
            .unwrap_or_default();
        if phase == "Succeeded" || phase == "Failed" {
            break phase;
        }
        if Instant::now() > deadline {
            bail!("{name} did not end within 600 s");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let log = pods.logs(&name, &LogParams::default()).await?;
    let _ = pods.delete(&name, &DeleteParams::default()).await;
    let out: Value = log
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .with_context(|| format!("{name} ({phase}) printed no result:\n{log}"))?;
    let best = out["rates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .fold(0.0, f64::max);
    Ok((best, out["bytes"].as_u64().unwrap_or_default()))
}

/// Both measurements; `bare` is the benchmark's namespace (no policies).
pub async fn run(
    client: &Client,
    platform: &Platform,
    bare: &Api<Pod>,
    image: &str,
    count: usize,
) -> anyhow::Result<()> {
    let admin = Admin::sign_in(platform).await?;
    let placed = dataset(client, &admin).await?;
    let project = admin
        .post(
            "/v2/projects",
            json!({"project": {"name": format!("bench-start-{}", std::process::id()), "description": "pod_start_bench", "language": "python"}}),
        )
        .await?["project"]["id"]
        .as_str()
        .context("no project id")?
        .to_owned();
    let mut config = Config::for_tests("ludis-system");
    config.storage_url = Some(platform.storage_url.clone());
    let identity = StorageIdentity::for_datasets(&config, [&placed.resource])
        .context("no storage identity without a gateway")?;
    let contained: Api<Pod> = Api::namespaced(client.clone(), &placed.namespace);

    println!();
    println!(
        "The same {count} pods as the operator's workloads, in {} (its NetworkPolicies enforced by the node), each with a storage identity:",
        placed.namespace
    );
    let latencies = round(&contained, count, "contained", |n| {
        workload_pod(n, image, &project, &identity, vec![])
    })
    .await;
    report("contained round", &latencies);
    clear(&contained).await?;

    let key = format!("{}bench.bin", placed.prefix);
    let bytes = vec![0x5a_u8; platform.mib << 20];
    ludis_storage::client(&platform.s3)
        .put_object()
        .bucket(&placed.bucket)
        .key(&key)
        .body(bytes.into())
        .send()
        .await
        .context("writing the object to read with the root key")?;
    let mut root = pod("read-root", image);
    {
        let spec = root.spec.as_mut().expect("a pod has a spec");
        spec.restart_policy = Some("Never".into());
        let c = &mut spec.containers[0];
        c.args = Some(reader_args(&placed, &key));
        c.env = Some(
            [
                ("AWS_ACCESS_KEY_ID", platform.s3.access_key.as_str()),
                ("AWS_SECRET_ACCESS_KEY", &platform.s3.secret_key),
                ("AWS_ENDPOINT_URL", &platform.pod_s3),
                ("AWS_REGION", "us-east-1"),
                ("AWS_EC2_METADATA_DISABLED", "true"),
            ]
            .map(|(name, value)| ludis_operator::controllers::pods::env_var(name, value))
            .to_vec(),
        );
    }
    let (root_rate, root_bytes) = read_in(bare, root).await?;
    let scoped = workload_pod(
        "read-scoped",
        image,
        &project,
        &identity,
        reader_args(&placed, &key),
    );
    let (scoped_rate, scoped_bytes) = read_in(&contained, scoped).await?;
    if root_bytes != scoped_bytes || root_bytes != (platform.mib as u64) << 20 {
        bail!(
            "the reads differ: {root_bytes} bytes with the root key, {scoped_bytes} with scoped credentials"
        );
    }
    let mb = |rate: f64| rate / 1e6;
    println!();
    println!(
        "S3 read of one {} MiB object from a pod, boto3, the best of {READS} reads:",
        platform.mib
    );
    println!(
        "  root key, straight to the S3 server         {:>8.1} MB/s",
        mb(root_rate)
    );
    println!(
        "  scoped credentials, the storage gateway     {:>8.1} MB/s",
        mb(scoped_rate)
    );
    println!(
        "  ratio scoped / root                         {:>8.2}   (target >= 0.9: {})",
        scoped_rate / root_rate,
        if scoped_rate >= 0.9 * root_rate {
            "met"
        } else {
            "NOT met"
        }
    );
    Ok(())
}
