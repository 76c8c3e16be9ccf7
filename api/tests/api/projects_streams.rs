//! The preview's websockets (issue 14): `/containerLogs` and `/terminalConnection` refuse a
//! missing token, a foreign Origin, too little access (403) and no access (404) before the
//! upgrade; an executor's session answers `ludis.v1`, says it waits for the container, and ends
//! with 4403 when the share is revoked. SQLite and PostgreSQL. With a cluster, a preview pod on
//! the real node: its last 100 log lines arrive in order, the terminal runs a command inside the
//! container, and once the pod is gone the newest archived log is served.

use reqwest::StatusCode;
use serde_json::Value;
use tokio_tungstenite::tungstenite::{self, protocol::frame::coding::CloseCode};

use crate::helpers::{Person, StreamSocket, TestApp, apps, open_stream};

pub(crate) type Socket = StreamSocket;

/// Opens a stream; the socket, or the HTTP status that refused it.
pub(crate) async fn open(
    app: &TestApp,
    path: &str,
    id: &str,
    who: Option<&Person>,
    origin: Option<&str>,
) -> Result<Socket, StatusCode> {
    open_stream(app, &format!("/{path}?id={id}&uid=ignored"), who, origin).await
}

/// The next frame that is not a ping.
pub(crate) async fn next(socket: &mut Socket) -> tungstenite::Message {
    use futures::StreamExt as _;
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(60), socket.next())
            .await
            .expect("a frame within 60 s");
        match frame.expect("a frame").expect("no error") {
            tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_) => continue,
            m => return m,
        }
    }
}

#[tokio::test]
async fn streams_check_the_caller_before_the_upgrade_and_end_when_access_is_revoked() {
    for app in apps().await {
        let org = app.unique_org("Streams").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let stranger = app.person(&org, "developer", "Stranger").await;
        let id = app.project(&owner, "Streamed").await;
        app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;
        let own_origin = app.address.clone();

        for path in ["containerLogs", "terminalConnection"] {
            assert_eq!(
                open(&app, path, &id, None, None).await.err(),
                Some(StatusCode::UNAUTHORIZED)
            );
            assert_eq!(
                open(&app, path, &id, Some(&runner), Some("http://evil.example"))
                    .await
                    .err(),
                Some(StatusCode::FORBIDDEN),
                "{path}: a foreign origin"
            );
            assert_eq!(
                open(&app, path, &id, Some(&viewer), Some(&own_origin))
                    .await
                    .err(),
                Some(StatusCode::FORBIDDEN),
                "{path}: view is not enough"
            );
            assert_eq!(
                open(&app, path, &id, Some(&stranger), Some(&own_origin))
                    .await
                    .err(),
                Some(StatusCode::NOT_FOUND),
                "{path}: no access"
            );
            // The executor is in; no preview runs, so the stream waits for it.
            let mut socket = open(&app, path, &id, Some(&runner), Some(&own_origin))
                .await
                .unwrap_or_else(|s| panic!("{} {path}: {s}", app.kind));
            let tungstenite::Message::Text(text) = next(&mut socket).await else {
                panic!("a status frame first");
            };
            let status: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                (status["type"].as_str(), status["status"].as_str()),
                (Some("status"), Some("waiting"))
            );
            // Revoking the share ends the session with 4403.
            sqlx::query("DELETE FROM shares WHERE asset_id = $1 AND to_id = $2")
                .bind(&id)
                .bind(&runner.uid)
                .execute(&app.state.db)
                .await
                .unwrap();
            match next(&mut socket).await {
                tungstenite::Message::Close(Some(frame)) => assert_eq!(frame.code, CloseCode::from(4403)),
                other => panic!("{path}: expected a close, got {other:?}"),
            }
            app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
        }

        // Signing out ends the caller's open streams with 4401, within the 2-second recheck.
        let mut socket = open(&app, "containerLogs", &id, Some(&runner), Some(&own_origin))
            .await
            .unwrap();
        assert!(matches!(next(&mut socket).await, tungstenite::Message::Text(_)));
        let (status, body) = app
            .post("/v1/auth/logout", Some(&runner.token), serde_json::json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        let started = std::time::Instant::now();
        match next(&mut socket).await {
            tungstenite::Message::Close(Some(frame)) => {
                assert_eq!(frame.code, CloseCode::from(4401), "{}", app.kind);
                assert_eq!(frame.reason, "signed out");
            }
            other => panic!("expected a close after the sign-out, got {other:?}"),
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{}: the stream outlived the sign-out by {:?}",
            app.kind,
            started.elapsed()
        );
    }
}

