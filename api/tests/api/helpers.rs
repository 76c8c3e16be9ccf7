use std::path::PathBuf;

use ludis_api::{App, AppState, Settings, auth::password, db};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

pub struct TestApp {
    pub address: String,
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
                role,
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
            tweak(&mut s);
            s
        })
        .await;
        app.kind = kind;
        out.push(app);
    }
    out
}

pub async fn spawn_app_with(settings_for: impl FnOnce(&tempfile::TempDir) -> Settings) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let settings = settings_for(&dir);
    let app = App::build(settings).await.expect("the app builds");
    let address = format!("http://{}", app.local_addr());
    let state = app.state().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
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

/// The TOTP code of a base32 secret at a unix time.
pub fn totp_code(secret_b32: &str, at: i64) -> String {
    let secret = ludis_api::auth::totp::base32_decode(secret_b32).unwrap();
    ludis_api::auth::totp::code_at(&secret, at)
}
