//! Idle shutdown (issue 34): a preview nobody used for its organization's idle time stops (its
//! resource asked to stop, as the Stop button does) and one in use through the proxy does not;
//! an idle app is marked for the operator to scale it to zero, and its next request through the
//! proxy wakes it; an app pinned always on (where the organization allows it) stays. The sweep
//! runs once at the real time: a workload's earlier start is written into its clock.

use kube::{Api, ResourceExt as _};
use ludis_api::{
    db,
    domain::{InsightStatus, ProjectStatus},
    idle::sweep,
};
use ludis_crds::{ANNOTATION_IDLE_SINCE, Insight, Project};
use serde_json::{Value, json};

use crate::{
    admin::superadmin,
    helpers::{TestApp, apps_with},
    proxy::{console_origin, no_redirects, upstream},
};

async fn project_cr(app: &TestApp, id: &str) -> Project {
    let a = db::assets::by_id(&app.state.db, id).await.unwrap().unwrap();
    let (namespace, name) = a.resource().expect("the project has a resource");
    Api::<Project>::namespaced(app.state.kube.clone().unwrap(), namespace)
        .get(name)
        .await
        .unwrap()
}

async fn insight_cr(app: &TestApp, id: &str) -> Insight {
    let a = db::assets::by_id(&app.state.db, id).await.unwrap().unwrap();
    let (namespace, name) = a.resource().expect("the app has a resource");
    Api::<Insight>::namespaced(app.state.kube.clone().unwrap(), namespace)
        .get(name)
        .await
        .unwrap()
}

/// `workload` was last used `ago` seconds before now (it started then, nobody came since; the
/// API forgets having written its clock at the start, as it does after 30 seconds).
async fn last_used(app: &TestApp, workload: &str, ago: i64) {
    db::idle::touch(&app.state.db, workload, db::now() - ago)
        .await
        .unwrap();
    app.state.idle.forget(workload);
}

#[tokio::test]
async fn an_idle_preview_stops_and_one_in_use_does_not() {
    for app in apps_with(console_origin).await {
        let k = app.kind;
        assert!(
            app.state.kube.is_some(),
            "a cluster (KUBECONFIG, set by dev/test.sh)"
        );
        let org = app.unique_org("Idle").await;
        let root = superadmin(&app, &org).await;
        let dev = app.person(&org, "developer", "Dev").await;

        // A superadmin sets the organization's idle time; nonsense is refused, saying what fits.
        for bad in [json!("soon"), json!(-1), json!(20000)] {
            let (status, body) = app
                .put(
                    &format!("/v1/organizations/{org}"),
                    &root,
                    json!({"organization": {"idle_minutes": bad}}),
                )
                .await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (
                    400,
                    Some("Idle shutdown must be a number of minutes from 0 (never) to 10080 (a week)")
                ),
                "{k}: {bad}"
            );
        }
        let (_, body) = app.get(&format!("/v1/organizations/{org}"), &root).await;
        assert_eq!(body["organization"]["idle_minutes"], 60, "{k}: the default");
        let (status, body) = app
            .put(
                &format!("/v1/organizations/{org}"),
                &root,
                json!({"organization": {"idle_minutes": 1}}),
            )
            .await;
        assert_eq!(status, 200, "{k}: {body}");
        assert_eq!(body["organization"]["idle_minutes"], 1, "{k}");

        // Two previews run; the console says when each stops if nobody uses it.
        let idle = app.project(&dev, "Forgotten").await;
        let used = app.project(&dev, "Busy").await;
        for id in [&idle, &used] {
            let (status, body) = app
                .post(&format!("/v2/projects/run/{id}"), Some(&dev.token), json!({}))
                .await;
            assert_eq!(status, 200, "{k}: {body}");
            let stops_at = body["preview"]["idle"]["stops_at"].as_i64().expect("a stop time");
            assert_eq!(body["preview"]["idle"]["idle_minutes"], 1, "{k}");
            assert!((stops_at - (db::now() + 60)).abs() <= 5, "{k}: {stops_at}");
        }
        // The first started two minutes ago and nobody came since; the second is used now,
        // through the proxy (the operator's observation: it runs and answers).
        last_used(&app, &idle, 120).await;
        last_used(&app, &used, 120).await;
        let base = upstream().await;
        db::projects::set_observed(&app.state.db, &used, ProjectStatus::Running, None, Some(&base))
            .await
            .unwrap();
        let res = no_redirects()
            .get(app.url(&format!("/apps/{used}/hello")))
            .bearer_auth(&dev.token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{k}");

        let swept = sweep::once(&app.state, db::now()).await.unwrap();
        assert!(swept.stopped.contains(&idle), "{k}: {swept:?}");
        assert!(!swept.stopped.contains(&used), "{k}: {swept:?}");
        assert!(
            !project_cr(&app, &idle).await.spec.preview.running,
            "{k}: asked to stop"
        );
        assert!(
            project_cr(&app, &used).await.spec.preview.running,
            "{k}: still asked to run"
        );
        let (_, body) = app.get(&format!("/v2/projects/check/{idle}"), &dev.token).await;
        assert_eq!(
            (&body["preview"]["running"], &body["preview"]["idle"]),
            (&json!(false), &Value::Null),
            "{k}"
        );

        // Run again: its clock starts over, and the next sweep leaves it.
        let (status, _) = app
            .post(&format!("/v2/projects/run/{idle}"), Some(&dev.token), json!({}))
            .await;
        assert_eq!(status, 200, "{k}");
        let swept = sweep::once(&app.state, db::now()).await.unwrap();
        assert!(!swept.stopped.contains(&idle), "{k}: {swept:?}");

        // An organization without an idle time stops nothing.
        app.put(
            &format!("/v1/organizations/{org}"),
            &root,
            json!({"organization": {"idle_minutes": 0}}),
        )
        .await;
        last_used(&app, &idle, 100_000).await;
        let swept = sweep::once(&app.state, db::now()).await.unwrap();
        assert!(!swept.stopped.contains(&idle), "{k}: {swept:?}");
        for id in [&idle, &used] {
            app.post(&format!("/v2/projects/stop/{id}"), Some(&dev.token), json!({}))
                .await;
        }
    }
}