/// The reference of a local image of the real node (`LUDIS_IMAGE_REFS`, which dev/test.sh
/// exports from the node's `node.env`).
pub(crate) fn node_image(name: &str) -> String {
    let refs = std::env::var("LUDIS_IMAGE_REFS")
        .expect("LUDIS_IMAGE_REFS is not set: run the tests with dev/test.sh, which starts the real node");
    refs.split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no image {name} in LUDIS_IMAGE_REFS={refs}"))
        .to_owned()
}

/// The preview container's log as the API server gives it (what `kubectl logs` shows).
async fn pod_log(app: &TestApp, id: &str, pod: &str) -> String {
    use k8s_openapi::api::core::v1::Pod;
    let a = ludis_api::db::assets::by_id(&app.state.db, id)
        .await
        .unwrap()
        .unwrap();
    let pods: kube::Api<Pod> =
        kube::Api::namespaced(app.state.kube.clone().unwrap(), a.namespace.as_deref().unwrap());
    let params = kube::api::LogParams {
        container: Some("preview".into()),
        ..Default::default()
    };
    pods.logs(pod, &params).await.unwrap_or_default()
}

/// Lines the preview pod prints, in order, before it waits.
const LINES: usize = 300;

/// Creates the project's preview pod on the real node (what the operator would: the preview
/// container of the python image, restricted) running `program`, names it in the Project's
/// status, and waits until it runs.
/// A project variable's value in the test previews (the API shows it to editors only).
pub(crate) const SECRET: &str = "ludis-variable-value-4e1f";

