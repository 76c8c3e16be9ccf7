//! The API and the operator together, as a deployment runs them (the API in-process on port 0 with
//! its own SQLite database, the operator's controllers beside it), against the local control
//! plane and the S3 server: a dataset made, filled and deleted through the API's HTTP routes is
//! measured by the operator's dataset controller, whose status reaches the API, and the
//! operator's finalizer deals with its files as its deletion policy says. Everything is observed
//! the way a user or an administrator would: HTTP answers, the Dataset resource, the bucket.

use kube::{Api, ResourceExt as _, api::ListParams};
use ludis_crds::{ANNOTATION_BUCKET, Dataset, LABEL_ID};
use serde_json::{Value, json};

use common::{client, eventually, start_operator};

mod common;

const ADMIN: &str = "e2e-admin@ludis.local";
const PASSWORD: &str = "e2e-password-0123456789";

/// The Ludis API, serving on port 0, signed in as its seeded superadmin.
struct Ludis {
    base: String,
    http: reqwest::Client,
    token: String,
    _dir: tempfile::TempDir,
}

impl Ludis {
    /// Starts the API with a fresh SQLite database, the test S3 server and the cluster of
    /// KUBECONFIG, seeded with a superadmin, and signs in.
    async fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let database = format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display());
        let mut s = ludis_api::Settings::for_tests(database, dir.path().join("no-console"));
        s.secrets_file = dir.path().join("secrets.env");
        s.s3_endpoint = env("LUDIS_S3_ENDPOINT");
        s.s3_access_key = env("LUDIS_S3_ACCESS_KEY");
        s.s3_secret_key = ludis_api::Secret(env("LUDIS_S3_SECRET_KEY"));
        s.s3_bucket = "ludis-e2e-assets".into();
        s.seed = true;
        s.admin_email = ADMIN.into();
        s.admin_password = ludis_api::Secret(PASSWORD.into());
        let app = ludis_api::App::build(s).await.expect("the API starts");
        let base = format!("http://{}", app.local_addr());
        tokio::spawn(app.run_until_stopped());
        let http = reqwest::Client::new();
        let login: Value = http
            .post(format!("{base}/v1/auth/login"))
            .json(&json!({"user": {"email": ADMIN, "password": PASSWORD}}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let token = login["token"].as_str().expect("signed in").to_owned();
        Self {
            base,
            http,
            token,
            _dir: dir,
        }
    }

    /// Calls the API; returns the status and the JSON body (`Null` when there is none).
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("the API answers");
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    /// Uploads `body` to the dataset's `path` through a presigned PUT, as the browser does.
    async fn upload(&self, id: &str, path: &str, body: &[u8]) {
        let r = self
            .post(
                &format!("/v1/datasets/getpresignedurl/{id}"),
                json!({"path": path, "method": "PUT"}),
            )
            .await;
        assert_eq!(r.0, 200, "presign {path}: {}", r.1);
        let put = reqwest::Client::new()
            .put(r.1["url"].as_str().unwrap())
            .header("content-type", "application/octet-stream")
            .body(body.to_vec())
            .send()
            .await
            .unwrap();
        assert!(put.status().is_success(), "PUT {path}: {}", put.status());
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run the tests with dev/test.sh"))
}

/// The objects and bytes under `prefix` in `bucket`, straight from the storage server.
async fn stored(bucket: &str, prefix: &str) -> (i64, i64) {
    let s3 = ludis_storage::client(&ludis_storage::S3Settings {
        endpoint: env("LUDIS_S3_ENDPOINT"),
        region: "us-east-1".into(),
        access_key: env("LUDIS_S3_ACCESS_KEY"),
        secret_key: env("LUDIS_S3_SECRET_KEY"),
    });
    ludis_storage::usage(&s3, bucket, prefix).await.unwrap()
}

#[tokio::test]
async fn deleting_a_dataset_follows_its_deletion_policy() {
    start_operator().await;
    let client = client().await;
    let api = Ludis::start().await;
    for (policy, kept) in [("Delete", false), ("Retain", true)] {
        let r = api
            .post(
                "/v1/datasets/createdataset",
                json!({"dataset": {"name": format!("{policy} policy"), "description": "Test data",
                    "deletion_policy": policy}}),
            )
            .await;
        assert_eq!(r.0, 201, "{}", r.1);
        let id = r.1["dataset"]["id"].as_str().unwrap().to_owned();
        api.upload(&id, "a/b.csv", b"1").await;
        api.upload(&id, "c.csv", b"22").await;

        // The API applied a Dataset resource carrying the dataset's id, in its organization's
        // namespace, whose annotation names the bucket.
        let datasets: Api<Dataset> = Api::all(client.clone());
        let cr = datasets
            .list(&ListParams::default().labels(&format!("{LABEL_ID}={id}")))
            .await
            .unwrap()
            .items
            .pop()
            .expect("the API applied a Dataset resource");
        let (namespace, name) = (cr.namespace().unwrap(), cr.name_any());
        let ns = Api::<k8s_openapi::api::core::v1::Namespace>::all(client.clone())
            .get(&namespace)
            .await
            .unwrap();
        let bucket = ns.annotations()[ANNOTATION_BUCKET].clone();
        let prefix = ludis_storage::dataset_prefix(&namespace, &id);

        // The operator confirmed its storage (status → the API's watcher → its row), and the
        // files the browser sent are counted (the details call measures again).
        let details = eventually("the operator's status to reach the API", || async {
            let r = api
                .post(&format!("/v1/datasets/getdatasetdetails/{id}"), json!({}))
                .await;
            (r.1["dataset"]["status"] == "ready" && r.1["dataset"]["object_count"] == 2).then_some(r.1)
        })
        .await;
        assert_eq!(details["dataset"]["bytes"], 3, "{policy}");

        let r = api
            .call(reqwest::Method::DELETE, &format!("/v1/datasets/{id}"), None)
            .await;
        assert_eq!(r.0, 200, "{policy}: {}", r.1);
        // The resource goes once the operator's finalizer ran.
        let in_namespace: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
        eventually("the Dataset resource to be deleted", || async {
            in_namespace.get_opt(&name).await.unwrap().is_none().then_some(())
        })
        .await;
        let left = stored(&bucket, &prefix).await;
        assert_eq!(left, if kept { (2, 3) } else { (0, 0) }, "{policy}");
        let r = api
            .post(&format!("/v1/datasets/getdatasetdetails/{id}"), json!({}))
            .await;
        assert_eq!(r.0, 404, "{policy}");
    }
}
