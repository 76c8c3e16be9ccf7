//! The operator binary as it runs in a cluster: leader election between two replicas (only the
//! leader reconciles; the standby takes over when the leader stops or dies), and a crash in the
//! middle of reconciling that converges after restart with no duplicate children (the previews
//! run on the KWOK node: the point is the reconciles, at a scale the real node is not for).

use std::{
    process::{Child, Command, Stdio},
    time::Duration,
};

use k8s_openapi::api::{
    coordination::v1::Lease,
    core::v1::{PersistentVolumeClaim, Pod, Service},
};
use kube::{
    Api,
    api::{ListParams, PostParams},
};
use ludis_crds::{Project, ProjectSpec, project::ProjectPhase};
use ludis_operator::metrics::read;
use serde_json::json;

use common::{SYSTEM_NAMESPACE, TestNamespace, client, ensure_image_list, eventually, install_crds};

mod common;

/// One operator process; killed when dropped.
struct Operator {
    child: Child,
    port: u16,
}

impl Operator {
    fn spawn(identity: &str, lease: &str) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(env!("CARGO_BIN_EXE_ludis-operator"))
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--identity",
                identity,
                "--lease-name",
                lease,
            ])
            .args(["--lease-seconds", "4", "--system-namespace", SYSTEM_NAMESPACE])
            // Convergence of many previews is about reconciles, not workloads: they go to the
            // KWOK node (its taint tolerated, the real node's not).
            .args(["--workload-tolerations", "kwok.x-k8s.io/node"])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("the operator binary starts");
        Self { child, port }
    }

    /// The sum of a metric's samples (over every label set) on this replica's /metrics.
    async fn metric(&self, name: &str) -> Option<f64> {
        let text = reqwest::get(format!("http://127.0.0.1:{}/metrics", self.port))
            .await
            .ok()?
            .text()
            .await
            .ok()?;
        Some(read::sum(&read::parse(&text), name, |_| true))
    }

    /// Reconciles this replica has run.
    async fn reconciles(&self) -> Option<f64> {
        self.metric("ludis_operator_reconciles_total").await
    }

    fn signal(&self, signal: &str) {
        Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
    }
}

impl Drop for Operator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn holder(leases: &Api<Lease>, name: &str) -> Option<String> {
    leases.get_opt(name).await.ok()??.spec?.holder_identity
}

fn project(name: &str, running: bool) -> Project {
    let spec: ProjectSpec = serde_json::from_value(
        json!({"displayName": name, "image": "default-python", "preview": {"running": running}}),
    )
    .unwrap();
    Project::new(name, spec)
}

async fn wait_phase(api: &Api<Project>, name: &str, phase: ProjectPhase) {
    eventually(&format!("project {name} in phase {phase:?}"), || async {
        let p = api.get(name).await.ok()?;
        (p.status?.phase == Some(phase)).then_some(())
    })
    .await;
}

#[tokio::test]
async fn one_leader_reconciles_failover_works_and_a_crash_converges_without_duplicates() {
    let client = client().await;
    install_crds(&client).await;
    ensure_image_list(&client).await;
    let leases: Api<Lease> = Api::namespaced(client.clone(), SYSTEM_NAMESPACE);
    let lease = format!("it-operator-{}", std::process::id());

    // Two replicas: the first takes the Lease, the second stands by and does nothing.
    let a = Operator::spawn("replica-a", &lease);
    eventually("replica-a to lead", || async {
        (holder(&leases, &lease).await? == "replica-a").then_some(())
    })
    .await;
    let b = Operator::spawn("replica-b", &lease);
    eventually("replica-b to answer", || async { b.reconciles().await }).await;

    let ns = TestNamespace::new(&client, "it-op-ha").await;
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    projects
        .create(&PostParams::default(), &project("one", false))
        .await
        .unwrap();
    wait_phase(&projects, "one", ProjectPhase::Stopped).await;
    assert!(a.reconciles().await.unwrap() > 0.0, "the leader reconciles");
    assert_eq!(b.reconciles().await, Some(0.0), "the standby must not reconcile");
    assert_eq!(holder(&leases, &lease).await.as_deref(), Some("replica-a"));
    // Its metrics say so, and time what it did: the project's watch event waited for its
    // reconcile, and every call to the API server is counted.
    assert_eq!(a.metric("ludis_operator_leader").await, Some(1.0));
    assert_eq!(b.metric("ludis_operator_leader").await, Some(0.0));
    assert!(a.metric("ludis_operator_queue_wait_seconds_count").await.unwrap() > 0.0);
    assert_eq!(
        b.metric("ludis_operator_queue_wait_seconds_count").await,
        Some(0.0)
    );
    assert!(a.metric("ludis_operator_kube_requests_total").await.unwrap() > 0.0);
    assert!(
        a.metric("ludis_operator_kube_request_duration_seconds_count")
            .await
            .unwrap()
            > 0.0
    );

    // The leader stops (SIGTERM releases the Lease): the standby takes over at once.
    let stopped = std::time::Instant::now();
    a.signal("-TERM");
    eventually("replica-b to lead", || async {
        (holder(&leases, &lease).await? == "replica-b").then_some(())
    })
    .await;
    let failover = stopped.elapsed();
    assert!(
        failover < Duration::from_secs(4),
        "a released Lease is taken at once, took {failover:?}"
    );
    projects
        .create(&PostParams::default(), &project("two", false))
        .await
        .unwrap();
    wait_phase(&projects, "two", ProjectPhase::Stopped).await;
    assert!(b.reconciles().await.unwrap() > 0.0, "the new leader reconciles");
    assert_eq!(b.metric("ludis_operator_leader").await, Some(1.0));
    drop(a);

    // The leader dies (SIGKILL) in the middle of starting many previews; a new replica takes
    // over when the Lease expires and converges: exactly one pod, service and volume each.
    let names: Vec<String> = (0..12).map(|i| format!("crash-{i}")).collect();
    for name in &names {
        projects
            .create(&PostParams::default(), &project(name, true))
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.signal("-KILL");
    drop(b);
    let c = Operator::spawn("replica-c", &lease);
    for name in &names {
        wait_phase(&projects, name, ProjectPhase::Running).await;
    }
    assert_eq!(holder(&leases, &lease).await.as_deref(), Some("replica-c"));
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    let services: Api<Service> = Api::namespaced(client.clone(), &ns.name);
    let pvcs: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), &ns.name);
    for name in &names {
        let selector = ListParams::default().labels(&format!("ludis.dev/project={name}"));
        let live_pods = pods
            .list(&selector)
            .await
            .unwrap()
            .items
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count();
        assert_eq!(live_pods, 1, "{name} has exactly one preview pod");
        assert_eq!(
            services.list(&selector).await.unwrap().items.len(),
            1,
            "{name} has one service"
        );
        assert_eq!(
            pvcs.list(&selector).await.unwrap().items.len(),
            1,
            "{name} has one volume"
        );
    }
    drop(c);
}
