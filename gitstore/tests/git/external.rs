//! The external path pointed at the test server as its remote: a real git server over HTTP with
//! Basic authentication, reached with a user's token through the crate's local cache.

use std::time::Duration;

use ludis_git::{
    BranchName, Error, ErrorKind, Expected, External, GitCredentials, Location, ProjectRepo, RemoteUrl,
    RepoId, RepoPath, Served, UrlPolicy,
};
use uuid::Uuid;

use crate::support::{
    MIRROR_TOKEN, NAMESPACE, READER_TOKEN, TestServer, WRITER_TOKEN, file_text, git, git_ok, push_file, put,
    stderr,
};

fn external_of(repo: &ProjectRepo) -> &External {
    match &repo.location {
        Location::External(external) => external,
        Location::Hosted => unreachable!("an external project"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_through_the_crate_appears_in_a_fresh_clone() {
    let server = TestServer::start().await;
    let remote = server.project().await;
    let repo = server.external(&remote, "writer", WRITER_TOKEN);

    let listing = server.store.list(&repo, &RepoPath::root()).await.unwrap();
    let names: Vec<_> = listing.entries.iter().map(|entry| entry.name.as_str()).collect();
    assert_eq!(names, ["README.md", "main.py"]);
    let committed = server
        .store
        .commit_file(&repo, put("analysis/model.py", "fit()\n", Expected::Absent))
        .await
        .unwrap();

    let clone = server.clone_repo(&remote).await;
    assert_eq!(file_text(clone.path(), "analysis/model.py"), "fit()\n");
    assert_eq!(
        git_ok(clone.path(), &["rev-parse", "HEAD"]).await.trim(),
        committed.commit.as_str()
    );
    let log = git_ok(clone.path(), &["log", "-1", "--format=%an <%ae> %s"]).await;
    assert_eq!(log, "Ada Lovelace <ada@example.org> Write analysis/model.py\n");

    // The cache answers what it pushed without fetching again.
    let read = server
        .store
        .read(&repo, &RepoPath::file("analysis/model.py").unwrap())
        .await
        .unwrap();
    assert_eq!(read.sha, committed.blob.unwrap());
    let branch = server
        .store
        .remote_default_branch(&repo.id, external_of(&repo))
        .await
        .unwrap();
    assert_eq!(branch, Some(BranchName::main()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_a_clear_error_without_the_token() {
    let server = TestServer::start().await;
    let remote = server.project().await;
    let token = "wrong-token-0f9e8d";
    let repo = server.external(&remote, "writer", token);

    let errors = [
        server.store.list(&repo, &RepoPath::root()).await.unwrap_err(),
        server
            .store
            .commit_file(&repo, put("x.py", "x", Expected::Absent))
            .await
            .unwrap_err(),
        server
            .store
            .remote_default_branch(&repo.id, external_of(&repo))
            .await
            .unwrap_err(),
    ];
    for error in errors {
        assert!(matches!(error, Error::RemoteAuth), "{error:?}");
        assert_eq!(error.kind(), ErrorKind::RemoteCredentials);
        assert_eq!(
            error.to_string(),
            "The git server refused the username or token; check your git username and personal access token"
        );
        assert!(!format!("{error:?}").contains(token));
    }
    assert!(!format!("{repo:?}").contains(token));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_that_may_only_read_cannot_commit() {
    let server = TestServer::start().await;
    let remote = server.project().await;
    let repo = server.external(&remote, "reader", READER_TOKEN);
    assert_eq!(
        server
            .store
            .list(&repo, &RepoPath::root())
            .await
            .unwrap()
            .entries
            .len(),
        2
    );
    let error = server
        .store
        .commit_file(&repo, put("x.py", "x", Expected::Absent))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::RemoteForbidden { .. }), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("Your git token is not allowed to do this on 127.0.0.1:"),
        "{error}"
    );
}

/// Someone pushes with git between the user's load and commit. With a cache that is still fresh
/// the push is rejected and the crate fetches; with no freshness window it fetches first. Either
/// way a change to the same file is refused and a change to another file is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_commit_is_refused_and_a_change_beside_another_is_kept() {
    for freshness in [Duration::from_secs(3600), Duration::ZERO] {
        let server = TestServer::start_with(ludis_git::server::DEFAULT_MAX_PUSH_BYTES, freshness).await;
        let remote = server.project().await;
        let repo = server.external(&remote, "writer", WRITER_TOKEN);
        let main_py = RepoPath::file("main.py").unwrap();
        let loaded = server.store.read(&repo, &main_py).await.unwrap();

        let clone = server.clone_repo(&remote).await;
        push_file(clone.path(), "README.md", "# Theirs\n").await;
        let kept = server
            .store
            .commit_file(
                &repo,
                put("main.py", "print('mine')\n", Expected::Blob(loaded.sha.clone())),
            )
            .await;
        let kept = kept.unwrap();

        git_ok(clone.path(), &["pull", "-q", "--ff-only"]).await;
        assert_eq!(
            git_ok(clone.path(), &["rev-parse", "HEAD"]).await.trim(),
            kept.commit.as_str()
        );
        assert_eq!(file_text(clone.path(), "README.md"), "# Theirs\n");
        assert_eq!(file_text(clone.path(), "main.py"), "print('mine')\n");

        push_file(clone.path(), "main.py", "print('theirs')\n").await;
        let stale = server
            .store
            .commit_file(
                &repo,
                put("main.py", "print('late')\n", Expected::Blob(kept.blob.unwrap())),
            )
            .await;
        assert!(
            matches!(stale, Err(Error::FileChanged { .. })),
            "{freshness:?}: {stale:?}"
        );

        let fresh = server.clone_repo(&remote).await;
        assert_eq!(file_text(fresh.path(), "main.py"), "print('theirs')\n");
    }
}

/// An empty remote (no commits yet): the root is empty, and the first commit makes the branch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_remote_gets_its_first_commit() {
    let server = TestServer::start().await;
    let remote = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
    let path = server.hosted_path(&remote);
    std::fs::create_dir_all(&path).unwrap();
    git_ok(&path, &["init", "-q", "--bare", "-b", "main"]).await;
    let repo = server.external(&remote, "writer", WRITER_TOKEN);

    assert_eq!(
        server
            .store
            .remote_default_branch(&repo.id, external_of(&repo))
            .await
            .unwrap(),
        None
    );
    assert!(
        server
            .store
            .list(&repo, &RepoPath::root())
            .await
            .unwrap()
            .entries
            .is_empty()
    );
    let missing = server
        .store
        .read(&repo, &RepoPath::file("main.py").unwrap())
        .await;
    assert!(matches!(missing, Err(Error::NotFound { .. })), "{missing:?}");
    server
        .store
        .commit_file(&repo, put("main.py", "print(1)\n", Expected::Absent))
        .await
        .unwrap();

    let clone = server.clone_repo(&remote).await;
    assert_eq!(file_text(clone.path(), "main.py"), "print(1)\n");
    assert_eq!(
        git_ok(clone.path(), &["rev-list", "--count", "HEAD"])
            .await
            .trim(),
        "1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_repository_or_an_unreachable_server_is_said_plainly() {
    let server = TestServer::start().await;
    let unknown = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
    let repo = server.external(&unknown, "writer", WRITER_TOKEN);
    let error = server.store.list(&repo, &RepoPath::root()).await.unwrap_err();
    assert!(matches!(error, Error::RemoteNotFound { .. }), "{error:?}");
    assert_eq!(error.kind(), ErrorKind::NotFound);

    // Port 1 on loopback: nothing listens there.
    let url = RemoteUrl::parse(
        "http://127.0.0.1:1/ada/analysis.git",
        UrlPolicy::AllowHttpOnLoopback,
    )
    .unwrap();
    let credentials = GitCredentials::new("writer", WRITER_TOKEN).unwrap();
    let id = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
    let closed = ProjectRepo::external(id, BranchName::main(), External { url, credentials });
    let error = server.store.list(&closed, &RepoPath::root()).await.unwrap_err();
    assert!(matches!(error, Error::RemoteUnreachable { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "The git server at 127.0.0.1:1 could not be reached"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mirror_of_a_remote_is_cloned_without_its_token_and_follows_it() {
    // Fetched again at every serve: the mirror follows the remote at once.
    let server = TestServer::start_with(ludis_git::server::DEFAULT_MAX_PUSH_BYTES, Duration::ZERO).await;
    let remote = server.project().await;
    let repo = server.external(&remote, "reader", READER_TOKEN);
    let mirror_url = |user: &str, token: &str| server.url_as(&repo.id, user, token);

    // Before the store mirrors it, there is nothing to clone.
    let early = tempfile::tempdir().unwrap();
    let refused = git(
        early.path(),
        &["clone", "-q", &mirror_url("mirror", MIRROR_TOKEN), "."],
    )
    .await;
    assert!(
        !refused.status.success(),
        "nothing is served before the store mirrors the remote"
    );

    assert_eq!(server.store.serve(&repo).await.unwrap(), Served::Mirror);
    let clone = tempfile::tempdir().unwrap();
    git_ok(
        clone.path(),
        &[
            "clone",
            "-q",
            "--branch",
            "main",
            &mirror_url("mirror", MIRROR_TOKEN),
            ".",
        ],
    )
    .await;
    assert!(file_text(clone.path(), "main.py").contains("Hello from Ludis"));

    // The remote moves; the next serve mirrors the move.
    let writer = server.clone_repo(&remote).await;
    push_file(writer.path(), "report.py", "print(1)\n").await;
    server.store.serve(&repo).await.unwrap();
    git_ok(clone.path(), &["pull", "-q", "origin", "main"]).await;
    assert_eq!(file_text(clone.path(), "report.py"), "print(1)\n");

    // A mirror is read-only, and the mirror's credentials reach no hosted repository.
    std::fs::write(clone.path().join("x.py"), "x\n").unwrap();
    git_ok(clone.path(), &["add", "x.py"]).await;
    git_ok(clone.path(), &["commit", "-q", "-m", "x"]).await;
    let pushed = git(clone.path(), &["push", "-q", "origin", "HEAD:main"]).await;
    assert!(!pushed.status.success());
    assert!(stderr(&pushed).contains("403"), "{}", stderr(&pushed));
    let hosted = tempfile::tempdir().unwrap();
    let other = git(
        hosted.path(),
        &[
            "clone",
            "-q",
            &server.url_as(&remote, "mirror", MIRROR_TOKEN),
            ".",
        ],
    )
    .await;
    assert!(!other.status.success(), "the hosted repository has no mirror");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_larger_than_the_fetch_limit_is_refused_with_why() {
    let server = TestServer::start_limited(ludis_git::Outbound {
        max_fetch_bytes: 1024 * 1024,
        ..ludis_git::Outbound::default()
    })
    .await;
    let remote = server.project().await;
    let repo = server.external(&remote, "writer", WRITER_TOKEN);
    // The control: a small repository fetches.
    assert!(server.store.list(&repo, &RepoPath::root()).await.is_ok());

    // 4 MiB of hexadecimal noise: about 2 MiB however git packs it.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let noise: String = (0..4 * 1024 * 1024)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_digit((state % 16) as u32, 16).unwrap()
        })
        .collect();
    let clone = server.clone_repo(&remote).await;
    push_file(clone.path(), "data/noise.txt", &noise).await;

    let refused = server.store.list(&repo, &RepoPath::root()).await.unwrap_err();
    assert!(
        matches!(refused, Error::RemoteTooLarge { limit_mib: 1, .. }),
        "{refused:?}"
    );
    assert_eq!(refused.kind(), ErrorKind::TooLarge);
    assert!(
        refused
            .to_string()
            .ends_with("is larger than 1 MiB, the most Ludis downloads"),
        "{refused}"
    );
}
