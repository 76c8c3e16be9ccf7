use std::path::PathBuf;

use ludis_api::{
    App, AppState, Settings,
    auth::password,
    db,
    domain::{AccessLevel, AppType, AssetKind, DatasetStatus, DeletionPolicy, InsightStatus, Origin, Role},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

pub struct TestApp {
    pub address: String,
    /// The metrics listener's base URL, when `metrics_listen` was set.
    pub metrics_address: Option<String>,
    pub http: reqwest::Client,
    pub state: AppState,
    /// `sqlite` or `postgres`, for assertion messages.
    pub kind: &'static str,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// Sends a request with an optional bearer token and JSON body; returns status and JSON body
    /// (`Null` when the body is not JSON).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method, self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("the request is sent");
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
    pub async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, Some(token), None).await
    }
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, token, Some(body)).await
    }
    pub async fn put(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }
    pub async fn delete(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(Method::DELETE, path, Some(token), None).await
    }

    /// Creates an organization directly in the database (with default flighting).
    pub async fn org(&self, name: &str, max_seats: i64) -> String {
        let id = db::new_id();
        let slug = name.to_lowercase().replace(' ', "-");
        db::organizations::insert(
            &self.state.db,
            &db::organizations::OrganizationRow {
                id: id.clone(),
                name: name.into(),
                slug,
                admin_email: format!("admin@{}.example", name.to_lowercase().replace(' ', "")),
                description: String::new(),
                tier: "free".into(),
                max_seats,
                bucket_id: None,
                is_2fa_required: false,
                created_at: db::now(),
                idle_minutes: ludis_api::idle::DEFAULT_IDLE_MINUTES,
                allow_always_on: false,
            },
        )
        .await
        .unwrap();
        db::flighting::upsert_all(&self.state.db, &id, &ludis_api::policy::flags::defaults())
            .await
            .unwrap();
        id
    }

    /// Creates a user directly in the database; returns the uid.
    pub async fn user(&self, email: &str, password: &str, role: &str, org: &str) -> String {
        let uid = db::new_id();
        let hash = password::hash(password.into(), self.state.auth.hash)
            .await
            .unwrap();
        db::users::insert(
            &self.state.db,
            &db::users::NewUser {
                uid: &uid,
                email,
                password_hash: &hash,
                first_name: "Test",
                last_name: role,
                role: role.parse::<Role>().unwrap(),
                organization_id: org,
                cluster_id: None,
                timezone: "UTC",
                date_format: "MM/DD/YY",
            },
            db::now(),
        )
        .await
        .unwrap();
        uid
    }

    /// Signs in; returns (access token, refresh token).
    pub async fn login(&self, email: &str, password: &str) -> (String, String) {
        let (status, body) = self
            .post(
                "/v1/auth/login",
                None,
                json!({"user": {"email": email, "password": password}}),
            )
            .await;
        assert_eq!(status, 200, "login of {email} on {}: {body}", self.kind);
        (
            body["token"].as_str().unwrap().to_owned(),
            body["refresh_token"].as_str().unwrap_or_default().to_owned(),
        )
    }

    /// An organization, an administrator and a developer in it: (org, admin token, dev token, admin uid, dev uid).
    pub async fn org_with_admin_and_dev(&self, name: &str) -> Team {
        let org = self.org(name, 10).await;
        let slug = name.to_lowercase().replace(' ', "");
        let admin_email = format!("admin@{slug}.example");
        let dev_email = format!("dev@{slug}.example");
        let admin = self.user(&admin_email, "admin-pass", "administrator", &org).await;
        let dev = self.user(&dev_email, "dev-pass", "developer", &org).await;
        let (admin_token, _) = self.login(&admin_email, "admin-pass").await;
        let (dev_token, _) = self.login(&dev_email, "dev-pass").await;
        Team {
            org,
            admin,
            dev,
            admin_token,
            dev_token,
        }
    }
}

pub struct Team {
    pub org: String,
    pub admin: String,
    pub dev: String,
    pub admin_token: String,
    pub dev_token: String,
}

/// The databases every API test runs on: a fresh SQLite file, and PostgreSQL when configured.
pub fn databases(dir: &tempfile::TempDir) -> Vec<String> {
    let mut urls = vec![format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("ludis.db").display()
    )];
    if let Some(url) = postgres_url() {
        urls.push(url);
    }
    urls
}

