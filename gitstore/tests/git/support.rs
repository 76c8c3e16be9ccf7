//! A real git server for the tests: the crate's smart-HTTP router on 127.0.0.1, port 0, with
//! Basic authentication for three users, and helpers around the `git` command line.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use axum::Router;
use ludis_git::server::{self, Access, Authorize, BasicCredentials, ServerConfig};
use ludis_git::{
    Author, BranchName, CommitMessage, Expected, External, FileCommit, GitCredentials, GitStore, Language,
    NewRepository, Outbound, ProjectRepo, RemoteUrl, RepoId, RepoPath, StoreConfig, UrlPolicy,
};
use tempfile::TempDir;
use uuid::Uuid;

pub const WRITER_TOKEN: &str = "writer-token-5d1f";
pub const READER_TOKEN: &str = "reader-token-93ab";
pub const STRANGER_TOKEN: &str = "stranger-token-77c0";
pub const MIRROR_TOKEN: &str = "mirror-token-c41e";
pub const NAMESPACE: &str = "ludis-acme";

/// `writer` may push, `reader` may fetch, `mirror` may fetch the mirror of an external remote,
/// `stranger` sees nothing; anything else is not signed in.
pub struct Users;

impl Authorize for Users {
    async fn authorize(&self, credentials: &BasicCredentials, _repo: &RepoId) -> Access {
        match (credentials.username.as_str(), credentials.password.as_str()) {
            ("writer", WRITER_TOKEN) => Access::Write,
            ("reader", READER_TOKEN) => Access::Read,
            ("mirror", MIRROR_TOKEN) => Access::ReadMirror,
            ("stranger", STRANGER_TOKEN) => Access::None,
            _ => Access::Unauthenticated,
        }
    }
}

pub struct TestServer {
    /// `http://127.0.0.1:<port>/git`
    pub base: String,
    pub store: GitStore,
    /// Holds the repositories and caches until the test ends.
    _dir: TempDir,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(server::DEFAULT_MAX_PUSH_BYTES, Duration::from_secs(3600)).await
    }

    /// A server whose pushes are limited to `max_push_bytes`, and a store whose external caches
    /// stay fresh for `freshness` (an hour: only a rejected push makes it fetch again; zero:
    /// every operation fetches first).
    pub async fn start_with(max_push_bytes: u64, freshness: Duration) -> Self {
        Self::start_configured(max_push_bytes, freshness, Outbound::default()).await
    }

    /// A server whose store fetches every time, within `limits` (its URL rule allows loopback).
    pub async fn start_limited(limits: Outbound) -> Self {
        Self::start_configured(server::DEFAULT_MAX_PUSH_BYTES, Duration::ZERO, limits).await
    }

    async fn start_configured(max_push_bytes: u64, freshness: Duration, outbound: Outbound) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let config = StoreConfig {
            hosted_root: dir.path().join("hosted"),
            cache_root: dir.path().join("cache"),
            fetch_freshness: freshness,
            outbound: Outbound {
                policy: UrlPolicy::AllowHttpOnLoopback,
                ..outbound
            },
        };
        std::fs::create_dir_all(&config.hosted_root).unwrap();
        let server_config = ServerConfig {
            max_push_bytes,
            mirror_root: Some(config.cache_root.clone()),
            ..ServerConfig::new(&config.hosted_root)
        };
        let app: Router = Router::new().nest("/git", server::router(server_config, Users));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        TestServer {
            base: format!("http://{address}/git"),
            store: GitStore::new(config),
            _dir: dir,
        }
    }

    /// A hosted Python project with its first commit.
    pub async fn project(&self) -> RepoId {
        let id = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
        let new = NewRepository {
            name: "Sales".into(),
            language: Language::Python,
            author: author(),
        };
        self.store.create_hosted(&id, new).await.unwrap();
        id
    }

    /// The repository's URL without credentials.
    pub fn url(&self, id: &RepoId) -> String {
        format!("{}/{}/{}.git", self.base, id.namespace(), id.project())
    }

    /// The repository's URL with `user:token@`, for the git command line.
    pub fn url_as(&self, id: &RepoId, user: &str, token: &str) -> String {
        self.url(id)
            .replacen("http://", &format!("http://{user}:{token}@"), 1)
    }

    pub fn hosted_path(&self, id: &RepoId) -> PathBuf {
        self.store
            .config()
            .hosted_root
            .join(id.namespace())
            .join(format!("{}.git", id.project()))
    }

    /// The same repository reached as an external remote with `user`'s token.
    pub fn external(&self, remote: &RepoId, user: &str, token: &str) -> ProjectRepo {
        let url = RemoteUrl::parse(&self.url(remote), UrlPolicy::AllowHttpOnLoopback).unwrap();
        let credentials = GitCredentials::new(user, token).unwrap();
        // The cache belongs to another project id: the external path never touches the hosted
        // repository on disk, only the server.
        let id = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
        ProjectRepo::external(id, BranchName::main(), External { url, credentials })
    }

    /// A fresh clone as the writer.
    pub async fn clone_repo(&self, id: &RepoId) -> TempDir {
        let dir = tempfile::tempdir().unwrap();
        let output = git(
            dir.path(),
            &["clone", &self.url_as(id, "writer", WRITER_TOKEN), "."],
        )
        .await;
        assert!(output.status.success(), "clone failed: {}", stderr(&output));
        dir
    }
}

pub fn author() -> Author {
    Author::new("Ada Lovelace", "ada@example.org").unwrap()
}

pub fn message(text: &str) -> CommitMessage {
    CommitMessage::new(text).unwrap()
}

/// Writes `content` to `path` as Ada, on the version `expected`.
pub fn put(path: &str, content: &str, expected: Expected) -> FileCommit {
    FileCommit {
        path: RepoPath::file(path).unwrap(),
        content: content.as_bytes().to_vec(),
        expected,
        message: message(&format!("Write {path}")),
        author: author(),
    }
}

/// A file of a clone, as text.
pub fn file_text(clone: &Path, path: &str) -> String {
    std::fs::read_to_string(clone.join(path)).unwrap()
}

/// Runs the `git` command line in `dir` with no user or system configuration and no prompts.
pub async fn git(dir: &Path, args: &[&str]) -> Output {
    tokio::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "Grace Hopper")
        .env("GIT_AUTHOR_EMAIL", "grace@example.org")
        .env("GIT_COMMITTER_NAME", "Grace Hopper")
        .env("GIT_COMMITTER_EMAIL", "grace@example.org")
        .env("LC_ALL", "C")
        .output()
        .await
        .unwrap()
}

/// Runs `git` and asserts it succeeded; answers its standard output.
pub async fn git_ok(dir: &Path, args: &[&str]) -> String {
    let output = git(dir, args).await;
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        stderr(&output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Writes `content` to `path` in a clone, commits and pushes it as the writer.
pub async fn push_file(clone: &Path, path: &str, content: &str) {
    let file = clone.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, content).unwrap();
    git_ok(clone, &["add", path]).await;
    git_ok(clone, &["commit", "-q", "-m", &format!("Change {path}")]).await;
    git_ok(clone, &["push", "-q", "origin", "HEAD:main"]).await;
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
