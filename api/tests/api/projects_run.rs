//! Running a project (issue 14): run and stop with execute access, the Project's
//! `spec.preview.running`, the repository's checkout (a pod clones it from this API's git server
//! with its own service-account token, which reaches that repository only, while the pod
//! exists), and the insights published from a project. SQLite and PostgreSQL; the resource parts
//! with a cluster (KUBECONFIG).

use std::process::Command;

use k8s_openapi::api::core::v1::{Pod, Secret};
use kube::{Api, api::DeleteParams};
use ludis_api::db;
use ludis_crds::{GIT_AUDIENCE, GIT_POD_USERNAME};
use serde_json::json;

use crate::helpers::{InsightSeed, apps_with};
use crate::pod_tokens::{checkout_pod, pod_token, wait_until};

/// `git clone` without any configuration or prompt; whether it worked, and its stderr.
fn clone(url: &str, into: &std::path::Path) -> (bool, String) {
    let out = Command::new("git")
        .args(["clone", "-q", url])
        .arg(into)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .expect("git runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// `git` runs as a child process the test waits for: the server needs threads of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_runs_and_stops_and_only_its_own_pods_clone_its_repository() {
    // Pods would reach the API at this address; the test clones from the real one.
    for app in apps_with(|s| s.git_url = "http://ludis-api.ludis-system.svc:8080/git".into()).await {
        let org = app.unique_org("Run").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let id = app.project(&owner, "Runnable").await;
        app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;

        let (status, body) = app
            .post(&format!("/v2/projects/run/{id}"), Some(&viewer.token), json!({}))
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("You need execute or edit access to this project")),
            "{}",
            app.kind
        );
        let (status, body) = app
            .post(&format!("/v2/projects/run/{id}"), Some(&runner.token), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["preview"]["running"], true);
        assert_eq!(body["preview"]["status"], "starting");
        assert_eq!(
            body["preview"]["container_id"],
            serde_json::Value::Null,
            "not running yet"
        );
        let (_, body) = app.get(&format!("/v2/projects/check/{id}"), &viewer.token).await;
        assert_eq!(body["preview"]["status"], "starting");

        let a = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        if let (Some(client), Some(ns), Some(name)) = (&app.state.kube, &a.namespace, &a.resource_name) {
            let cr = Api::<ludis_crds::Project>::namespaced(client.clone(), ns)
                .get(name)
                .await
                .unwrap();
            assert!(cr.spec.preview.running);
            let git = cr.spec.git.expect("a hosted repository is cloned from the API");
            assert_eq!(
                git.url,
                format!("http://ludis-api.ludis-system.svc:8080/git/{ns}/{id}.git")
            );
            assert!(
                git.credentials_secret.is_none(),
                "pods clone with their own identity"
            );
            let secrets: Api<Secret> = Api::namespaced(client.clone(), ns);
            assert!(
                secrets.get_opt(&format!("{name}-git")).await.unwrap().is_none(),
                "no Secret holds a credential for the repository"
            );

            // A pod of the project, as the operator makes it (its annotation names the
            // repository), clones it with the token the kubelet would project into it.
            let host = app.address.trim_start_matches("http://");
            let repo_url = |token: &str, project: &str, namespace: &str| {
                format!("http://{GIT_POD_USERNAME}:{token}@{host}/git/{namespace}/{project}.git")
            };
            let pod = checkout_pod(client, ns, &format!("{ns}/{id}.git")).await;
            let token = pod_token(client, ns, &pod, GIT_AUDIENCE).await;
            let dir = tempfile::tempdir().unwrap();
            let (ok, err) = clone(&repo_url(&token, &id, ns), &dir.path().join("a"));
            assert!(ok, "{err}");
            assert!(dir.path().join("a/main.py").is_file());
            // It may not push.
            let pushed = Command::new("git")
                .args([
                    "-C",
                    dir.path().join("a").to_str().unwrap(),
                    "push",
                    "-q",
                    "origin",
                    "HEAD:refs/heads/evil",
                ])
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_TERMINAL_PROMPT", "0")
                .output()
                .unwrap();
            assert!(!pushed.status.success(), "a pod's token pushes nothing");
            // Another project's repository is not reachable with it.
            let other = app.project(&owner, "Other").await;
            let (ok, _) = clone(&repo_url(&token, &other, ns), &dir.path().join("b"));
            assert!(!ok, "a pod clones only the repository its checkout names");
            // A token for another audience (the API server's own) is not a git credential.
            let wrong = pod_token(client, ns, &pod, "https://kubernetes.default.svc.cluster.local").await;
            let (ok, _) = clone(&repo_url(&wrong, &id, ns), &dir.path().join("c"));
            assert!(!ok, "a token for another audience is refused");
            // A pod of another organization naming this repository gets nothing.
            let stranger_org = app.unique_org("Run stranger").await;
            let stranger = app.person(&stranger_org, "developer", "Stranger").await;
            let theirs = app.project(&stranger, "Theirs").await;
            let their_ns = db::assets::by_id(&app.state.db, &theirs)
                .await
                .unwrap()
                .unwrap()
                .namespace
                .unwrap();
            let foreign = checkout_pod(client, &their_ns, &format!("{ns}/{id}.git")).await;
            let foreign_token = pod_token(client, &their_ns, &foreign, GIT_AUDIENCE).await;
            let (ok, _) = clone(&repo_url(&foreign_token, &id, ns), &dir.path().join("d"));
            assert!(!ok, "a pod of another namespace clones nothing of this one");
            // The token dies with its pod.
            Api::<Pod>::namespaced(client.clone(), ns)
                .delete(&pod, &DeleteParams::default().grace_period(0))
                .await
                .unwrap();
            let gone = Api::<Pod>::namespaced(client.clone(), ns);
            wait_until("the checkout pod is deleted", || async {
                gone.get_opt(&pod).await.unwrap().is_none()
            })
            .await;
            let (ok, _) = clone(&repo_url(&token, &id, ns), &dir.path().join("e"));
            assert!(!ok, "a deleted pod's token is refused");
        }

        let (status, body) = app
            .post(&format!("/v2/projects/stop/{id}"), Some(&runner.token), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["preview"],
            json!({"running": false, "status": "stopped", "message": null, "file": null, "container_id": null, "web_url": null, "port": null, "idle": null})
        );
    }
}