pub(crate) async fn node_preview(app: &TestApp, id: &str, program: &str) -> Option<String> {
    use k8s_openapi::api::core::v1::Pod;
    use kube::{
        Api,
        api::{Patch, PatchParams, PostParams},
    };
    let client = app.state.kube.clone()?;
    let a = ludis_api::db::assets::by_id(&app.state.db, id).await.unwrap()?;
    let (ns, name) = (a.namespace?, a.resource_name?);
    let pod_name = format!("{name}-preview");
    let pod: Pod = serde_json::from_value(serde_json::json!({
        // The operator's labels, which its organization's policies select: the API reaches it.
        "metadata": {"name": pod_name, "labels": {ludis_crds::LABEL_PROJECT: name,
            "app.kubernetes.io/component": "preview", "app.kubernetes.io/managed-by": "ludis-operator"}},
        "spec": {
            "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
            "automountServiceAccountToken": false,
            "terminationGracePeriodSeconds": 1,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
            // As the operator's: the preview with the project's variables and its workspace,
            // and the shell of collaborators' terminals without them, the workspace read-only.
            "containers": [{"name": "preview", "image": node_image("python"),
                "args": ["python", "-u", "-c", program],
                "env": [{"name": "LUDIS_TEST_SECRET", "value": SECRET}],
                "volumeMounts": [{"name": "workspace", "mountPath": "/workspace"}],
                "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}},
              {"name": ludis_crds::PREVIEW_SHELL_CONTAINER, "image": node_image("python"),
                "args": ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 3600 & wait $!; done"],
                "volumeMounts": [{"name": "workspace", "mountPath": "/workspace", "readOnly": true}],
                "resources": {"requests": {"cpu": "10m", "memory": "32Mi"}, "limits": {"memory": "256Mi"}},
                "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}}],
            "volumes": [{"name": "workspace", "emptyDir": {}}]
        }
    }))
    .unwrap();
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns);
    pods.create(&PostParams::default(), &pod).await.unwrap();
    Api::<ludis_crds::Project>::namespaced(client, &ns)
        .patch_status(
            &name,
            &PatchParams::apply("ludis-operator").force(),
            &Patch::Apply(
                serde_json::json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Project",
                "status": {"phase": "Running", "previewPod": pod_name}}),
            ),
        )
        .await
        .unwrap();
    // As long as a start may take on a busy node (two containers, other tests' pods).
    crate::pod_tokens::wait_until("the preview pod runs on the real node", || async {
        pods.get(&pod_name)
            .await
            .ok()
            .and_then(|p| p.status?.phase)
            .is_some_and(|p| p == "Running")
    })
    .await;
    Some(pod_name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_and_a_shell_come_from_the_projects_own_pod() {
    // The archive part needs object storage (always there in CI).
    let Some(s3) = crate::helpers::s3_settings() else {
        return;
    };
    for app in crate::helpers::apps_with(s3).await {
        if app.state.kube.is_none() {
            eprintln!("no cluster: the pod streams are skipped");
            return;
        }
        let org = app.unique_org("Pod streams").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let id = app.project(&owner, "Kwok preview").await;
        let program = format!(
            "import time\nfor i in range({LINES}): print(f'ludis line {{i}}')\nprint('ludis: all printed')\ntime.sleep(3600)"
        );
        let pod = node_preview(&app, &id, &program)
            .await
            .expect("the project has a resource");

        // The log: the running status, then the container's own lines, in order (the last 100
        // of them, as the contract says, once the program has printed them all).
        crate::gitops::eventually("the program printed every line", || async {
            let logs = pod_log(&app, &id, &pod).await;
            logs.contains("ludis: all printed")
        })
        .await;
        let mut socket = open(&app, "containerLogs", &id, Some(&owner), None)
            .await
            .unwrap();
        let tungstenite::Message::Text(first) = next(&mut socket).await else {
            panic!("a status frame first")
        };
        assert!(first.contains("\"running\""), "{first}");
        let mut lines = Vec::new();
        while lines.len() < 100 {
            let tungstenite::Message::Text(line) = next(&mut socket).await else {
                panic!("a log line")
            };
            lines.push(line.trim_end().to_owned());
        }
        let expected: Vec<String> = (LINES - 99..LINES)
            .map(|i| format!("ludis line {i}"))
            .chain(["ludis: all printed".to_owned()])
            .collect();
        assert_eq!(lines, expected, "{}: the last 100 lines, in order", app.kind);

        // The terminal: a command typed in runs inside the container: its hostname is the pod's
        // name and its user the restricted uid.
        let mut socket = open(&app, "terminalConnection", &id, Some(&owner), None)
            .await
            .unwrap();
        use futures::SinkExt as _;
        socket
            .send(tungstenite::Message::Text(
                r#"{"type":"resize","cols":100,"rows":30}"#.into(),
            ))
            .await
            .unwrap();
        socket
            .send(tungstenite::Message::Binary(
                b"echo ludis-$((6*7))-$(hostname)-$(id -u)\n".to_vec().into(),
            ))
            .await
            .unwrap();
        let mut seen = String::new();
        let echoed = format!("ludis-42-{pod}-1000");
        while !seen.contains(&echoed) {
            match next(&mut socket).await {
                tungstenite::Message::Binary(b) => seen.push_str(&String::from_utf8_lossy(&b)),
                tungstenite::Message::Close(c) => panic!("closed before the echo: {c:?}; saw {seen:?}"),
                _ => {}
            }
        }
        drop(socket);

        // Once the pod is gone (and the preview is not asked to run), the log view shows the
        // newest archive, written here where the operator's log archiver writes it.
        let archived = archive_and_delete(&app, &org, &id, &pod).await;
        let mut socket = open(&app, "containerLogs", &id, Some(&owner), None)
            .await
            .unwrap();
        let mut frames = Vec::new();
        loop {
            match next(&mut socket).await {
                tungstenite::Message::Text(t) => frames.push(t.to_string()),
                tungstenite::Message::Close(c) => {
                    assert_eq!(c.map(|c| c.code), Some(CloseCode::Normal));
                    break;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(
            frames,
            [r#"{"type":"status","status":"ended"}"#.to_owned()]
                .into_iter()
                .chain(archived)
                .collect::<Vec<_>>(),
            "{}",
            app.kind
        );
    }
}

/// The command lines of the processes of `pod`'s `container`, one a line.
pub(crate) async fn processes(
    pods: &kube::Api<k8s_openapi::api::core::v1::Pod>,
    pod: &str,
    container: &str,
) -> String {
    use tokio::io::AsyncReadExt as _;
    let script = r#"for p in /proc/[0-9]*; do tr '\0' ' ' < "$p/cmdline" 2>/dev/null; echo; done"#;
    let mut attached = pods
        .exec(
            pod,
            ["sh", "-c", script],
            &kube::api::AttachParams::default()
                .container(container)
                .stdout(true)
                .stderr(false),
        )
        .await
        .unwrap();
    let mut out = String::new();
    attached.stdout().unwrap().read_to_string(&mut out).await.unwrap();
    attached.join().await.unwrap();
    out
}

/// What `who`'s terminal prints for `input`, until `until` appears.
pub(crate) async fn typed(app: &TestApp, id: &str, who: &Person, input: &str, until: &str) -> String {
    typed_in(app, id, who, input, until).await.1
}

/// [`typed`], and the terminal, still open.
pub(crate) async fn typed_in(
    app: &TestApp,
    id: &str,
    who: &Person,
    input: &str,
    until: &str,
) -> (Socket, String) {
    use futures::SinkExt as _;
    let mut socket = open(app, "terminalConnection", id, Some(who), None)
        .await
        .unwrap();
    // As the console does when the terminal opens.
    socket
        .send(tungstenite::Message::Text(
            r#"{"type":"resize","cols":100,"rows":30}"#.into(),
        ))
        .await
        .unwrap();
    socket
        .send(tungstenite::Message::Binary(input.as_bytes().to_vec().into()))
        .await
        .unwrap();
    let mut seen = String::new();
    while !seen.contains(until) {
        match next(&mut socket).await {
            tungstenite::Message::Binary(b) => seen.push_str(&String::from_utf8_lossy(&b)),
            tungstenite::Message::Close(c) => panic!("closed before {until:?}: {c:?}; saw {seen:?}"),
            _ => {}
        }
    }
    (socket, seen)
}

/// Writes two runs' archives of the project's preview log (the newer one last), deletes its pod,
/// and waits until it is gone; the newer run's lines.
async fn archive_and_delete(app: &TestApp, org: &str, id: &str, pod: &str) -> Vec<String> {
    use k8s_openapi::api::core::v1::Pod;
    use ludis_storage::logs::{LogOwner, write};
    let a = ludis_api::db::assets::by_id(&app.state.db, id)
        .await
        .unwrap()
        .unwrap();
    let (ns, name) = (a.namespace.unwrap(), a.resource_name.unwrap());
    let s3 = app.state.s3.clone().expect("tests run with object storage");
    let bucket = ludis_api::cluster::organizations::bucket_of(&app.state, org)
        .await
        .unwrap();
    ludis_storage::ensure_bucket(&s3, &bucket).await.unwrap();
    let owner = LogOwner::Project(name);
    write(
        &s3,
        &bucket,
        &owner.key(&ns, 100, "older", "preview"),
        b"old run\n".to_vec(),
    )
    .await
    .unwrap();
    write(
        &s3,
        &bucket,
        &owner.key(&ns, 200, "newer", "preview"),
        b"ludis line 298\nludis: all printed\n".to_vec(),
    )
    .await
    .unwrap();
    let pods: kube::Api<Pod> = kube::Api::namespaced(app.state.kube.clone().unwrap(), &ns);
    pods.delete(pod, &Default::default()).await.unwrap();
    crate::gitops::eventually("the preview pod is gone", || async {
        matches!(pods.get_opt(pod).await, Ok(None))
    })
    .await;
    vec!["ludis line 298".into(), "ludis: all printed".into()]
}
