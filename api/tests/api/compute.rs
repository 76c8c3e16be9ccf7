//! Compute usage (issue 34): an organization's administrators see the CPU-hours and memory-hours
//! its workloads set aside over a period, per user and per item, from its pods as the sampler
//! records them; nobody else does.

use k8s_openapi::api::core::v1::Pod;
use ludis_api::{compute, db};
use serde_json::json;

use crate::helpers::apps;

/// A pod of project resource `project` that started `ago` seconds before now and runs, setting
/// aside 500m of CPU and 1 GiB of memory.
fn preview_pod(uid: &str, project: &str, ago: i64) -> Pod {
    let started = db::rfc3339(db::now() - ago);
    serde_json::from_value(json!({
        "metadata": {"name": "preview", "uid": uid, "labels": {"ludis.dev/project": project}},
        "spec": {"containers": [{"name": "preview", "image": "x",
            "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "startTime": started}
    }))
    .unwrap()
}

#[tokio::test]
async fn administrators_see_the_hours_their_organizations_workloads_set_aside() {
    for app in apps().await {
        let k = app.kind;
        let org = app.unique_org("Compute").await;
        let admin = app.person(&org, "administrator", "Admin").await;
        let dev = app.person(&org, "developer", "Dev").await;
        let project = app.project(&dev, "Trainer").await;
        let a = db::assets::by_id(&app.state.db, &project).await.unwrap().unwrap();
        let (namespace, name) = a.resource().expect("the project has a resource");

        // Two hours of a preview, sampled now (and again: the record only moves on).
        let pod = preview_pod("pod-1", name, 7200);
        for _ in 0..2 {
            let run = compute::run_of(&app.state, &org, namespace, &pod, db::now())
                .await
                .unwrap()
                .expect("a running pod");
            db::compute::record(&app.state.db, &run).await.unwrap();
        }
        let path = format!("/v1/organizations/{org}/compute?period=day");
        let (status, body) = app.get(&path, &admin.token).await;
        assert_eq!(status, 200, "{k}: {body}");
        let close = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 0.02;
        assert!(close(&body["total"]["cpu_hours"], 1.0), "{k}: {body}");
        assert!(close(&body["total"]["memory_gib_hours"], 2.0), "{k}: {body}");
        assert_eq!(body["items"][0]["id"], project.as_str(), "{k}");
        assert_eq!(body["items"][0]["name"], "Trainer", "{k}");
        assert_eq!(body["items"][0]["kind"], "project", "{k}");
        assert_eq!(body["users"][0]["id"], dev.uid.as_str(), "{k}");
        assert_eq!(body["users"][0]["email"], dev.email.as_str(), "{k}");
        assert!(close(&body["users"][0]["cpu_hours"], 1.0), "{k}: {body}");

        // Only its administrators; another organization's is not there at all; a period is one
        // of four.
        let (status, _) = app.get(&path, &dev.token).await;
        assert_eq!(status, 403, "{k}");
        let other = app.unique_org("Other compute").await;
        let stranger = app.person(&other, "administrator", "Stranger").await;
        let (status, _) = app.get(&path, &stranger.token).await;
        assert_eq!(status, 404, "{k}");
        let (status, body) = app
            .get(
                &format!("/v1/organizations/{org}/compute?period=decade"),
                &admin.token,
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Period must be one of day, week, month, year")),
            "{k}"
        );
        // The other organization used nothing.
        let (_, body) = app
            .get(&format!("/v1/organizations/{other}/compute"), &stranger.token)
            .await;
        assert_eq!(body["total"]["cpu_hours"], 0.0, "{k}");
        assert_eq!(body["items"], json!([]), "{k}");
    }
}