#[tokio::test]
async fn a_projects_apps_are_those_the_caller_may_see() {
    for app in crate::helpers::apps().await {
        let org = app.unique_org("Project apps").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let id = app.project(&owner, "Published").await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;
        let shared = app
            .insight(&org, Some(&owner.uid), InsightSeed::app("Shared app"))
            .await;
        let private = app
            .insight(&org, Some(&owner.uid), InsightSeed::app("Private app"))
            .await;
        let unrelated = app
            .insight(&org, Some(&owner.uid), InsightSeed::app("Unrelated"))
            .await;
        for i in [&shared, &private] {
            sqlx::query("UPDATE insights SET project_id = $1 WHERE id = $2")
                .bind(&id)
                .bind(i)
                .execute(&app.state.db)
                .await
                .unwrap();
        }
        app.share(&shared, "user", &viewer.uid, "view", &owner.uid).await;
        let ids = |body: &serde_json::Value| -> Vec<String> {
            let mut v: Vec<String> = body["projectApps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["id"].as_str().unwrap().to_owned())
                .collect();
            v.sort();
            v
        };
        let (status, body) = app
            .get(&format!("/v2/projects/getprojectapps/{id}"), &owner.token)
            .await;
        assert_eq!(status, 200, "{}: {body}", app.kind);
        let mut want = vec![shared.clone(), private.clone()];
        want.sort();
        assert_eq!(ids(&body), want);
        assert!(!ids(&body).contains(&unrelated));
        let (_, body) = app
            .get(&format!("/v2/projects/getprojectapps/{id}"), &viewer.token)
            .await;
        assert_eq!(ids(&body), std::slice::from_ref(&shared));
    }
}

/// The web view: a running preview's `web_url` opens it through the app proxy (execute access);
/// a viewer gets none and the proxy refuses them.
#[tokio::test]
async fn the_web_view_of_a_running_preview_goes_through_the_app_proxy() {
    use crate::proxy::{console_origin, no_redirects, upstream};
    for app in apps_with(console_origin).await {
        let org = app.unique_org("Web view").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let id = app.project(&owner, "Web").await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;
        let (_, body) = app.get(&format!("/v2/projects/check/{id}"), &owner.token).await;
        assert_eq!(body["preview"]["web_url"], serde_json::Value::Null, "not running");

        // The operator's observation: the preview runs and answers at the upstream.
        let base = upstream().await;
        db::projects::set_running(
            &app.state.db,
            &id,
            true,
            ludis_api::domain::ProjectStatus::Running,
        )
        .await
        .unwrap();
        db::projects::set_observed(
            &app.state.db,
            &id,
            ludis_api::domain::ProjectStatus::Running,
            None,
            Some(&base),
        )
        .await
        .unwrap();
        let (_, body) = app.get(&format!("/v2/projects/check/{id}"), &viewer.token).await;
        assert_eq!(
            body["preview"]["web_url"],
            serde_json::Value::Null,
            "{}: a viewer has no web view",
            app.kind
        );
        let (_, body) = app.get(&format!("/v2/projects/{id}"), &owner.token).await;
        assert_eq!(body["preview"]["container_id"], id.as_str());
        let web_url = body["preview"]["web_url"]
            .as_str()
            .expect("a web view")
            .to_owned();
        assert!(web_url.starts_with(&format!("/apps/{id}/?ticket=")), "{web_url}");

        // The ticket becomes the app cookie; the preview answers through the proxy.
        let res = no_redirects().get(app.url(&web_url)).send().await.unwrap();
        assert_eq!(res.status(), 303);
        let cookie = res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/hello")))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let echoed: serde_json::Value = res.json().await.unwrap();
        assert_eq!(echoed["path"], "/hello");
        // A viewer's token is refused (403: the web view needs execute).
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/hello")))
            .bearer_auth(&viewer.token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 403);
        // Stopped: no web view, and the proxy says it does not run.
        app.post(&format!("/v2/projects/stop/{id}"), Some(&owner.token), json!({}))
            .await;
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/hello")))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 503);
    }
}

/// Publishing an insight from a project's files (`POST /v1/applications` with `project_id`): the
/// Insight resource's source is the project's resource, and the project lists the app.
#[tokio::test]
async fn an_app_is_published_from_a_projects_files() {
    for app in crate::helpers::apps().await {
        let org = app.unique_org("Publish").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let id = app.project_with_files(&owner, "Publishing", &["app.py"]).await;
        let (status, body) = app
            .post(
                "/v1/applications",
                Some(&owner.token),
                json!({"application": {"name": "From project", "app_type": "application", "language": "python",
                                       "project_id": id, "publish_filenames": ["app.py"]}}),
            )
            .await;
        assert_eq!(status, 201, "{}: {body}", app.kind);
        let insight = body["application"]["id"].as_str().unwrap().to_owned();
        let (_, apps) = app
            .get(&format!("/v2/projects/getprojectapps/{id}"), &owner.token)
            .await;
        assert_eq!(apps["projectApps"][0]["id"], insight.as_str());
        let (project, row) = (
            db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap(),
            db::assets::by_id(&app.state.db, &insight).await.unwrap().unwrap(),
        );
        if let (Some(client), Some(ns), Some(name)) = (&app.state.kube, &row.namespace, &row.resource_name) {
            let cr = Api::<ludis_crds::Insight>::namespaced(client.clone(), ns)
                .get(name)
                .await
                .unwrap();
            let source = cr.spec.source.expect("a source");
            assert_eq!(Some(source.project), project.resource_name);
            assert_eq!(source.files, ["app.py"]);
        }
    }
}