fn postgres_url() -> Option<String> {
    match std::env::var("LUDIS_TEST_POSTGRES_URL") {
        Ok(url) => Some(url),
        Err(_) if std::env::var("CI").is_ok() => {
            panic!("LUDIS_TEST_POSTGRES_URL must be set in CI (dev/test.sh)")
        }
        Err(_) => {
            eprintln!("LUDIS_TEST_POSTGRES_URL is not set: PostgreSQL is skipped (dev/test.sh sets it)");
            None
        }
    }
}

/// A new, empty PostgreSQL database on the test server; returns its URL.
async fn fresh_postgres(server: &str) -> String {
    sqlx::any::install_default_drivers();
    let name = format!("ludis_t_{}", uuid::Uuid::new_v4().simple());
    let admin: sqlx::AnyPool = sqlx::pool::PoolOptions::new()
        .max_connections(1)
        .connect(server)
        .await
        .expect("the test PostgreSQL server answers");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (server, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let prefix = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{prefix}/{name}{query}")
}

/// One fresh app per database: SQLite (own file) and PostgreSQL (own database) when configured.
pub async fn apps() -> Vec<TestApp> {
    apps_with(|_| {}).await
}

pub async fn apps_with(tweak: impl Fn(&mut Settings)) -> Vec<TestApp> {
    let mut out = Vec::new();
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display());
    let mut urls = vec![("sqlite", sqlite)];
    if let Some(server) = postgres_url() {
        urls.push(("postgres", fresh_postgres(&server).await));
    }
    drop(dir);
    for (kind, url) in urls {
        let mut app = spawn_app_with(|dir| {
            let url = if kind == "sqlite" {
                format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display())
            } else {
                url.clone()
            };
            let mut s = Settings::for_tests(url, missing_dir());
            s.secrets_file = dir.path().join("secrets.env");
            // Spreadsheet previews run in a child process of the server's binary (this test
            // binary is not one).
            s.preview_worker = env!("CARGO_BIN_EXE_ludis-api").into();
            tweak(&mut s);
            s
        })
        .await;
        app.kind = kind;
        ensure_crds(&app.state).await;
        out.push(app);
    }
    out
}

/// With a configured cluster, our CRDs are installed once per test run (the API applies Insight
/// resources when insights are created). Installing is idempotent, so a race only repeats it.
pub async fn ensure_crds(state: &AppState) {
    use kube::{
        Api, ResourceExt as _,
        api::{Patch, PatchParams},
    };
    use std::sync::atomic::{AtomicBool, Ordering};
    static DONE: AtomicBool = AtomicBool::new(false);
    let Some(client) = state.kube.clone() else { return };
    if DONE.load(Ordering::Acquire) {
        return;
    }
    let crds: Api<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    > = Api::all(client.clone());
    for crd in ludis_crds::all_crds() {
        crds.patch(
            &crd.name_any(),
            &PatchParams::apply("ludis-api-tests").force(),
            &Patch::Apply(&crd),
        )
        .await
        .expect("the CRDs are installed");
    }
    let insights: Api<ludis_crds::Insight> = Api::all(client);
    for _ in 0..50 {
        if insights.list(&Default::default()).await.is_ok() {
            DONE.store(true, Ordering::Release);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("the Insight CRD is not served");
}

pub async fn spawn_app_with(settings_for: impl FnOnce(&tempfile::TempDir) -> Settings) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings_for(&dir);
    if settings.data_dir.is_relative() {
        // Project repositories in the test's own folder.
        settings.data_dir = dir.path().join("data");
    }
    let app = App::build(settings).await.expect("the app builds");
    let address = format!("http://{}", app.local_addr());
    let metrics_address = app.metrics_addr().map(|a| format!("http://{a}"));
    let state = app.state().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        metrics_address,
        http: reqwest::Client::new(),
        state,
        kind: "sqlite",
        _dir: dir,
    }
}

/// An app on the given database with a built console of one page in a temporary folder.
pub async fn spawn_app(database_url: String) -> TestApp {
    spawn_app_with(|dir| {
        let console = dir.path().join("console");
        std::fs::create_dir_all(console.join("assets")).unwrap();
        std::fs::write(
            console.join("index.html"),
            "<!doctype html><title>Ludis</title><div id=root></div>",
        )
        .unwrap();
        std::fs::write(console.join("assets/app.js"), "console.log('ludis')").unwrap();
        Settings::for_tests(database_url, console)
    })
    .await
}

pub fn missing_dir() -> PathBuf {
    PathBuf::from("/nonexistent/ludis-console")
}

