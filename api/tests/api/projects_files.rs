//! A project's files (issue 14): list, read, commit and delete at the branch head, stale edits
//! refused, the path rules; the hosted repositories over smart HTTP for `git` (clone with view,
//! push with edit, nothing for others); "import project" from an external remote with the
//! user's git token — that remote being this API's own git server, a real server over HTTP with
//! authentication. SQLite and PostgreSQL.

use std::process::Command;

use base64::Engine as _;
use kube::Api;
use ludis_api::db;
use serde_json::{Value, json};

use crate::helpers::{Person, TestApp, apps, apps_with};
use crate::pod_tokens::{checkout_pod, pod_token};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

async fn contents(app: &TestApp, who: &Person, id: &str, path: &str) -> (reqwest::StatusCode, Value) {
    app.post(
        &format!("/v2/projects/repocontents/{id}"),
        Some(&who.token),
        json!({"project": id, "path": path}),
    )
    .await
}

async fn commit(
    app: &TestApp,
    who: &Person,
    id: &str,
    path: &str,
    text: &str,
    sha: Option<&str>,
) -> (reqwest::StatusCode, Value) {
    let mut body = json!({"project": id, "filePath": path, "contents": B64.encode(text), "message": format!("Edit {path}")});
    if let Some(sha) = sha {
        body["sha"] = json!(sha);
    }
    app.post("/v2/projects/commitfile", Some(&who.token), body).await
}