#[tokio::test]
async fn an_idle_app_scales_to_zero_wakes_on_its_next_request_and_a_pinned_one_stays() {
    for app in apps_with(console_origin).await {
        let k = app.kind;
        assert!(
            app.state.kube.is_some(),
            "a cluster (KUBECONFIG, set by dev/test.sh)"
        );
        let org = app.unique_org("Idle apps").await;
        let root = superadmin(&app, &org).await;
        let dev = app.person(&org, "developer", "Dev").await;
        app.put(
            &format!("/v1/organizations/{org}"),
            &root,
            json!({"organization": {"idle_minutes": 5}}),
        )
        .await;
        let project = app.project_with_files(&dev, "Dash", &["app.py"]).await;
        let (status, body) = app
            .post(
                "/v1/applications",
                Some(&dev.token),
                json!({"application": {"name": "Dash", "description": "", "app_type": "application",
                    "project_id": project, "publish_filenames": ["app.py"]}}),
            )
            .await;
        assert_eq!(status, 201, "{k}: {body}");
        let id = body["application"]["id"].as_str().unwrap().to_owned();
        // The operator's observation: it runs and answers.
        let base = upstream().await;
        db::insights::set_observed(
            &app.state.db,
            &id,
            InsightStatus::Running,
            None,
            Some(&base),
            None,
        )
        .await
        .unwrap();
        let (_, body) = app.get(&format!("/v1/applications/{id}"), &dev.token).await;
        assert_eq!(body["application"]["idle"]["idle_minutes"], 5, "{k}: {body}");
        assert_eq!(body["application"]["always_on"], false, "{k}");

        // Nobody came for ten minutes: it is marked for the operator to scale it to zero.
        last_used(&app, &id, 600).await;
        let swept = sweep::once(&app.state, db::now()).await.unwrap();
        assert!(swept.idled.contains(&id), "{k}: {swept:?}");
        let cr = insight_cr(&app, &id).await;
        assert!(cr.annotations().contains_key(ANNOTATION_IDLE_SINCE), "{k}");
        assert!(cr.spec.running, "{k}: the owner's wish stays");

        // The operator scaled it to zero; the next request wakes it and waits for it.
        db::insights::set_observed(&app.state.db, &id, InsightStatus::Idle, None, Some(&base), None)
            .await
            .unwrap();
        let res = no_redirects()
            .get(app.url(&format!("/apps/{id}/hello")))
            .bearer_auth(&dev.token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 503, "{k}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "app_starting", "{k}: {body}");
        let cr = insight_cr(&app, &id).await;
        assert!(
            !cr.annotations().contains_key(ANNOTATION_IDLE_SINCE),
            "{k}: woken"
        );
        let clock = db::idle::get(&app.state.db, &id).await.unwrap().unwrap();
        assert!(
            clock.idled_at.is_none() && db::now() - clock.active_at < 10,
            "{k}: {clock:?}"
        );

        // Pinning it always on needs the organization's leave; once allowed, the sweep leaves it.
        let pin = json!({"entity": {"always_on": true}});
        let (status, body) = app
            .put(&format!("/v1/applications/{id}"), &dev.token, pin.clone())
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                403,
                Some(
                    "Your organization does not allow always-on apps. A Ludis administrator (superadmin) can allow them."
                )
            ),
            "{k}"
        );
        app.put(
            &format!("/v1/organizations/{org}"),
            &root,
            json!({"organization": {"allow_always_on": true}}),
        )
        .await;
        let (status, body) = app.put(&format!("/v1/applications/{id}"), &dev.token, pin).await;
        assert_eq!(status, 200, "{k}: {body}");
        assert_eq!(body["application"]["always_on"], true, "{k}");
        db::insights::set_observed(
            &app.state.db,
            &id,
            InsightStatus::Running,
            None,
            Some(&base),
            None,
        )
        .await
        .unwrap();
        last_used(&app, &id, 600).await;
        let swept = sweep::once(&app.state, db::now()).await.unwrap();
        assert!(!swept.idled.contains(&id), "{k}: {swept:?}");
        let (_, body) = app.get(&format!("/v1/applications/{id}"), &dev.token).await;
        assert_eq!(
            body["application"]["idle"],
            Value::Null,
            "{k}: no stop time when pinned"
        );
    }
}
