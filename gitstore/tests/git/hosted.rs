//! The crate's operations on hosted repositories, checked with `git clone`.

use ludis_git::{
    Contents, EntryKind, Error, Expected, FileDelete, Language, MAX_FILE_BYTES, MAX_LISTED_ENTRIES,
    NewRepository, ProjectRepo, RepoId, RepoPath, Sha,
};
use uuid::Uuid;

use crate::support::{NAMESPACE, TestServer, author, file_text, git_ok, message, push_file, put};

fn delete(path: &str, expected: Sha) -> FileDelete {
    FileDelete {
        path: RepoPath::file(path).unwrap(),
        expected,
        message: message(&format!("Delete {path}")),
        author: author(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_project_has_a_readme_and_a_starter_script_for_its_language() {
    let server = TestServer::start().await;
    for (language, starter, line) in [
        (Language::Python, "main.py", "print("),
        (Language::R, "main.R", "cat("),
    ] {
        let id = RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap();
        let new = NewRepository {
            name: "Churn model".into(),
            language,
            author: author(),
        };
        server.store.create_hosted(&id, new.clone()).await.unwrap();
        let repo = ProjectRepo::hosted(id.clone());

        let listing = server.store.list(&repo, &RepoPath::root()).await.unwrap();
        let names: Vec<_> = listing
            .entries
            .iter()
            .map(|entry| (entry.name.as_str(), entry.kind))
            .collect();
        assert_eq!(
            names,
            [("README.md", EntryKind::File), (starter, EntryKind::File)]
        );
        let file = server
            .store
            .read(&repo, &RepoPath::file(starter).unwrap())
            .await
            .unwrap();
        assert!(String::from_utf8(file.bytes.clone()).unwrap().contains(line));
        let entry = &listing.entries[1];
        assert_eq!(
            (entry.path.as_str(), &entry.sha, entry.size),
            (starter, &file.sha, file.size)
        );

        let again = server.store.create_hosted(&id, new).await;
        assert!(matches!(again, Err(Error::RepositoryExists)), "{again:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commit_update_and_delete_show_in_a_clone() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let repo = ProjectRepo::hosted(id.clone());
    let store = &server.store;

    let created = store
        .commit_file(&repo, put("src/report.py", "v1\n", Expected::Absent))
        .await
        .unwrap();
    assert!(created.changed);
    let file = store
        .read(&repo, &RepoPath::file("src/report.py").unwrap())
        .await
        .unwrap();
    assert_eq!(
        (file.bytes.as_slice(), Some(&file.sha)),
        (&b"v1\n"[..], created.blob.as_ref())
    );

    let updated = store
        .commit_file(&repo, put("src/report.py", "v2\n", Expected::Blob(file.sha)))
        .await
        .unwrap();
    let same = store
        .commit_file(
            &repo,
            put(
                "src/report.py",
                "v2\n",
                Expected::Blob(updated.blob.clone().unwrap()),
            ),
        )
        .await;
    let same = same.unwrap();
    assert!(!same.changed, "saving unchanged content makes no commit");
    assert_eq!(same.commit, updated.commit);

    let clone = server.clone_repo(&id).await;
    assert_eq!(file_text(clone.path(), "src/report.py"), "v2\n");
    let log = git_ok(clone.path(), &["log", "--format=%an <%ae> %s"]).await;
    assert_eq!(
        log,
        "Ada Lovelace <ada@example.org> Write src/report.py\n\
         Ada Lovelace <ada@example.org> Write src/report.py\n\
         Ada Lovelace <ada@example.org> Create project\n"
    );
    assert_eq!(
        git_ok(clone.path(), &["rev-parse", "HEAD"]).await.trim(),
        updated.commit.as_str()
    );
    // The head a workflow pins at publish.
    assert_eq!(store.head(&repo).await.unwrap(), Some(updated.commit.clone()));

    let deleted = store
        .delete_file(&repo, delete("src/report.py", updated.blob.unwrap()))
        .await
        .unwrap();
    assert_eq!(deleted.blob, None);
    // The folder held only that file: it is gone too, as in git.
    let folder = store.list(&repo, &RepoPath::parse("src").unwrap()).await;
    assert!(matches!(folder, Err(Error::NotFound { .. })), "{folder:?}");
    git_ok(clone.path(), &["pull", "-q", "--ff-only"]).await;
    assert!(!clone.path().join("src").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_edit_is_refused_and_an_edit_beside_another_is_kept() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let repo = ProjectRepo::hosted(id.clone());
    let main_py = RepoPath::file("main.py").unwrap();
    let loaded = server.store.read(&repo, &main_py).await.unwrap();

    // Someone else changes README.md with git: the edit of main.py goes on top, both kept.
    let clone = server.clone_repo(&id).await;
    push_file(clone.path(), "README.md", "# Theirs\n").await;
    server
        .store
        .commit_file(
            &repo,
            put("main.py", "print('mine')\n", Expected::Blob(loaded.sha.clone())),
        )
        .await
        .unwrap();
    assert_eq!(
        server
            .store
            .read(&repo, &RepoPath::file("README.md").unwrap())
            .await
            .unwrap()
            .bytes,
        b"# Theirs\n"
    );

    // Someone else changes main.py itself: an edit of the version loaded before is refused.
    git_ok(clone.path(), &["pull", "-q", "--ff-only"]).await;
    push_file(clone.path(), "main.py", "print('theirs')\n").await;
    let mine = server.store.read(&repo, &main_py).await.unwrap();
    assert_eq!(mine.bytes, b"print('theirs')\n");
    let stale = server
        .store
        .commit_file(
            &repo,
            put("main.py", "print('late')\n", Expected::Blob(loaded.sha.clone())),
        )
        .await;
    let error = stale.unwrap_err();
    assert!(matches!(error, Error::FileChanged { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "The file changed since you opened it; reload it to see the latest version"
    );
    let stale_delete = server
        .store
        .delete_file(&repo, delete("main.py", loaded.sha))
        .await;
    assert!(
        matches!(stale_delete, Err(Error::FileChanged { .. })),
        "{stale_delete:?}"
    );
    let exists = server
        .store
        .commit_file(&repo, put("main.py", "x", Expected::Absent))
        .await;
    assert!(matches!(exists, Err(Error::FileExists { .. })), "{exists:?}");
    assert_eq!(
        server.store.read(&repo, &main_py).await.unwrap().bytes,
        b"print('theirs')\n"
    );
}

/// Writers racing on one branch each land exactly once: a change whose compare-and-swap lost is
/// planned again on the new head.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_commits_to_different_files_all_land() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let repo = ProjectRepo::hosted(id.clone());
    let writers = (0..8).map(|n| {
        let (store, repo) = (server.store.clone(), repo.clone());
        tokio::spawn(async move {
            store
                .commit_file(&repo, put(&format!("part-{n}.txt"), "x\n", Expected::Absent))
                .await
        })
    });
    for writer in writers.collect::<Vec<_>>() {
        assert!(writer.await.unwrap().unwrap().changed);
    }
    let clone = server.clone_repo(&id).await;
    assert_eq!(
        git_ok(clone.path(), &["rev-list", "--count", "HEAD"])
            .await
            .trim(),
        "9"
    );
    let listing = server.store.list(&repo, &RepoPath::root()).await.unwrap();
    assert_eq!(listing.entries.len(), 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_kinds_and_sizes_get_clear_errors() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let repo = ProjectRepo::hosted(id.clone());
    let store = &server.store;
    store
        .commit_file(&repo, put("src/a.py", "a\n", Expected::Absent))
        .await
        .unwrap();

    let cases: Vec<(Result<(), Error>, &str)> = vec![
        (
            store
                .read(&repo, &RepoPath::parse("src").unwrap())
                .await
                .map(drop),
            "'src' is a folder, not a file",
        ),
        (
            store
                .list(&repo, &RepoPath::parse("README.md").unwrap())
                .await
                .map(drop),
            "'README.md' is a file, not a folder",
        ),
        (
            store
                .read(&repo, &RepoPath::file("nope.py").unwrap())
                .await
                .map(drop),
            "'nope.py' does not exist",
        ),
        (
            store
                .commit_file(&repo, put("README.md/x.py", "x", Expected::Absent))
                .await
                .map(drop),
            "'README.md' is a file, not a folder",
        ),
        (
            store
                .commit_file(&repo, put("src", "x", Expected::Absent))
                .await
                .map(drop),
            "'src' is a folder, not a file",
        ),
        (
            store
                .commit_file(
                    &repo,
                    put(
                        "big.bin",
                        &"x".repeat(MAX_FILE_BYTES as usize + 1),
                        Expected::Absent,
                    ),
                )
                .await
                .map(drop),
            "The file is too large to open or save here (at most 10 MiB)",
        ),
        (
            store
                .list(
                    &ProjectRepo::hosted(RepoId::new(NAMESPACE, Uuid::new_v4()).unwrap()),
                    &RepoPath::root(),
                )
                .await
                .map(drop),
            "The project's repository does not exist",
        ),
    ];
    for (result, expected) in cases {
        let error = result.unwrap_err();
        assert!(error.is_client_error(), "{error:?}");
        assert_eq!(error.to_string(), expected);
    }

    // A file too large for the workspace that arrived by push stays readable by git, not here.
    let clone = server.clone_repo(&id).await;
    push_file(clone.path(), "huge.txt", &"y".repeat(MAX_FILE_BYTES as usize + 1)).await;
    let huge = store.read(&repo, &RepoPath::file("huge.txt").unwrap()).await;
    assert!(matches!(huge, Err(Error::FileTooLarge { .. })), "{huge:?}");
    let listed = store.list(&repo, &RepoPath::root()).await.unwrap();
    let entry = listed
        .entries
        .iter()
        .find(|entry| entry.name == "huge.txt")
        .unwrap();
    assert_eq!(entry.size, MAX_FILE_BYTES + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_folder_is_listed_up_to_the_cap_with_its_real_count() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let clone = server.clone_repo(&id).await;
    let folder = clone.path().join("many");
    std::fs::create_dir(&folder).unwrap();
    for n in 0..=MAX_LISTED_ENTRIES {
        std::fs::write(folder.join(format!("f{n:05}.txt")), "").unwrap();
    }
    git_ok(clone.path(), &["add", "many"]).await;
    git_ok(clone.path(), &["commit", "-q", "-m", "Many files"]).await;
    git_ok(clone.path(), &["push", "-q", "origin", "HEAD:main"]).await;

    let listing = server
        .store
        .list(&ProjectRepo::hosted(id), &RepoPath::parse("many/").unwrap())
        .await
        .unwrap();
    assert_eq!(
        (listing.entries.len(), listing.total),
        (MAX_LISTED_ENTRIES, MAX_LISTED_ENTRIES + 1)
    );
    assert!(listing.is_truncated());
    assert_eq!(listing.entries[0].path, "many/f00000.txt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contents_answers_a_folder_or_a_file_and_a_deleted_repository_is_gone() {
    let server = TestServer::start().await;
    let id = server.project().await;
    let repo = ProjectRepo::hosted(id.clone());
    let root = server
        .store
        .contents(&repo, &RepoPath::parse("./").unwrap())
        .await
        .unwrap();
    assert!(
        matches!(&root, Contents::Folder(listing) if listing.entries.len() == 2),
        "{root:?}"
    );
    let file = server
        .store
        .contents(&repo, &RepoPath::parse("README.md").unwrap())
        .await
        .unwrap();
    assert!(
        matches!(&file, Contents::File(file) if file.path == "README.md"),
        "{file:?}"
    );

    assert!(server.store.hosted_exists(&id).await.unwrap());
    server.store.delete_hosted(&id).await.unwrap();
    assert!(!server.store.hosted_exists(&id).await.unwrap());
    assert!(!server.hosted_path(&id).exists());
    assert!(matches!(
        server.store.list(&repo, &RepoPath::root()).await,
        Err(Error::RepositoryNotFound)
    ));
    assert!(matches!(
        server.store.delete_hosted(&id).await,
        Err(Error::RepositoryNotFound)
    ));
}
