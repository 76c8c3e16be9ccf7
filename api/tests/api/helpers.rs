use std::path::PathBuf;

use ludis_api::{App, Settings};

pub struct TestApp {
    pub address: String,
    pub http: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }
}

/// The databases every API test runs on: a fresh SQLite file, and PostgreSQL when configured.
pub fn databases(dir: &tempfile::TempDir) -> Vec<String> {
    let mut urls = vec![format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("ludis.db").display()
    )];
    match std::env::var("LUDIS_TEST_POSTGRES_URL") {
        Ok(url) => urls.push(url),
        Err(_) if std::env::var("CI").is_ok() => {
            panic!("LUDIS_TEST_POSTGRES_URL must be set in CI (dev/test.sh)")
        }
        Err(_) => {
            eprintln!("LUDIS_TEST_POSTGRES_URL is not set: PostgreSQL is skipped (dev/test.sh sets it)")
        }
    }
    urls
}

pub async fn spawn_app_with(settings_for: impl FnOnce(&tempfile::TempDir) -> Settings) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let settings = settings_for(&dir);
    let app = App::build(settings).await.expect("the app builds");
    let address = format!("http://{}", app.local_addr());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        http: reqwest::Client::new(),
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
