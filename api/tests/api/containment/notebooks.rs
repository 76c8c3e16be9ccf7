//! A collaborator in the owner's notebook server, attacked on the real node. A legacy project's
//! JupyterLab runs the cells of whoever opens it (execute access), in the pod that holds the
//! project's storage identity and its notebook token. As an executor of organization B's
//! notebook project:
//! - the owner's pod reaches the owner's dataset before (the control), and nothing of it once the
//!   executor's request went through: the pod reaches each dataset at the least level of its owner
//!   and of everyone whose code ran there;
//! - the owner's own requests are not recorded as another runner's (the control);
//! - while the executor keeps access the pod runs on (the control); a revoke restarts it within
//!   5 s, with a new notebook token — without any open connection of theirs (a `nohup` process,
//!   a kernel, a notebook terminal end with the pod).

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api,
    api::{Patch, PatchParams},
};
use ludis_api::{
    runners,
    storage_gateway::{
        grants::{self, Level},
        session::{Scope, Session},
    },
};

use super::storage::dataset;
use crate::{
    helpers::{apps_with, s3_settings},
    projects_streams::node_preview,
    proxy::console_origin,
};

/// A notebook server stand-in: answers every GET with a page (the proxy's upstream).
const SERVER: &str = "import http.server\nhttp.server.ThreadingHTTPServer(('', 8000), http.server.SimpleHTTPRequestHandler).serve_forever()";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collaborators_notebook_use_narrows_the_pod_and_ends_with_their_access() {
    let with_s3 = s3_settings()
        .expect("no object storage: dev/test.sh starts the S3 server and sets LUDIS_S3_ENDPOINT");
    let app = apps_with(move |s| {
        console_origin(s);
        with_s3(s);
    })
    .await
    .remove(0);
    let client =
        app.state.kube.clone().expect(
            "no cluster: this test runs on the real node (dev/test.sh starts it and sets KUBECONFIG)",
        );
    let org = app.unique_org("Notebook runners").await;
    let owner = app.person(&org, "developer", "Owner").await;
    let runner = app.person(&org, "developer", "Runner").await;
    let id = app.project(&owner, "Shared notebooks").await;
    sqlx::query("UPDATE projects SET flavour = 'notebook' WHERE id = $1")
        .bind(&id)
        .execute(&app.state.db)
        .await
        .unwrap();
    app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
    let asset = ludis_api::db::assets::by_id(&app.state.db, &id)
        .await
        .unwrap()
        .unwrap();
    let ns = asset.namespace.clone().expect("the project has a namespace");
    // The owner's dataset, which the executor was not given.
    dataset(&app, &org, &ns, &owner.uid, "owners-data", "secret.csv").await;

    // The notebook server runs, with the dataset referenced, and the project says where.
    let pod = node_preview(&app, &id, SERVER).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns);
    let annotate =
        serde_json::json!({"metadata": {"annotations": {ludis_crds::ANNOTATION_DATASETS: "owners-data"}}});
    let running = pods
        .patch(&pod, &PatchParams::default(), &Patch::Merge(&annotate))
        .await
        .unwrap();
    let ip = running
        .status
        .and_then(|s| s.pod_ip)
        .expect("the pod has an address");
    ludis_api::db::projects::set_running(
        &app.state.db,
        &id,
        true,
        ludis_api::domain::ProjectStatus::Running,
    )
    .await
    .unwrap();
    ludis_api::db::projects::set_observed(
        &app.state.db,
        &id,
        ludis_api::domain::ProjectStatus::Running,
        None,
        Some(&format!("http://{ip}:8000")),
    )
    .await
    .unwrap();
    ludis_api::projects::jupyter::renew(
        &app.state,
        &ludis_api::db::details::by_id(&app.state.db, &id)
            .await
            .unwrap()
            .unwrap(),
    )
    .await
    .unwrap();
    let token_before = ludis_api::projects::jupyter::token(&app.state, &id)
        .await
        .unwrap();
    let session = Session {
        namespace: ns.clone(),
        pod: pod.clone(),
        pod_uid: running.metadata.uid.clone().unwrap(),
        access_key_id: "ASIATESTNOTEBOOK0001".into(),
        scope: Scope::Datasets,
        expires_at: i64::MAX,
    };
    // The control: the owner's pod writes the owner's dataset.
    let reach = grants::of(&app.state, &session).await.unwrap();
    assert_eq!(reach.0.len(), 1, "{reach:?}");
    assert_eq!(reach.0[0].level, Level::Write);

    // The owner opens it: not someone else's code.
    let get = |token: String| {
        let url = app.url(&format!("/apps/{id}/"));
        async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    // Running is not listening yet: the server answers once Python has started it.
    crate::gitops::eventually("the notebook server answers its owner", || async {
        get(owner.token.clone()).await == 200
    })
    .await;
    assert!(runners::of(&pods.get(&pod).await.unwrap()).is_empty());

    // The executor opens it: recorded before the request reaches the server, and the pod now
    // reaches nothing of what the executor may not read.
    assert_eq!(get(runner.token.clone()).await, 200);
    let recorded = runners::of(&pods.get(&pod).await.unwrap());
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0].uid, runner.uid);
    assert_eq!(recorded[0].need, ludis_api::domain::AccessLevel::Execute);
    assert!(recorded[0].holds_identity());
    // Past the gateway's decision cache.
    tokio::time::sleep(grants::TTL).await;
    let reach = grants::of(&app.state, &session).await.unwrap();
    assert!(reach.0.is_empty(), "the pod still reaches {reach:?}");

    // The control: while the executor keeps access, sweeps leave the pod alone.
    tokio::time::sleep(runners::SWEEP_EVERY * 3).await;
    let still = pods.get(&pod).await.unwrap();
    assert_eq!(still.metadata.uid, running.metadata.uid);
    assert!(still.metadata.deletion_timestamp.is_none());

    // Revoked, with no connection of theirs open: the pod is restarted within 5 s, and the next
    // notebook server asks for another token.
    sqlx::query("DELETE FROM shares WHERE asset_id = $1 AND to_id = $2")
        .bind(&id)
        .bind(&runner.uid)
        .execute(&app.state.db)
        .await
        .unwrap();
    let revoked = Instant::now();
    loop {
        let p = pods.get_opt(&pod).await.unwrap();
        if p.is_none_or(|p| p.metadata.deletion_timestamp.is_some()) {
            break;
        }
        assert!(
            revoked.elapsed() < Duration::from_secs(5),
            "the pod outlived the revoke of someone who ran code in it"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let token_after = ludis_api::projects::jupyter::token(&app.state, &id)
        .await
        .unwrap();
    assert!(
        token_after.is_some() && token_after != token_before,
        "the notebook token was renewed"
    );
}
