//! Organization namespaces and asset ownership against a real control plane (KUBECONFIG; the
//! test command starts one). Skipped, with a message, when no cluster is configured locally.

use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, PostParams},
};
use ludis_crds::{ANNOTATION_OWNER, Dataset};
use serde_json::json;

use crate::{
    helpers::{apps, cluster},
    pod_tokens::wait_until,
};

#[tokio::test]
async fn organizations_own_a_namespace_and_cannot_be_deleted_while_they_own_assets() {
    let Some(client) = cluster().await else {
        return;
    };
    let app = apps().await.remove(0);
    let home = app.org("Home", 10).await;
    app.user("root@ludis.example", "root-pass", "superadmin", &home)
        .await;
    let (root, _) = app.login("root@ludis.example", "root-pass").await;

    let name = format!("Cluster {}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let (s, b) = app
        .post("/v1/organizations", Some(&root), json!({"organization": {"name": name, "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}))
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["namespace_created"], true);
    let org = b["organization"]["id"].as_str().unwrap().to_owned();
    let namespace = b["organization"]["namespace"].as_str().unwrap().to_owned();
    let ns = Api::<Namespace>::all(client.clone())
        .get(&namespace)
        .await
        .expect("the namespace exists");
    assert_eq!(ns.labels()["ludis.dev/organization"], org);
    assert_eq!(ns.labels()["pod-security.kubernetes.io/enforce"], "restricted");

    // Two users and a dataset owned by one of them.
    let dev = app
        .user(&format!("dev@{org}.example"), "dev-pass", "developer", &org)
        .await;
    let admin = app
        .user(
            &format!("admin@{org}.example"),
            "admin-pass",
            "administrator",
            &org,
        )
        .await;
    let datasets: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
    let mut ds: Dataset = serde_json::from_value(json!({
        "apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
        "metadata": {"name": "sales", "annotations": {ANNOTATION_OWNER: dev}},
        "spec": {"displayName": "Sales", "deletionPolicy": "Retain"}
    }))
    .unwrap();
    ds = datasets.create(&PostParams::default(), &ds).await.unwrap();

    let (admin_token, _) = app.login(&format!("admin@{org}.example"), "admin-pass").await;
    let (s, b) = app
        .post(
            "/v1/auth/migrateEntityOwner",
            Some(&admin_token),
            json!({"entityType": "Dataset", "sourceUserId": dev, "destinationUserId": admin}),
        )
        .await;
    assert_eq!((s.as_u16(), b["migrated"].as_u64()), (200, Some(1)), "{b}");
    let moved = datasets.get(&ds.name_any()).await.unwrap();
    assert_eq!(moved.annotations()[ANNOTATION_OWNER], admin);

    let (s, b) = app.delete(&format!("/v1/organizations/{org}"), &root).await;
    assert_eq!(s, 409);
    assert_eq!(
        b["message"],
        format!(
            "{name} still owns 2 users, 1 dataset. Delete or move them before deleting the organization."
        )
    );
    ludis_api::db::users::delete(&app.state.db, &dev).await.unwrap();
    ludis_api::db::users::delete(&app.state.db, &admin).await.unwrap();
    let (s, b) = app.delete(&format!("/v1/organizations/{org}"), &root).await;
    assert_eq!(
        b["message"],
        format!("{name} still owns 1 dataset. Delete or move them before deleting the organization.")
    );
    assert_eq!(s, 409);
    datasets.delete("sales", &DeleteParams::default()).await.unwrap();
    for _ in 0..50 {
        if datasets.get_opt("sales").await.unwrap().is_none() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (s, b) = app.delete(&format!("/v1/organizations/{org}"), &root).await;
    assert_eq!(
        (s.as_u16(), b["message"].as_str()),
        (200, Some("Organization Deleted!")),
        "{b}"
    );
    let gone = Api::<Namespace>::all(client.clone())
        .get_opt(&namespace)
        .await
        .unwrap();
    assert!(
        gone.is_none_or(|n| n.metadata.deletion_timestamp.is_some()),
        "the namespace is deleted"
    );
}

/// The answer to an organization whose namespace would be the platform's own.
const RESERVED: &str = "This name is reserved for the platform. Please choose another name.";

#[tokio::test]
async fn an_organization_never_takes_a_namespace_it_did_not_make() {
    // The platform's namespace (the API's, its keys, the hosted git): refused by name, whatever
    // the spelling, with or without a cluster.
    for app in apps().await {
        let home = app.org("Home", 10).await;
        app.user("root@ludis.example", "root-pass", "superadmin", &home)
            .await;
        let (root, _) = app.login("root@ludis.example", "root-pass").await;
        for name in ["System", "  SYSTEM ", "system!"] {
            let (s, b) = app
                .post("/v1/organizations", Some(&root), json!({"organization": {"name": name, "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}))
                .await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (400, Some(RESERVED)),
                "{}: {name}: {b}",
                app.kind
            );
        }
        assert!(
            ludis_api::db::organizations::by_name(&app.state.db, "System")
                .await
                .unwrap()
                .is_none(),
            "{}: nothing was created",
            app.kind
        );
    }

    // A namespace `ludis-<slug>` that Ludis did not make for the organization is neither taken
    // (labelled, written) nor deleted with it.
    let Some(client) = cluster().await else {
        return;
    };
    let app = apps().await.remove(0);
    let home = app.org("Home", 10).await;
    app.user("root@ludis.example", "root-pass", "superadmin", &home)
        .await;
    let (root, _) = app.login("root@ludis.example", "root-pass").await;
    let name = format!("Foreign {}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let theirs = ludis_crds::organization_namespace(&ludis_api::cluster::organizations::slugify(&name));
    let namespaces = Api::<Namespace>::all(client.clone());
    let foreign: Namespace =
        serde_json::from_value(json!({"metadata": {"name": theirs, "labels": {"team": "someone-else"}}}))
            .unwrap();
    namespaces.create(&PostParams::default(), &foreign).await.unwrap();

    let (s, b) = app
        .post("/v1/organizations", Some(&root), json!({"organization": {"name": name, "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}))
        .await;
    assert_eq!(s, 201, "{b}");
    let org = b["organization"]["id"].as_str().unwrap().to_owned();
    let own = b["organization"]["namespace"].as_str().unwrap().to_owned();
    assert_ne!(own, theirs, "the organization got a namespace of its own");
    assert_eq!(
        namespaces.get(&own).await.unwrap().labels()["ludis.dev/organization"],
        org
    );
    let untouched = namespaces.get(&theirs).await.unwrap();
    assert_eq!(untouched.labels().get("ludis.dev/organization"), None);
    assert_eq!(untouched.labels()["team"], "someone-else");

    // Its namespace given to someone else meanwhile (relabelled): deleting the organization
    // leaves it, as it leaves the foreign one (the test above shows its own namespace deleted).
    let relabel = json!({"metadata": {"labels": {"ludis.dev/organization": "someone-else"}}});
    namespaces
        .patch(
            &own,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&relabel),
        )
        .await
        .unwrap();
    let (s, b) = app.delete(&format!("/v1/organizations/{org}"), &root).await;
    assert_eq!(
        (s.as_u16(), b["message"].as_str()),
        (200, Some("Organization Deleted!")),
        "{b}"
    );
    for ns in [&theirs, &own] {
        let kept = namespaces
            .get_opt(ns)
            .await
            .unwrap()
            .expect("the namespace is kept");
        assert!(kept.metadata.deletion_timestamp.is_none(), "{ns} is not deleted");
        namespaces.delete(ns, &DeleteParams::default()).await.unwrap();
    }
}

/// The recipients the operator may e-mail for an organization (its namespace's ConfigMap).
async fn mail_recipients(client: &kube::Client, namespace: &str) -> Option<String> {
    let map = Api::<k8s_openapi::api::core::v1::ConfigMap>::namespaced(client.clone(), namespace)
        .get_opt(ludis_crds::MAIL_RECIPIENTS_CONFIGMAP)
        .await
        .unwrap()?;
    map.data?.remove(ludis_crds::MAIL_RECIPIENTS_KEY)
}

#[tokio::test]
async fn an_organizations_namespace_lists_its_members_as_the_only_mail_recipients() {
    let client = cluster()
        .await
        .expect("no cluster: dev/test.sh starts one and sets KUBECONFIG");
    let app = apps().await.remove(0);
    let org = app.unique_org("Mail").await;
    let ann = app.person(&org, "developer", "Ann").await;
    let bob = app.person(&org, "developer", "Bob").await;
    let row = ludis_api::db::organizations::by_id(&app.state.db, &org)
        .await
        .unwrap()
        .unwrap();
    ludis_api::cluster::organizations::ensure_namespace_of(&app.state, &client, &row)
        .await
        .unwrap();
    let namespace = ludis_crds::organization_namespace(&row.slug);
    let mut expected: Vec<String> = [&ann.email, &bob.email]
        .iter()
        .map(|e| e.to_lowercase())
        .collect();
    expected.sort();
    let expected = expected.join("\n");
    wait_until("both members are the recipients", || async {
        mail_recipients(&client, &namespace).await.as_ref() == Some(&expected)
    })
    .await;

    // An address an administrator allowed is a recipient too.
    ludis_api::db::organizations::set_mail_allowlist(
        &app.state.db,
        &org,
        &["ops@partner.example".to_owned()],
    )
    .await
    .unwrap();
    let mut with_allowed: Vec<String> = expected.split('\n').map(str::to_owned).collect();
    with_allowed.push("ops@partner.example".into());
    with_allowed.sort();
    let with_allowed = with_allowed.join("\n");
    wait_until("the allowed address is a recipient", || async {
        mail_recipients(&client, &namespace).await.as_ref() == Some(&with_allowed)
    })
    .await;
    ludis_api::db::organizations::set_mail_allowlist(&app.state.db, &org, &[])
        .await
        .unwrap();

    // A member who leaves is no recipient any more.
    ludis_api::db::users::delete(&app.state.db, &bob.uid)
        .await
        .unwrap();
    let ann_only = ann.email.to_lowercase();
    wait_until("Bob is no recipient any more", || async {
        mail_recipients(&client, &namespace).await.as_ref() == Some(&ann_only)
    })
    .await;
    Api::<Namespace>::all(client)
        .delete(&namespace, &DeleteParams::default())
        .await
        .unwrap();
}
