//! A collaborator's terminal in the owner's preview, attacked on the real node: as an executor of
//! organization B's project (the owner's colleague), `env` shows none of the project's variables
//! (the API shows their values to editors only) and the workspace does not change — while the
//! owner's own terminal prints the variable and writes (the control); a process the executor
//! started with `nohup` runs (the control), and a revoke closes the terminal with 4403 within 5 s
//! and restarts the pod it ran in. The same after the terminal was closed is
//! [`super::notebooks`]'s (the pod's runners).

use tokio_tungstenite::tungstenite::{self, protocol::frame::coding::CloseCode};

use crate::{
    helpers::apps,
    projects_streams::{SECRET, next, node_preview, processes, typed, typed_in},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collaborators_terminal_holds_no_variable_and_ends_with_their_access_with_what_it_started() {
    let app = apps().await.remove(0);
    let client =
        app.state.kube.clone().expect(
            "no cluster: this test runs on the real node (dev/test.sh starts it and sets KUBECONFIG)",
        );
    let org = app.unique_org("Revoked shell").await;
    let owner = app.person(&org, "developer", "Owner").await;
    let runner = app.person(&org, "developer", "Runner").await;
    let id = app.project(&owner, "Shared shell").await;
    app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
    let pod = node_preview(&app, &id, "import time\ntime.sleep(3600)")
        .await
        .expect("the project has a resource");
    let asset = ludis_api::db::assets::by_id(&app.state.db, &id)
        .await
        .unwrap()
        .unwrap();
    let pods: kube::Api<k8s_openapi::api::core::v1::Pod> =
        kube::Api::namespaced(client, asset.namespace.as_deref().unwrap());
    let uid = pods.get(&pod).await.unwrap().metadata.uid;

    // The owner's terminal is the preview's own: the project's variables, a writable workspace.
    // The executor's holds no variable (the API hides their values below edit) and cannot
    // change the workspace.
    let owners = typed(
        &app,
        &id,
        &owner,
        "echo \"v=[$LUDIS_TEST_SECRET]\"; touch /workspace/mine && echo wrote-$((1+1))\n",
        "wrote-2",
    )
    .await;
    assert!(owners.contains(&format!("v=[{SECRET}]")), "{owners}");
    let theirs = typed(
        &app,
        &id,
        &runner,
        "echo \"v=[$LUDIS_TEST_SECRET]\"; touch /workspace/theirs; echo tried-$((1+1))\n",
        "tried-2",
    )
    .await;
    assert!(theirs.contains("v=[]") && !theirs.contains(SECRET), "{theirs}");
    assert!(theirs.contains("Read-only file system"), "{theirs}");

    // The executor starts a process that outlives its shell (nohup, in the background).
    let (mut socket, _) = typed_in(
        &app,
        &id,
        &runner,
        "nohup sleep 4321 >/dev/null 2>&1 & echo ludis-started-$((40+2))\n",
        "ludis-started-42",
    )
    .await;
    // The control: it runs (in the collaborators' shell, not in the preview's own container).
    assert!(
        processes(&pods, &pod, ludis_crds::PREVIEW_SHELL_CONTAINER)
            .await
            .contains("sleep 4321"),
        "the started process runs"
    );

    // Revoked: the terminal closes with 4403 within 5 s, and the pod the process ran in goes.
    sqlx::query("DELETE FROM shares WHERE asset_id = $1 AND to_id = $2")
        .bind(&id)
        .bind(&runner.uid)
        .execute(&app.state.db)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        match next(&mut socket).await {
            tungstenite::Message::Close(Some(frame)) => {
                assert_eq!(frame.code, CloseCode::from(4403));
                assert_eq!(frame.reason, "access revoked");
                break;
            }
            tungstenite::Message::Binary(_) | tungstenite::Message::Text(_) => {}
            other => panic!("expected a close after the revoke, got {other:?}"),
        }
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the terminal outlived the revoke by {:?}",
        started.elapsed()
    );
    crate::gitops::eventually("the pod of the revoked terminal is restarted", || async {
        match pods.get_opt(&pod).await.unwrap() {
            None => true,
            Some(p) => p.metadata.uid != uid || p.metadata.deletion_timestamp.is_some(),
        }
    })
    .await;
}