fn names(listing: &Value) -> Vec<(String, String)> {
    listing["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_owned(),
                e["type"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn files_are_listed_read_committed_and_deleted_and_stale_edits_are_refused() {
    for app in apps().await {
        let org = app.unique_org("Project files").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let id = app.project(&owner, "Files").await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;

        let (status, root) = contents(&app, &owner, &id, "").await;
        assert_eq!(status, 200, "{}: {root}", app.kind);
        assert_eq!(
            names(&root),
            [
                ("README.md".into(), "file".into()),
                ("main.py".into(), "file".into())
            ]
        );
        assert_eq!(root["contents"][1]["download_url"], Value::Null);
        let (status, file) = contents(&app, &viewer, &id, "main.py").await;
        assert_eq!(status, 200, "a viewer reads: {file}");
        let f = &file["contents"];
        assert_eq!(
            (f["encoding"].as_str(), f["path"].as_str()),
            (Some("base64"), Some("main.py"))
        );
        let text = String::from_utf8(B64.decode(f["content"].as_str().unwrap()).unwrap()).unwrap();
        assert!(text.contains("Hello from Ludis"), "{text}");
        let loaded = f["sha"].as_str().unwrap().to_owned();

        // Commit on the loaded version; the answer's sha is the new blob.
        let (status, done) = commit(&app, &owner, &id, "main.py", "print('v2')\n", Some(&loaded)).await;
        assert_eq!(status, 200, "{done}");
        assert_eq!(done["message"], "Commit successful");
        let v2 = done["content"]["sha"].as_str().unwrap().to_owned();
        assert_ne!(v2, loaded);
        // Another commit on the old version is refused, and nothing is lost.
        let (status, stale) = commit(&app, &owner, &id, "main.py", "print('lost?')\n", Some(&loaded)).await;
        assert_eq!(
            (status.as_u16(), stale["code"].as_str()),
            (409, Some("stale_file")),
            "{stale}"
        );
        assert_eq!(
            stale["message"],
            "The file changed since you opened it; reload it to see the latest version"
        );
        let (_, now) = contents(&app, &owner, &id, "main.py").await;
        assert_eq!(
            B64.decode(now["contents"]["content"].as_str().unwrap()).unwrap(),
            b"print('v2')\n"
        );
        // A new file in a new folder; a new file whose name is taken is refused.
        let (status, _) = commit(&app, &owner, &id, "src/app.py", "x = 1\n", None).await;
        assert_eq!(status, 200);
        let (status, taken) = commit(&app, &owner, &id, "src/app.py", "x = 2\n", None).await;
        assert_eq!(status, 409, "{taken}");
        let (_, root) = contents(&app, &owner, &id, "").await;
        assert!(names(&root).contains(&("src".into(), "dir".into())), "{root}");

        // Path rules.
        for bad in ["../etc/passwd", "/etc/passwd", ".git/config", "a/.GIT/x", "a\\b"] {
            let (status, body) = commit(&app, &owner, &id, bad, "x", None).await;
            assert_eq!(status, 400, "{bad}: {body}");
            let (status, _) = contents(&app, &owner, &id, bad).await;
            assert_eq!(status, 400, "{bad}");
        }
        let (status, _) = contents(&app, &owner, &id, "missing.txt").await;
        assert_eq!(status, 404);
        let (status, body) = app
            .post(
                "/v2/projects/commitfile",
                Some(&owner.token),
                json!({"project": id, "filePath": "x.txt", "contents": "not base64!", "message": "m"}),
            )
            .await;
        assert_eq!(status, 400, "{body}");

        // A viewer reads but never writes.
        let (status, body) = commit(&app, &viewer, &id, "main.py", "no", Some(&v2)).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need edit access to this project"))
        );

        // Delete needs the loaded sha; a stale one is refused.
        let (status, body) = app
            .post(
                "/v2/projects/deletefile",
                Some(&owner.token),
                json!({"project": id, "filePath": "main.py"}),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        let (status, _) = app
            .post(
                "/v2/projects/deletefile",
                Some(&owner.token),
                json!({"project": id, "filePath": "main.py", "sha": loaded}),
            )
            .await;
        assert_eq!(status, 409);
        let (status, body) = app
            .post(
                "/v2/projects/deletefile",
                Some(&owner.token),
                json!({"project": id, "filePath": "main.py", "sha": v2}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (200, Some("File deleted"))
        );
        let (status, _) = contents(&app, &owner, &id, "main.py").await;
        assert_eq!(status, 404);
    }
}

/// The user's API key (a fresh one).
async fn api_key(app: &TestApp, who: &Person) -> String {
    let (status, body) = app
        .post(
            &format!("/v1/users/{}/api_key", who.uid),
            Some(&who.token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["api_key"].as_str().unwrap().to_owned()
}

/// The clone URL of a hosted project, with Basic credentials in it.
async fn clone_url(app: &TestApp, who: &Person, key: &str, org: &str, id: &str) -> String {
    let namespace = ludis_api::projects::git::namespace_of(&app.state, org)
        .await
        .unwrap();
    let host = app.address.trim_start_matches("http://");
    format!(
        "http://{}:{key}@{host}/git/{namespace}/{id}.git",
        who.email.replace('@', "%40")
    )
}

/// Runs `git` without any user or system configuration or prompts; (success, stderr).
fn git(args: &[&str], dir: &std::path::Path) -> (bool, String) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// `git` runs as a child process the test waits for: the server needs threads of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosted_repositories_are_served_over_smart_http_by_the_access_rule() {
    for app in apps().await {
        let org = app.unique_org("Git http").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let stranger = app.person(&org, "developer", "Stranger").await;
        let id = app.project(&owner, "Served").await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;
        let dir = tempfile::tempdir().unwrap();
        let (owner_key, viewer_key, stranger_key) = (
            api_key(&app, &owner).await,
            api_key(&app, &viewer).await,
            api_key(&app, &stranger).await,
        );

        // The owner clones, commits and pushes; the API then sees the commit.
        let url = clone_url(&app, &owner, &owner_key, &org, &id).await;
        let (ok, err) = git(&["clone", "-q", &url, "mine"], dir.path());
        assert!(ok, "{}: {err}", app.kind);
        let mine = dir.path().join("mine");
        std::fs::write(mine.join("pushed.txt"), "from git\n").unwrap();
        assert!(git(&["add", "pushed.txt"], &mine).0);
        assert!(git(&["commit", "-q", "-m", "pushed"], &mine).0);
        let (ok, err) = git(&["push", "-q", "origin", "main"], &mine);
        assert!(ok, "{err}");
        let (status, file) = contents(&app, &owner, &id, "pushed.txt").await;
        assert_eq!(status, 200, "{file}");

        // The viewer clones but cannot push.
        let url = clone_url(&app, &viewer, &viewer_key, &org, &id).await;
        let (ok, err) = git(&["clone", "-q", &url, "theirs"], dir.path());
        assert!(ok, "{err}");
        let theirs = dir.path().join("theirs");
        assert!(theirs.join("pushed.txt").is_file());
        std::fs::write(theirs.join("x.txt"), "x").unwrap();
        assert!(git(&["add", "x.txt"], &theirs).0);
        assert!(git(&["commit", "-q", "-m", "x"], &theirs).0);
        let (ok, err) = git(&["push", "-q", "origin", "main"], &theirs);
        assert!(!ok && err.contains("403"), "a viewer's push is refused: {err}");

        // A stranger, a wrong key and another user's key with one's own e-mail get nothing.
        let url = clone_url(&app, &stranger, &stranger_key, &org, &id).await;
        let (ok, err) = git(&["clone", "-q", &url, "stranger"], dir.path());
        assert!(!ok && err.contains("not found"), "{err}");
        for (who, key) in [(&owner, "wrong-key"), (&stranger, owner_key.as_str())] {
            let url = clone_url(&app, who, key, &org, &id).await;
            let (ok, err) = git(&["clone", "-q", &url, "nope"], dir.path());
            assert!(!ok && err.contains("Authentication failed"), "{err}");
        }
    }
}

// `git` runs as a child process the test waits for: the server needs threads of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_external_remote_is_imported_and_edited_with_the_users_git_token() {
    // Pods would reach the API at this address; the test clones from the real one.
    for app in apps_with(|s| s.git_url = "http://ludis-api.ludis-system.svc:8080/git".into()).await {
        let org = app.unique_org("Import").await;
        let owner = app.person(&org, "developer", "Owner").await;
        // The remote: a project hosted by this API, reached over its git server.
        let remote_id = app.project(&owner, "Remote").await;
        let key = api_key(&app, &owner).await;
        let namespace = ludis_api::projects::git::namespace_of(&app.state, &org)
            .await
            .unwrap();
        let remote = format!("{}/git/{namespace}/{remote_id}.git", app.address);

        // A wrong token: the git layer's message, 400 (never 401).
        let (status, _) = app
            .put(
                "/v1/git_detail",
                &owner.token,
                json!({"git_username": owner.email, "git_token": "wrong"}),
            )
            .await;
        assert_eq!(status, 200);
        let (status, body) = app
            .post(
                "/v2/projects",
                Some(&owner.token),
                json!({"project": {"name": "", "repo_url": remote}}),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            body["message"],
            "The git server refused the username or token; check your git username and personal access token"
        );

        let (status, _) = app
            .put(
                "/v1/git_detail",
                &owner.token,
                json!({"git_username": owner.email, "git_token": key}),
            )
            .await;
        assert_eq!(status, 200);
        let (status, body) = app
            .post(
                "/v2/projects",
                Some(&owner.token),
                json!({"project": {"name": "", "repo_url": remote}}),
            )
            .await;
        assert_eq!(status, 201, "{}: {body}", app.kind);
        let p = &body["project"];
        let id = p["id"].as_str().unwrap().to_owned();
        // Name and author derived from the URL.
        assert_eq!(p["name"], remote_id);
        assert_eq!(p["repo_author"], format!("git/{namespace}"));
        assert_eq!(
            (p["hosted"].as_bool(), p["branch"].as_str()),
            (Some(false), Some("main"))
        );

        // Edited through the import, seen in the remote.
        let (status, file) = contents(&app, &owner, &id, "README.md").await;
        assert_eq!(status, 200, "{file}");
        let sha = file["contents"]["sha"].as_str().unwrap().to_owned();
        let (status, body) = commit(&app, &owner, &id, "README.md", "# Imported\n", Some(&sha)).await;
        assert_eq!(status, 200, "{body}");
        let (_, seen) = contents(&app, &owner, &remote_id, "README.md").await;
        assert_eq!(
            B64.decode(seen["contents"]["content"].as_str().unwrap()).unwrap(),
            b"# Imported\n"
        );
        // A stale edit through the import is refused too.
        let (status, body) = commit(&app, &owner, &id, "README.md", "# Lost?\n", Some(&sha)).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (409, Some("stale_file"))
        );

        // Cloned through Ludis, the import is the API's mirror of the remote: read-only.
        let dir = tempfile::tempdir().unwrap();
        let url = clone_url(&app, &owner, &key, &org, &id).await;
        let (ok, err) = git(&["clone", "-q", &url, "mirror"], dir.path());
        assert!(ok, "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("mirror/README.md")).unwrap(),
            "# Imported\n"
        );
        let mirror = dir.path().join("mirror");
        std::fs::write(mirror.join("x.py"), "x\n").unwrap();
        assert!(git(&["add", "x.py"], &mirror).0);
        assert!(git(&["commit", "-q", "-m", "x"], &mirror).0);
        let (ok, err) = git(&["push", "-q", "origin", "main"], &mirror);
        assert!(!ok && err.contains("403"), "a mirror takes no push: {err}");

        // The project's pods clone that mirror with their own identity: the owner's token stays
        // in the API.
        let a = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        if let (Some(client), Some(ns), Some(name)) = (&app.state.kube, &a.namespace, &a.resource_name) {
            let cr = Api::<ludis_crds::Project>::namespaced(client.clone(), ns)
                .get(name)
                .await
                .unwrap();
            let git_source = cr.spec.git.expect("an imported project is cloned from the API");
            assert_eq!(
                (git_source.url.as_str(), git_source.credentials_secret.is_none()),
                (
                    format!("http://ludis-api.ludis-system.svc:8080/git/{ns}/{id}.git").as_str(),
                    true
                )
            );
            let pod = checkout_pod(client, ns, &format!("{ns}/{id}.git")).await;
            let token = pod_token(client, ns, &pod, ludis_crds::GIT_AUDIENCE).await;
            let host = app.address.trim_start_matches("http://");
            let url = format!(
                "http://{}:{token}@{host}/git/{ns}/{id}.git",
                ludis_crds::GIT_POD_USERNAME
            );
            let (ok, err) = git(&["clone", "-q", &url, "pod"], dir.path());
            assert!(ok, "{err}");
            assert_eq!(
                std::fs::read_to_string(dir.path().join("pod/README.md")).unwrap(),
                "# Imported\n"
            );
        }
    }
}
