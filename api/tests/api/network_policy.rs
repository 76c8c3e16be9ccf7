//! The organization NetworkPolicy (`LUDIS_ORG_NETWORK_POLICY`) against a real control plane:
//! applied to a new organization's namespace when on and absent when off; at start, applied to
//! every existing organization's namespace when on, and removed when off. (The local node's
//! bridge CNI does not enforce NetworkPolicies; what they allow is unit-tested in
//! `cluster/network_policy.rs`.) Skipped, with a message, when no cluster is configured locally.

use std::time::{Duration, Instant};

use k8s_openapi::api::networking::v1::NetworkPolicy;
use kube::Api;
use ludis_api::Settings;
use serde_json::json;

use crate::helpers::{TestApp, apps_with, cluster, spawn_app_with, unique};

/// A superadmin's token on `app`.
async fn superadmin(app: &TestApp) -> String {
    let home = app.org(&unique("Home"), 10).await;
    let email = format!(
        "root-{}@ludis.example",
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    app.user(&email, "root-pass", "superadmin", &home).await;
    app.login(&email, "root-pass").await.0
}

/// Creates an organization through the API; returns its namespace.
async fn organization(app: &TestApp, root: &str) -> String {
    let (s, b) = app
        .post(
            "/v1/organizations",
            Some(root),
            json!({"organization": {"name": unique("Fenced"), "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["namespace_created"], true);
    b["organization"]["namespace"].as_str().unwrap().to_owned()
}

/// Waits until the policy in `namespace` is there (or gone).
async fn until_policy(policies: &Api<NetworkPolicy>, there: bool) -> Option<NetworkPolicy> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let found = policies.get_opt("ludis-default").await.unwrap();
        if found.is_some() == there {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "the policy is still {}",
            if there { "absent" } else { "there" }
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn organization_namespaces_get_the_network_policy_only_when_it_is_on() {
    let Some(client) = cluster().await else {
        return;
    };
    let on = |s: &mut Settings| {
        s.org_network_policy = true;
        s.org_network_egress_cidrs = "10.0.5.0/24".parse().unwrap();
    };

    // On: a new organization's namespace has it.
    let app = apps_with(on).await.remove(0);
    let root = superadmin(&app).await;
    let namespace = organization(&app, &root).await;
    let policies: Api<NetworkPolicy> = Api::namespaced(client.clone(), &namespace);
    let policy = policies
        .get("ludis-default")
        .await
        .expect("the policy is applied");
    let spec = serde_json::to_value(policy.spec.unwrap()).unwrap();
    assert_eq!(spec["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(spec["podSelector"], json!({}));
    assert_eq!(
        spec["ingress"][0]["from"][0]["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"],
        app.state.settings.system_namespace
    );
    assert_eq!(
        spec["egress"][3]["to"],
        json!([{"ipBlock": {"cidr": "10.0.5.0/24"}}])
    );
    let managers: Vec<_> = policy
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .filter_map(|f| f.manager)
        .collect();
    assert_eq!(managers, ["ludis-api"]);

    // Off: none.
    let off = apps_with(|_| {}).await.remove(0);
    let off_root = superadmin(&off).await;
    let bare = organization(&off, &off_root).await;
    let bare_policies: Api<NetworkPolicy> = Api::namespaced(client.clone(), &bare);
    assert!(bare_policies.get_opt("ludis-default").await.unwrap().is_none());

    // Turned on, a start applies it to the existing namespace; turned off again, a start removes
    // it. (The other API keeps serving meanwhile, on the same database.)
    let restart = |policy: bool| {
        let mut settings = (*off.state.settings).clone();
        settings.org_network_policy = policy;
        spawn_app_with(move |_| settings)
    };
    let _on_again = restart(true).await;
    until_policy(&bare_policies, true).await;
    let _off_again = restart(false).await;
    until_policy(&bare_policies, false).await;
    // The first organization's policy is not this database's to remove.
    assert!(policies.get_opt("ludis-default").await.unwrap().is_some());
}
