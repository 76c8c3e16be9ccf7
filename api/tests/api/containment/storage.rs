//! The storage gateway, attacked from inside real containers on the real node: a developer of
//! organization B, in a pod of their own project that references datasets, uses boto3 with
//! whatever the pod holds (its storage token, the SDK's own exchange at the gateway's STS):
//! - their own dataset reads and writes; a colleague's dataset shared at view reads and does not
//!   write; a colleague's dataset they were not given, organization A's dataset, the archived logs,
//!   the bucket's listing and the bucket list are refused — while the API's own client reads every
//!   one of those objects (they are there), and A's owner reads A's dataset from A's pod (the
//!   same step from A's side succeeds);
//! - the pod holds no bucket key (no `AWS_ACCESS_KEY_ID`, no `AWS_SECRET_ACCESS_KEY`);
//! - revoking the share ends the read within seconds, with the same credentials;
//! - a deleted pod's token and a token of another audience get no credentials.
//!
//! Needs the test command's cluster with its real node and its S3 server (a missing one fails
//! with what to start).

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::{Api, api::DeleteParams};
use ludis_api::{
    db,
    domain::{AssetKind, DatasetStatus, DeletionPolicy},
};
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, cluster, s3_settings},
    pod_tokens::{pod_token, wait_until},
    real_node::{LinkApp, app_on_link, exec, image, organization, ready_pods, superadmin},
};

