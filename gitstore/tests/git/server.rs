//! The smart-HTTP server with the real `git` command line and a plain HTTP client.

use std::io::Write;
use std::time::Duration;

use ludis_git::{ProjectRepo, RepoPath};
use reqwest::StatusCode;
use uuid::Uuid;

use crate::support::{
    NAMESPACE, READER_TOKEN, STRANGER_TOKEN, TestServer, WRITER_TOKEN, git, git_ok, push_file, stderr,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clone_with_the_right_credentials_gets_the_first_commit() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let dir = tempfile::tempdir().unwrap();
    git_ok(
        dir.path(),
        &["clone", "-q", &server.url_as(&id, "reader", READER_TOKEN), "."],
    )
    .await;
    let starter = std::fs::read_to_string(dir.path().join("main.py")).unwrap();
    assert!(starter.contains("print(\"Hello from Ludis\")"), "{starter}");
    assert!(
        std::fs::read_to_string(dir.path().join("README.md"))
            .unwrap()
            .starts_with("# Sales\n")
    );
    let log = git_ok(dir.path(), &["log", "--format=%an <%ae> %s", "main"]).await;
    assert_eq!(log, "Ada Lovelace <ada@example.org> Create project\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clone_with_a_wrong_token_is_refused_clearly() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let dir = tempfile::tempdir().unwrap();
    let output = git(
        dir.path(),
        &["clone", &server.url_as(&id, "reader", "wrong-token"), "."],
    )
    .await;
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("Authentication failed"), "{message}");
    assert!(!dir.path().join("main.py").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_pushes_and_a_reader_is_refused() {
    let server = TestServer::start().await;
    let id = server.project().await;

    let writer = server.clone_repo(&id).await;
    push_file(writer.path(), "notes/plan.md", "# Plan\n").await;
    let read = server
        .store
        .read(
            &ProjectRepo::hosted(id.clone()),
            &RepoPath::file("notes/plan.md").unwrap(),
        )
        .await;
    assert_eq!(read.unwrap().bytes, b"# Plan\n");

    let reader = tempfile::tempdir().unwrap();
    git_ok(
        reader.path(),
        &["clone", "-q", &server.url_as(&id, "reader", READER_TOKEN), "."],
    )
    .await;
    std::fs::write(reader.path().join("main.py"), "print('mine')\n").unwrap();
    git_ok(reader.path(), &["commit", "-q", "-am", "Reader's change"]).await;
    let output = git(reader.path(), &["push", "origin", "HEAD:main"]).await;
    assert!(!output.status.success());
    assert!(stderr(&output).contains("403"), "{}", stderr(&output));

    let head = git_ok(writer.path(), &["ls-remote", "origin", "refs/heads/main"]).await;
    let pushed = git_ok(writer.path(), &["rev-parse", "HEAD"]).await;
    assert_eq!(
        head.split_whitespace().next(),
        Some(pushed.trim()),
        "the reader's push changed nothing"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_is_never_rewritten_or_deleted_by_a_push() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let clone = server.clone_repo(&id).await;
    git_ok(clone.path(), &["commit", "-q", "--amend", "-m", "Rewritten"]).await;
    let forced = git(clone.path(), &["push", "--force", "origin", "HEAD:main"]).await;
    assert!(!forced.status.success(), "a forced push went through");
    let deleted = git(clone.path(), &["push", "origin", ":main"]).await;
    assert!(!deleted.status.success(), "deleting the branch went through");
}

/// The answers of the server before `http-backend` runs: what is served, to whom.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_smart_http_is_served_and_only_to_those_with_access() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let client = reqwest::Client::new();
    let advertise = format!("{}/info/refs?service=git-upload-pack", server.url(&id));
    let get = |url: String, user: Option<(&'static str, &'static str)>| {
        let request = client.get(url);
        let request = match user {
            Some((name, token)) => request.basic_auth(name, Some(token)),
            None => request,
        };
        async move { request.send().await.unwrap() }
    };

    let anonymous = get(advertise.clone(), None).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert!(
        anonymous.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Basic ")
    );
    assert_eq!(
        get(advertise.clone(), Some(("reader", "wrong"))).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        get(advertise.clone(), Some(("stranger", STRANGER_TOKEN)))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );

    let served = get(advertise.clone(), Some(("reader", READER_TOKEN))).await;
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(
        served.headers()["content-type"],
        "application/x-git-upload-pack-advertisement"
    );
    assert!(served.text().await.unwrap().contains("refs/heads/main"));

    let push_advertise = format!("{}/info/refs?service=git-receive-pack", server.url(&id));
    assert_eq!(
        get(push_advertise.clone(), Some(("reader", READER_TOKEN)))
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        get(push_advertise, Some(("writer", WRITER_TOKEN))).await.status(),
        StatusCode::OK
    );

    let unknown = format!(
        "{}/{NAMESPACE}/{}.git/info/refs?service=git-upload-pack",
        server.base,
        Uuid::new_v4()
    );
    assert_eq!(
        get(unknown, Some(("writer", WRITER_TOKEN))).await.status(),
        StatusCode::NOT_FOUND
    );

    let repo = server.url(&id);
    let project = id.project();
    let refused = [
        format!("{repo}/info/refs"),
        format!("{repo}/info/refs?service=git-upload-archive"),
        format!("{repo}/info/refs?service=git-upload-pack&x=1"),
        format!("{repo}/HEAD"),
        format!("{repo}/config"),
        format!("{repo}/objects/info/packs"),
        format!("{repo}/refs/heads/main"),
        format!(
            "{}/{NAMESPACE}/{project}/info/refs?service=git-upload-pack",
            server.base
        ),
        format!(
            "{}/{NAMESPACE}/{}.git/info/refs?service=git-upload-pack",
            server.base,
            project.to_string().to_uppercase()
        ),
        format!(
            "{}/{NAMESPACE}/..%2f{project}.git/info/refs?service=git-upload-pack",
            server.base
        ),
        format!(
            "{}/Ludis-Acme/{project}.git/info/refs?service=git-upload-pack",
            server.base
        ),
        format!(
            "{}/{NAMESPACE}/x/{project}.git/info/refs?service=git-upload-pack",
            server.base
        ),
    ];
    for url in refused {
        let response = get(url.clone(), Some(("writer", WRITER_TOKEN))).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{url}");
    }
    let wrong_method = client
        .get(format!("{repo}/git-upload-pack"))
        .basic_auth("writer", Some(WRITER_TOKEN));
    assert_eq!(wrong_method.send().await.unwrap().status(), StatusCode::NOT_FOUND);
    let unknown_service = client
        .post(format!("{repo}/git-upload-archive"))
        .basic_auth("writer", Some(WRITER_TOKEN));
    assert_eq!(
        unknown_service.send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
}

/// git gzips large requests; the server hands them to http-backend encoded, with the header.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gzip_encoded_request_is_served() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let clone = server.clone_repo(&id).await;
    let head = git_ok(clone.path(), &["rev-parse", "HEAD"]).await;

    // A protocol v0 upload-pack request: want the head, done.
    let want = format!("want {}\n", head.trim());
    let request = format!("{:04x}{want}00000009done\n", want.len() + 4);
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(request.as_bytes()).unwrap();
    let body = encoder.finish().unwrap();

    let response = reqwest::Client::new()
        .post(format!("{}/git-upload-pack", server.url(&id)))
        .basic_auth("reader", Some(READER_TOKEN))
        .header("content-type", "application/x-git-upload-pack-request")
        .header("content-encoding", "gzip")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/x-git-upload-pack-result"
    );
    let bytes = response.bytes().await.unwrap();
    assert!(
        bytes.starts_with(b"0008NAK\n"),
        "{:?}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(64)])
    );
    assert!(bytes.windows(4).any(|window| window == b"PACK"));
}

/// Deterministic bytes that do not compress, so a push is as large as its content.
fn noise(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

/// Pushes over the limit are refused whether git announces the size (a small push) or streams
/// it in chunks (over git's 1 MiB post buffer), and nothing of them lands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_over_the_limit_is_refused() {
    for (limit, size) in [(16 * 1024, 64 * 1024), (512 * 1024, 3 * 1024 * 1024)] {
        let server = TestServer::start_with(limit, Duration::from_secs(3600)).await;
        let id = server.project().await;
        let clone = server.clone_repo(&id).await;
        let before = git_ok(clone.path(), &["rev-parse", "HEAD"]).await;
        std::fs::write(clone.path().join("data.bin"), noise(size)).unwrap();
        git_ok(clone.path(), &["add", "data.bin"]).await;
        git_ok(clone.path(), &["commit", "-q", "-m", "Big data"]).await;
        let output = git(clone.path(), &["push", "origin", "HEAD:main"]).await;
        assert!(
            !output.status.success(),
            "a {size}-byte push went through a {limit}-byte limit"
        );
        // The server answers 413 and closes. A push streamed in chunks may still be sending
        // then: git reads the 413, or only sees the connection end (a broken pipe). Either way
        // the push is refused and nothing lands.
        let said = stderr(&output);
        assert!(
            said.contains("413") || said.contains("Broken pipe") || said.contains("remote end hung up"),
            "{said}"
        );
        let remote = git_ok(clone.path(), &["ls-remote", "origin", "refs/heads/main"]).await;
        assert_eq!(remote.split_whitespace().next(), Some(before.trim()));
    }
}