/// The body of `POST /v1/auth/login`.
pub fn login_body(email: &str, password: &str) -> Value {
    json!({"user": {"email": email, "password": password}})
}

/// The TOTP code of a base32 secret at a unix time.
pub fn totp_code(secret_b32: &str, at: i64) -> String {
    ludis_api::auth::totp::code_at(secret_b32, at).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Assets (issue 5): people, insights and shares made directly in the database, for the insights,
// sharing, comments and authorization-matrix tests.

/// A name made unique per call (organization names become namespace slugs, which a configured
/// cluster shares between tests).
pub fn unique(name: &str) -> String {
    format!("{name} {}", &uuid::Uuid::new_v4().simple().to_string()[..8])
}

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct Person {
    pub uid: String,
    pub email: String,
    pub token: String,
    pub org: String,
}

/// What [`TestApp::insight`] inserts.
#[derive(Clone, Debug)]
pub struct InsightSeed {
    pub name: String,
    pub description: String,
    pub app_type: AppType,
    pub status: InsightStatus,
    pub container_name: Option<String>,
    pub app_url: Option<String>,
    pub template: Option<String>,
    pub report_object: Option<String>,
    pub origin: Origin,
    pub created_at: i64,
}

impl InsightSeed {
    /// A running cluster application.
    pub fn app(name: &str) -> Self {
        Self {
            name: name.into(),
            description: format!("{name} description"),
            app_type: AppType::Application,
            status: InsightStatus::Running,
            container_name: Some(format!("{}-c", name.to_lowercase().replace(' ', "-"))),
            app_url: None,
            template: None,
            report_object: None,
            origin: Origin::Api,
            created_at: db::now(),
        }
    }
    pub fn external(name: &str) -> Self {
        Self {
            status: InsightStatus::External,
            container_name: None,
            app_url: Some("https://example.com/app".into()),
            ..Self::app(name)
        }
    }
    pub fn report(name: &str) -> Self {
        Self {
            app_type: AppType::Report,
            status: InsightStatus::Rendered,
            container_name: None,
            ..Self::app(name)
        }
    }
    pub fn user_report(name: &str) -> Self {
        Self {
            app_type: AppType::UserReport,
            status: InsightStatus::Uploaded,
            container_name: None,
            report_object: Some(format!("reports/{}/r.pdf", db::new_id())),
            ..Self::app(name)
        }
    }
    pub fn at(mut self, created_at: i64) -> Self {
        self.created_at = created_at;
        self
    }
    pub fn managed(mut self) -> Self {
        self.origin = Origin::Resource;
        self
    }
}

impl TestApp {
    /// A user of `org` with `role`, signed in.
    pub async fn person(&self, org: &str, role: &str, name: &str) -> Person {
        let email = format!(
            "{}-{}@people.example",
            name.to_lowercase().replace(' ', "-"),
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        );
        let uid = self.user(&email, "pass-word", role, org).await;
        let (token, _) = self.login(&email, "pass-word").await;
        Person {
            uid,
            email,
            token,
            org: org.into(),
        }
    }

    /// An organization with a unique name (and namespace slug).
    pub async fn unique_org(&self, name: &str) -> String {
        self.org(&unique(name), 1000).await
    }

    /// An insight inserted directly (no custom resource); returns its id.
    pub async fn insight(&self, org: &str, owner: Option<&str>, seed: InsightSeed) -> String {
        let id = db::new_id();
        let asset = db::assets::AssetRow {
            owner_uid: owner.map(str::to_owned),
            description: seed.description,
            origin: seed.origin,
            ..db::assets::AssetRow::new(
                AssetKind::Insight,
                id.clone(),
                org.into(),
                seed.name,
                seed.created_at,
            )
        };
        let details = db::insights::InsightRow {
            id: id.clone(),
            app_type: seed.app_type,
            status: seed.status,
            app_url: seed.app_url,
            container_name: seed.container_name,
            is_template: seed.template.is_some(),
            template: seed.template.map(|t| t.parse().unwrap()),
            report_object: seed.report_object,
            ..Default::default()
        };
        db::details::insert(&self.state.db, &db::insights::Insight { asset, details })
            .await
            .unwrap();
        id
    }

    /// An asset of another kind (project, dataset, workflow), inserted directly, named like its
    /// resource would be (`<name>-<id prefix>`); returns its id.
    pub async fn asset(&self, kind: AssetKind, org: &str, owner: Option<&str>, name: &str) -> String {
        let id = db::new_id();
        let now = db::now();
        let resource = format!(
            "{}-{}",
            name.to_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>(),
            &id[..8]
        );
        db::assets::insert(
            &self.state.db,
            &db::assets::AssetRow {
                owner_uid: owner.map(str::to_owned),
                resource_name: Some(resource),
                ..db::assets::AssetRow::new(kind, id.clone(), org.into(), name.into(), now)
            },
        )
        .await
        .unwrap();
        id
    }

    /// A dataset inserted directly (both rows, no resource), its folder in the test bucket;
    /// returns its id.
    pub async fn dataset(&self, org: &str, owner: Option<&str>, name: &str) -> String {
        let id = db::new_id();
        let now = db::now();
        db::details::insert(
            &self.state.db,
            &db::datasets::Dataset {
                asset: db::assets::AssetRow {
                    owner_uid: owner.map(str::to_owned),
                    ..db::assets::AssetRow::new(AssetKind::Dataset, id.clone(), org.into(), name.into(), now)
                },
                details: db::datasets::DatasetRow {
                    id: id.clone(),
                    bucket: self.state.settings.s3_bucket.clone(),
                    prefix: ludis_storage::dataset_prefix("ludis-test", &id),
                    deletion_policy: DeletionPolicy::Retain,
                    status: DatasetStatus::Ready,
                    ..Default::default()
                },
            },
        )
        .await
        .unwrap();
        id
    }

    /// A project made through the API by `owner` (a repository hosted by Ludis); returns its id.
    pub async fn project(&self, owner: &Person, name: &str) -> String {
        let (status, body) = self
            .post(
                "/v2/projects",
                Some(&owner.token),
                json!({"project": {"name": name, "description": "A test project", "language": "python"}}),
            )
            .await;
        assert_eq!(status, 201, "create project on {}: {body}", self.kind);
        body["project"]["id"].as_str().unwrap().to_owned()
    }

    /// A workflow of `project` made through the API by `owner` (visual, or written as a DAG
    /// file); returns its id.
    pub async fn workflow(&self, owner: &Person, project: &str, name: &str, visual: bool) -> String {
        let (status, body) = self
            .post(
                "/v2/workflows",
                Some(&owner.token),
                json!({"project_id": project, "name": name, "visual_workflow": visual}),
            )
            .await;
        assert_eq!(status, 201, "create workflow on {}: {body}", self.kind);
        body["workflow"]["id"].as_str().unwrap().to_owned()
    }

    /// [`TestApp::project`] with `files` committed to it (each holding its own name).
    pub async fn project_with_files(&self, owner: &Person, name: &str, files: &[&str]) -> String {
        use base64::Engine as _;
        let id = self.project(owner, name).await;
        for f in files {
            let (status, body) = self
                .post(
                    "/v2/projects/commitfile",
                    Some(&owner.token),
                    json!({"project": id, "filePath": f, "message": format!("Add {f}"),
                           "contents": base64::engine::general_purpose::STANDARD.encode(f)}),
                )
                .await;
            assert_eq!(status, 200, "commit {f} on {}: {body}", self.kind);
        }
        id
    }

    /// A console share entry (as if made in the console).
    pub async fn share(&self, asset: &str, to_type: &str, to_id: &str, level: &str, from: &str) {
        let level = AccessLevel::parse(level).unwrap();
        db::shares::apply_console(
            &self.state.db,
            asset,
            &[db::shares::Entry {
                to_type: to_type.parse().unwrap(),
                to_id,
                level,
            }],
            &[],
            from,
            db::now(),
        )
        .await
        .unwrap();
    }

    /// Replaces the resource (spec.sharing) entries of an asset.
    pub async fn resource_shares(&self, asset: &str, entries: &[(&str, &str, &str)]) {
        let entries: Vec<db::shares::Entry<'_>> = entries
            .iter()
            .map(|(to_type, to_id, level)| db::shares::Entry {
                to_type: to_type.parse().unwrap(),
                to_id,
                level: AccessLevel::parse(level).unwrap(),
            })
            .collect();
        let mut tx = self.state.db.begin().await.unwrap();
        db::shares::replace_resource(&mut tx, asset, &entries, db::now())
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
}

/// Settings for an app with the test S3 server (`LUDIS_S3_ENDPOINT`, started by the test command),
/// or `None` when it is not configured (a CI run requires it).
pub fn s3_settings() -> Option<impl Fn(&mut Settings) + Clone> {
    let Ok(endpoint) = std::env::var("LUDIS_S3_ENDPOINT") else {
        assert!(
            std::env::var("CI").is_err(),
            "LUDIS_S3_ENDPOINT must be set in CI"
        );
        eprintln!("LUDIS_S3_ENDPOINT is not set: the object-storage parts are skipped");
        return None;
    };
    Some(move |s: &mut Settings| {
        s.s3_endpoint = endpoint.clone();
        s.s3_access_key = std::env::var("LUDIS_S3_ACCESS_KEY").unwrap_or_default();
        s.s3_secret_key = ludis_api::Secret(std::env::var("LUDIS_S3_SECRET_KEY").unwrap_or_default());
        s.s3_bucket = "ludis-test-assets".into();
    })
}

/// One part of a multipart form: `(name, file name, bytes)`.
pub type Part<'a> = (&'a str, Option<&'a str>, &'a [u8]);

/// A multipart/form-data body: `(content type, bytes)`.
pub fn multipart(parts: &[Part<'_>]) -> (String, Vec<u8>) {
    let boundary = format!("ludis-{}", uuid::Uuid::new_v4().simple());
    let mut body = Vec::new();
    for (name, file_name, bytes) in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file_name {
            Some(f) => body.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => body
                .extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

impl TestApp {
    /// Sends a multipart form.
    pub async fn post_form(&self, path: &str, token: &str, parts: &[Part<'_>]) -> (StatusCode, Value) {
        let (content_type, body) = multipart(parts);
        let res = self
            .http
            .post(self.url(path))
            .bearer_auth(token)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("the request is sent");
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

/// A client of the test cluster with the CRDs installed, or None (skipped) without KUBECONFIG.
pub async fn cluster() -> Option<kube::Client> {
    if std::env::var_os("KUBECONFIG").is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "KUBECONFIG must be set in CI (dev/test.sh)"
        );
        eprintln!("KUBECONFIG is not set: the cluster tests are skipped (dev/test.sh sets it)");
        return None;
    }
    use kube::{
        Api, ResourceExt as _,
        api::{Patch, PatchParams},
    };
    // rustls links ring and aws-lc-rs (see App::build): kube's TLS takes ring.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = kube::Client::try_default()
        .await
        .expect("KUBECONFIG names a reachable cluster");
    let crds: Api<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    > = Api::all(client.clone());
    for crd in ludis_crds::all_crds() {
        crds.patch(
            &crd.name_any(),
            &PatchParams::apply("ludis-api-tests").force(),
            &Patch::Apply(&crd),
        )
        .await
        .unwrap();
    }
    // Wait until the kinds are served.
    for _ in 0..50 {
        let insights: Api<ludis_crds::Insight> = Api::namespaced(client.clone(), "default");
        let datasets: Api<ludis_crds::Dataset> = Api::namespaced(client.clone(), "default");
        if insights.list(&Default::default()).await.is_ok()
            && datasets.list(&Default::default()).await.is_ok()
        {
            return Some(client);
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("the Ludis CRDs are not served");
}

/// A websocket of the API's streams (`ludis.v1`).
pub type StreamSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens one of the API's websockets (`path_and_query` from the root) as the console does — the
/// token in `Sec-WebSocket-Protocol: ludis.v1, bearer.<token>` — with an `Origin` or none; the
/// socket (whose answer named `ludis.v1`), or the HTTP status that refused the upgrade.
pub async fn open_stream(
    app: &TestApp,
    path_and_query: &str,
    who: Option<&Person>,
    origin: Option<&str>,
) -> Result<StreamSocket, reqwest::StatusCode> {
    use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest as _};
    let url = format!("{}{path_and_query}", app.address.replace("http://", "ws://"));
    let mut request = url.as_str().into_client_request().unwrap();
    let protocols = match who {
        Some(p) => format!("ludis.v1, bearer.{}", p.token),
        None => "ludis.v1".to_owned(),
    };
    request
        .headers_mut()
        .insert("sec-websocket-protocol", protocols.parse().unwrap());
    if let Some(o) = origin {
        request.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, response)) => {
            assert_eq!(response.headers()["sec-websocket-protocol"], "ludis.v1");
            Ok(socket)
        }
        Err(tungstenite::Error::Http(res)) => {
            Err(reqwest::StatusCode::from_u16(res.status().as_u16()).unwrap())
        }
        Err(e) => panic!("{path_and_query}: {e}"),
    }
}