/// What the attacker runs in their pod: each step an S3 call with boto3's default credentials
/// (the web identity of the pod's environment), printed as one JSON line.
const ATTEMPTS: &str = r#"
import json, os, sys
import boto3
from botocore.exceptions import ClientError
s3 = boto3.client("s3")
bucket = sys.argv[1]
out = {"keys_in_env": sorted(k for k in os.environ if k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"))}
for name, op, key in json.loads(sys.argv[2]):
    try:
        if op == "get":
            s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        elif op == "put":
            s3.put_object(Bucket=bucket, Key=key, Body=b"written from a pod")
        elif op == "list":
            s3.list_objects_v2(Bucket=bucket, Prefix=key)
        elif op == "buckets":
            s3.list_buckets()
        out[name] = "ok"
    except ClientError as e:
        out[name] = e.response["Error"]["Code"]
    except Exception as e:
        out[name] = type(e).__name__ + ": " + str(e)[:300]
print(json.dumps(out))
"#;

/// A dataset of `org` placed in `namespace` (its resource `name`), owned by `owner`, with one
/// object `file` written by the API's own client; returns (id, the object's key).
pub(crate) async fn dataset(
    app: &TestApp,
    org: &str,
    namespace: &str,
    owner: &str,
    name: &str,
    file: &str,
) -> (String, String) {
    let id = db::new_id();
    let prefix = ludis_storage::dataset_prefix(namespace, &id);
    db::details::insert(
        &app.state.db,
        &db::datasets::Dataset {
            asset: db::assets::AssetRow {
                owner_uid: Some(owner.to_owned()),
                ..db::assets::AssetRow::new(
                    AssetKind::Dataset,
                    id.clone(),
                    org.into(),
                    name.into(),
                    db::now(),
                )
            }
            .placed(Some((namespace.to_owned(), name.to_owned()))),
            details: db::datasets::DatasetRow {
                id: id.clone(),
                bucket: app.state.settings.s3_bucket.clone(),
                prefix: prefix.clone(),
                deletion_policy: DeletionPolicy::Retain,
                status: DatasetStatus::Ready,
                ..Default::default()
            },
        },
    )
    .await
    .unwrap();
    let key = format!("{prefix}{file}");
    put(app, &key).await;
    (id, key)
}

/// A project of `org` placed in `namespace`, owned by `owner`: the asset a pod works for.
async fn project(app: &TestApp, org: &str, namespace: &str, owner: &str, name: &str) -> String {
    let id = db::new_id();
    db::assets::insert(
        &app.state.db,
        &db::assets::AssetRow {
            owner_uid: Some(owner.to_owned()),
            ..db::assets::AssetRow::new(
                AssetKind::ProjectV2,
                id.clone(),
                org.into(),
                name.into(),
                db::now(),
            )
        }
        .placed(Some((namespace.to_owned(), name.to_owned()))),
    )
    .await
    .unwrap();
    id
}

async fn put(app: &TestApp, key: &str) {
    app.state
        .s3
        .as_ref()
        .unwrap()
        .put_object()
        .bucket(&app.state.settings.s3_bucket)
        .key(key)
        .body(format!("the object {key}").into_bytes().into())
        .send()
        .await
        .unwrap_or_else(|e| panic!("the API's client writes {key}: {e:?}"));
}

/// The API's own client reads `key` (the control: the object is there).
async fn root_reads(app: &TestApp, key: &str) -> bool {
    app.state
        .s3
        .as_ref()
        .unwrap()
        .get_object()
        .bucket(&app.state.settings.s3_bucket)
        .key(key)
        .send()
        .await
        .is_ok()
}

/// A pod of the asset `runner` shaped like the operator's with storage: the datasets it
/// references annotated, its storage token projected beside the SDK configuration, the SDK's
/// environment pointing at the gateway; it idles until a test runs something in it.
fn workload_pod(name: &str, runner: &str, datasets: &[&str], gateway: &str) -> Pod {
    let mount = "/var/run/secrets/ludis.dev/storage";
    serde_json::from_value(json!({
        "metadata": {
            "name": name,
            "labels": {
                ludis_crds::LABEL_ID: runner,
                "app.kubernetes.io/managed-by": "ludis-operator",
                "app.kubernetes.io/component": "preview",
            },
            "annotations": {ludis_crds::ANNOTATION_DATASETS: datasets.join(",")},
        },
        "spec": {
            "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
            "automountServiceAccountToken": false,
            "terminationGracePeriodSeconds": 0,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "main", "image": image("python"), "workingDir": "/tmp",
                "args": ["python3", "-c", "import time; time.sleep(3600)"],
                "env": [
                    {"name": "HOME", "value": "/tmp"},
                    {"name": "AWS_ROLE_ARN", "value": ludis_crds::STORAGE_ROLE_ARN},
                    {"name": "AWS_WEB_IDENTITY_TOKEN_FILE", "value": format!("{mount}/token")},
                    {"name": "AWS_ROLE_SESSION_NAME", "value": name},
                    {"name": "AWS_ENDPOINT_URL", "value": gateway},
                    {"name": "AWS_ENDPOINT_URL_STS", "value": gateway},
                    {"name": "AWS_REGION", "value": "us-east-1"},
                    {"name": "AWS_CONFIG_FILE", "value": format!("{mount}/config")},
                    {"name": "AWS_EC2_METADATA_DISABLED", "value": "true"},
                ],
                "volumeMounts": [{"name": "storage-identity", "mountPath": mount, "readOnly": true}],
                "resources": {"requests": {"cpu": "10m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}
            }],
            "volumes": [{"name": "storage-identity", "projected": {"sources": [
                {"serviceAccountToken": {"audience": ludis_crds::STORAGE_AUDIENCE, "expirationSeconds": 3600, "path": "token"}},
                {"configMap": {"name": ludis_crds::STORAGE_CLIENT_CONFIGMAP, "optional": true,
                               "items": [{"key": ludis_crds::STORAGE_CLIENT_CONFIG_KEY, "path": "config"}]}},
            ]}}],
        }
    }))
    .unwrap()
}

/// Runs the steps `(name, op, key)` in `pod`; the JSON of their outcomes.
async fn attempt(pods: &Api<Pod>, pod: &str, bucket: &str, steps: &[(&str, &str, &str)]) -> Value {
    let steps = serde_json::to_string(steps).unwrap();
    let out = exec(pods, pod, &["python3", "-c", ATTEMPTS, bucket, &steps]).await;
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("the attempts in {pod} printed {out:?}: {e}"))
}

/// An STS call with `token` as the web identity, from this machine.
async fn assume(gateway: &str, token: &str) -> (u16, String) {
    let response = reqwest::Client::new()
        .post(gateway)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(
            url::form_urlencoded::Serializer::new(String::new())
                .append_pair("Action", "AssumeRoleWithWebIdentity")
                .append_pair("Version", "2011-06-15")
                .append_pair("RoleArn", ludis_crds::STORAGE_ROLE_ARN)
                .append_pair("RoleSessionName", "test")
                .append_pair("WebIdentityToken", token)
                .finish(),
        )
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn a_pod_reaches_only_the_datasets_its_owner_may_at_their_level() {
    let Some(client) = cluster().await else {
        return;
    };
    let Some(with_s3) = s3_settings() else {
        return;
    };
    // The API listens at the host's end of the node's link, where pods reach it; its gateway too.
    let LinkApp {
        app,
        host_ip,
        storage_port,
        ..
    } = app_on_link(with_s3).await;
    let gateway = format!("http://{host_ip}:{storage_port}");
    let bucket = app.state.settings.s3_bucket.clone();
    let root = superadmin(&app).await;
    let ((org_a, ns_a), (org_b, ns_b)) = (organization(&app, &root).await, organization(&app, &root).await);

    // B: the attacker (a developer) and a colleague; A: an owner of its own data.
    let attacker = app.person(&org_b, "developer", "Attacker").await;
    let colleague = app.person(&org_b, "developer", "Colleague").await;
    let owner_a = app.person(&org_a, "developer", "Owner A").await;
    let (_, own) = dataset(&app, &org_b, &ns_b, &attacker.uid, "own", "own.csv").await;
    let (shared_id, shared) = dataset(&app, &org_b, &ns_b, &colleague.uid, "shared", "shared.csv").await;
    let (_, private) = dataset(&app, &org_b, &ns_b, &colleague.uid, "private", "private.csv").await;
    let (_, foreign) = dataset(&app, &org_a, &ns_a, &owner_a.uid, "theirs", "theirs.csv").await;
    app.share(&shared_id, "user", &attacker.uid, "view", &colleague.uid)
        .await;
    let logs = format!("logs/{ns_b}/run-1/task.log");
    put(&app, &logs).await;
    let project_b = project(&app, &org_b, &ns_b, &attacker.uid, "analysis").await;
    let project_a = project(&app, &org_a, &ns_a, &owner_a.uid, "theirs").await;

    let ips = ready_pods(
        &client,
        &[
            (
                &ns_b,
                workload_pod("attacker", &project_b, &["own", "shared", "private"], &gateway),
            ),
            (&ns_a, workload_pod("owner", &project_a, &["theirs"], &gateway)),
        ],
    )
    .await;
    assert_eq!(ips.len(), 2);
    let (pods_a, pods_b) = (
        Api::<Pod>::namespaced(client.clone(), &ns_a),
        Api::<Pod>::namespaced(client.clone(), &ns_b),
    );

    // The controls: every object is there for the API's own client; A reads A's own dataset.
    for key in [&own, &shared, &private, &foreign, &logs] {
        assert!(root_reads(&app, key).await, "the API's client reads {key}");
    }
    let from_a = attempt(&pods_a, "owner", &bucket, &[("own", "get", &foreign)]).await;
    assert_eq!(
        from_a["own"], "ok",
        "A's owner reads A's dataset from A's pod: {from_a}"
    );

    // The attack from B's pod.
    let own_prefix = own.rsplit_once('/').unwrap().0.to_owned() + "/";
    let own_new = format!("{own_prefix}new.csv");
    let shared_new = format!("{}new.csv", &shared[..shared.rfind('/').unwrap() + 1]);
    let datasets_root = format!("datasets/{ns_a}/");
    let b = attempt(
        &pods_b,
        "attacker",
        &bucket,
        &[
            ("own_read", "get", &own),
            ("own_write", "put", &own_new),
            ("own_list", "list", &own_prefix),
            ("shared_read", "get", &shared),
            ("shared_write", "put", &shared_new),
            ("private_read", "get", &private),
            ("foreign_read", "get", &foreign),
            ("foreign_write", "put", &foreign),
            ("foreign_list", "list", &datasets_root),
            ("logs_read", "get", &logs),
            ("bucket_list", "list", ""),
            ("buckets", "buckets", ""),
        ],
    )
    .await;
    assert_eq!(b["keys_in_env"], json!([]), "the pod holds no bucket key: {b}");
    for step in ["own_read", "own_write", "own_list", "shared_read"] {
        assert_eq!(b[step], "ok", "{step}: {b}");
    }
    for step in [
        "shared_write",
        "private_read",
        "foreign_read",
        "foreign_write",
        "foreign_list",
        "logs_read",
        "bucket_list",
        "buckets",
    ] {
        assert_eq!(b[step], "AccessDenied", "{step} is refused: {b}");
    }
    assert!(root_reads(&app, &own_new).await, "the pod's write landed");
    assert!(root_reads(&app, &foreign).await, "A's object is untouched");

    // Revoked: the same pod, the same credentials (boto3 keeps them for the hour), no read.
    app.share(&shared_id, "user", &attacker.uid, "none", &colleague.uid)
        .await;
    tokio::time::sleep(ludis_api::storage_gateway::grants::TTL + Duration::from_millis(500)).await;
    let after = attempt(
        &pods_b,
        "attacker",
        &bucket,
        &[("shared_read", "get", &shared), ("own_read", "get", &own)],
    )
    .await;
    assert_eq!(
        after["shared_read"], "AccessDenied",
        "a revoked share reads nothing: {after}"
    );
    assert_eq!(
        after["own_read"], "ok",
        "the owner's own dataset still reads: {after}"
    );

    // Tokens: another audience, and a deleted pod's, get no credentials; the live pod's do.
    let live = pod_token(&client, &ns_b, "attacker", ludis_crds::STORAGE_AUDIENCE).await;
    let (status, body) = assume(&gateway, &live).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("<AccessKeyId>ASIA") && body.contains("<SessionToken>"),
        "{body}"
    );
    let git = pod_token(&client, &ns_b, "attacker", ludis_crds::GIT_AUDIENCE).await;
    let (status, body) = assume(&gateway, &git).await;
    assert_eq!(status, 400, "a git token: {body}");
    assert!(body.contains("InvalidIdentityToken"), "{body}");
    pods_b.delete("attacker", &DeleteParams::default()).await.unwrap();
    wait_until("the attacker's pod is gone", || async {
        pods_b.get_opt("attacker").await.unwrap().is_none()
    })
    .await;
    let (status, body) = assume(&gateway, &live).await;
    assert_eq!(status, 400, "a deleted pod's token: {body}");
    let _ = pods_a.delete("owner", &DeleteParams::default()).await;
}
