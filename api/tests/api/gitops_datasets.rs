//! Dataset resources applied with kubectl or a GitOps tool, and the ones the API applies
//! (`cluster::datasets`), against a real control plane (KUBECONFIG; the test command starts
//! one). Skipped, with a message, when no cluster is configured locally. The tests write the
//! status the operator would (an operator may run against the same cluster, so a status check
//! waits for the row to show whatever the resource's status says last), and a deletion is held by
//! a finalizer of the test's own.

use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, Patch, PatchParams},
};
use ludis_api::domain::AssetKind;
use ludis_api::{cluster, db};
use ludis_crds::{ANNOTATION_OWNER, Dataset, FIELD_MANAGER_API, LABEL_ID};
use serde_json::{Value, json};

use crate::{
    gitops::{eventually, gitops_apply, operator_status, user},
    helpers::{TestApp, apps, cluster, unique},
};

const GITOPS: &str = "gitops-e2e";
/// A finalizer of the tests' own, to see a resource while it is being deleted.
const HOLD: &str = "ludis.dev/e2e-hold";

/// An organization with a unique name (no namespace yet); returns (org id, slug, namespace).
async fn organization(app: &TestApp, prefix: &str) -> (String, String, String) {
    let name = unique(prefix);
    let org = app.org(&name, 20).await;
    let slug = name.to_lowercase().replace(' ', "-");
    let namespace = ludis_crds::organization_namespace(&slug);
    (org, slug, namespace)
}

/// [`organization`] with its namespace, as the API makes it.
async fn organization_with_namespace(
    app: &TestApp,
    client: &kube::Client,
    prefix: &str,
) -> (String, String, String) {
    let (org, slug, namespace) = organization(app, prefix).await;
    let bucket = cluster::organizations::bucket_of(&app.state, &org).await.unwrap();
    ludis_api::cluster::organizations::ensure_namespace(client, &namespace, &org, &bucket)
        .await
        .unwrap();
    (org, slug, namespace)
}

fn condition(type_: &str, status: &str, reason: &str, message: &str) -> Value {
    json!({"type": type_, "status": status, "reason": reason, "message": message,
           "lastTransitionTime": "2026-01-01T00:00:00Z"})
}

/// The dataset row of a resource, once the watcher wrote it (10 s at most).
async fn mirrored(app: &TestApp, namespace: &str, name: &str) -> db::datasets::Dataset {
    for _ in 0..100 {
        if let Some(a) = db::assets::by_resource(&app.state.db, AssetKind::Dataset, namespace, name)
            .await
            .unwrap()
        {
            return db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, &a.id)
                .await
                .unwrap()
                .unwrap();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{namespace}/{name} is not mirrored within 10 s ({})", app.kind);
}

async fn row(app: &TestApp, id: &str) -> Option<db::datasets::Dataset> {
    db::details::by_id::<db::datasets::DatasetRow>(&app.state.db, id)
        .await
        .unwrap()
}

/// Pure: the row's observed columns as the resource's status says they should be (once it has
/// a status).
fn expected(cr: &Dataset) -> Option<(String, i64, i64)> {
    let s = cr.status.as_ref()?;
    let on = |t: &str| s.conditions.iter().any(|c| c.type_ == t && c.status == "True");
    let status = if on("Degraded") {
        "failed"
    } else if on("Ready") {
        "ready"
    } else {
        "pending"
    };
    Some((status.into(), s.object_count.unwrap_or(0), s.bytes.unwrap_or(0)))
}

/// Waits until the row shows the resource's ready status and usage, whoever wrote it last (this
/// test, or an operator running beside it).
async fn follows_status(app: &TestApp, api: &Api<Dataset>, name: &str, id: &str) {
    eventually("the row shows the resource's status", || async {
        let Some(want) = expected(&api.get(name).await.unwrap()) else {
            return false;
        };
        let d = row(app, id).await.unwrap().details;
        want.0 == "ready" && (d.status.to_string(), d.object_count, d.bytes) == want
    })
    .await;
}

/// Holds (or releases) a resource with the tests' finalizer, under a manager of its own.
async fn hold(api: &Api<Dataset>, name: &str, held: bool) {
    let finalizers: Vec<&str> = if held { vec![HOLD] } else { vec![] };
    api.patch(
        name,
        &PatchParams::apply("e2e-hold").force(),
        &Patch::Apply(json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
            "metadata": {"name": name, "finalizers": finalizers}})),
    )
    .await
    .unwrap();
}

/// Deletes the namespace's datasets (an operator's finalizer is given 5 s, then dropped: the
/// operator may have stopped) and the namespace.
async fn delete_namespace(client: &kube::Client, namespace: &str) {
    let api: Api<Dataset> = Api::namespaced(client.clone(), namespace);
    let _ = api
        .delete_collection(&DeleteParams::default(), &ListParams::default())
        .await;
    for _ in 0..50 {
        if api
            .list(&ListParams::default())
            .await
            .is_ok_and(|l| l.items.is_empty())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if let Ok(left) = api.list(&ListParams::default()).await {
        for d in left.items {
            let _ = api
                .patch(
                    &d.name_any(),
                    &PatchParams::default(),
                    &Patch::Merge(json!({"metadata": {"finalizers": null}})),
                )
                .await;
        }
    }
    crate::gitops::delete_namespace(client, namespace).await;
}

#[tokio::test]
async fn a_gitops_dataset_appears_with_its_owner_sharing_and_the_operators_status() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization_with_namespace(&app, &client, "Gds Git").await;
        let (owner, owner_token) = user(&app, &format!("owner@{slug}.example"), "developer", &org).await;
        let (viewer, _) = user(&app, &format!("viewer@{slug}.example"), "developer", &org).await;
        let (runner, _) = user(&app, &format!("runner@{slug}.example"), "developer", &org).await;
        let (editor, _) = user(&app, &format!("editor@{slug}.example"), "developer", &org).await;
        let id = uuid::Uuid::new_v4().to_string();
        let datasets: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &datasets,
            GITOPS,
            &json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                "metadata": {"name": "sales", "labels": {LABEL_ID: id},
                             // The owner by e-mail, in another case.
                             "annotations": {ANNOTATION_OWNER: format!("Owner@{slug}.example")}},
                "spec": {"displayName": "Sales", "description": "From Git", "deletionPolicy": "Delete",
                         "sharing": {
                             "users": [{"email": format!("viewer@{slug}.example"), "level": "view"},
                                       {"email": format!("RUNNER@{slug}.example"), "level": "execute"},
                                       {"email": format!("editor@{slug}.example"), "level": "edit"}],
                             "organization": "execute"}}
            }),
        )
        .await;

        // The row: the label's id, origin resource, the owner, the fields, where the objects are.
        let d = mirrored(&app, &namespace, "sales").await;
        assert_eq!(d.asset.id, id, "{}", app.kind);
        assert_eq!(d.asset.kind, "dataset");
        assert_eq!(d.asset.origin, "resource");
        assert!(d.asset.is_managed());
        assert_eq!(d.asset.organization_id, org);
        assert_eq!(d.asset.owner_uid.as_deref(), Some(owner.as_str()));
        assert_eq!(d.asset.name, "Sales");
        assert_eq!(d.asset.description, "From Git");
        assert_eq!(d.details.deletion_policy, "Delete");
        // Pending until an operator reports (one running beside this test may have already).
        assert!(
            ["pending", "ready"].contains(&d.details.status.as_str()),
            "{}",
            d.details.status
        );
        assert_eq!(d.details.bucket, app.state.settings.s3_bucket);
        assert_eq!(d.details.prefix, format!("datasets/{namespace}/{id}/"));
        assert_eq!(d.details.sample, None);

        // spec.sharing → managed entries; execute counts as view for a dataset.
        let shares = db::shares::for_asset(&app.state.db, &id).await.unwrap();
        let level_of = |to_type: &str, to_id: &str| {
            shares
                .iter()
                .find(|s| s.to_type == to_type && s.to_id == to_id)
                .map(|s| (s.level.as_str(), s.is_managed()))
        };
        assert_eq!(level_of("user", &viewer), Some(("view", true)), "{shares:?}");
        assert_eq!(level_of("user", &runner), Some(("view", true)), "{shares:?}");
        assert_eq!(level_of("user", &editor), Some(("edit", true)), "{shares:?}");
        assert_eq!(level_of("organization", &org), Some(("view", true)), "{shares:?}");
        assert_eq!(shares.len(), 4, "{shares:?}");

        let (s, list) = app
            .get("/v1/datasets/listdatasets?filter=owned", &owner_token)
            .await;
        assert_eq!(s, 200, "{list}");
        let item = list["datasets"]
            .as_array()
            .and_then(|a| a.iter().find(|i| i["id"] == id.as_str()))
            .unwrap_or_else(|| panic!("{} owned list: {list}", app.kind))
            .clone();
        assert_eq!(item["name"], "Sales");
        assert_eq!(item["managed"], true);
        assert_eq!(item["is_owner"], true);
        assert!(
            ["pending", "ready"].contains(&item["status"].as_str().unwrap_or_default()),
            "{item}"
        );

        // The operator's status reaches the row; a status change is not an edit.
        let before = row(&app, &id).await.unwrap();
        operator_status(
            &datasets,
            "sales",
            "Dataset",
            json!({"bucket": app.state.settings.s3_bucket, "prefix": format!("datasets/{namespace}/{id}/"),
                   "objectCount": 3, "bytes": 1234,
                   "conditions": [condition("Ready", "True", "Available", "ok"),
                                  condition("Degraded", "False", "AsExpected", "")]}),
        )
        .await;
        follows_status(&app, &datasets, "sales", &id).await;
        let after = row(&app, &id).await.unwrap();
        assert_eq!(
            after.asset.updated_at, before.asset.updated_at,
            "a status change is not an edit"
        );
        assert_eq!(after.details.status_message, None);

        // Removing an entry from spec.sharing removes that access; a new name reaches the row.
        gitops_apply(
            &datasets,
            GITOPS,
            &json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                "metadata": {"name": "sales", "labels": {LABEL_ID: id},
                             "annotations": {ANNOTATION_OWNER: owner}},
                "spec": {"displayName": "Sales 2", "deletionPolicy": "Retain",
                         "sharing": {"users": [{"email": format!("editor@{slug}.example"), "level": "edit"}]}}
            }),
        )
        .await;
        eventually("the new manifest reaches the row", || async {
            let d = row(&app, &id).await.unwrap();
            d.asset.name == "Sales 2" && d.details.deletion_policy == "Retain"
        })
        .await;
        let shares = db::shares::for_asset(&app.state.db, &id).await.unwrap();
        assert_eq!(shares.len(), 1, "{shares:?}");
        assert_eq!(shares[0].to_id, editor);

        // Deleting: while a finalizer holds the resource (the operator's, while it deals with the
        // objects) the row shows `deleting`; once the resource is gone the row goes.
        hold(&datasets, "sales", true).await;
        datasets.delete("sales", &DeleteParams::default()).await.unwrap();
        eventually("the row shows the deletion", || async {
            row(&app, &id).await.unwrap().details.status == "deleting"
        })
        .await;
        hold(&datasets, "sales", false).await;
        eventually("the row goes with its resource", || async {
            row(&app, &id).await.is_none()
        })
        .await;
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn a_dataset_resource_being_deleted_never_makes_a_row_and_a_copied_id_is_not_mirrored() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (_, _, namespace) = organization_with_namespace(&app, &client, "Gds Odd").await;
        let datasets: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
        let manifest = |name: &str, labels: Value, finalizers: Value| {
            json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                "metadata": {"name": name, "labels": labels, "finalizers": finalizers},
                "spec": {"displayName": name}
            })
        };
        // Without a label the id is the resource's uid, and so is the prefix (the operator's).
        gitops_apply(&datasets, GITOPS, &manifest("first", json!({}), json!([]))).await;
        let first = mirrored(&app, &namespace, "first").await;
        let uid = datasets.get("first").await.unwrap().uid().unwrap();
        assert_eq!(first.asset.id, uid);
        assert_eq!(first.details.prefix, format!("datasets/{namespace}/{uid}/"));
        assert_eq!(first.asset.owner_uid, None, "no owner: the administrators'");

        // A copy carrying first's id would show first's objects: not mirrored. One held by a
        // finalizer and being deleted makes no row either. A later resource is mirrored, so the
        // watcher has seen both.
        gitops_apply(
            &datasets,
            GITOPS,
            &manifest("copy", json!({LABEL_ID: first.asset.id}), json!([])),
        )
        .await;
        gitops_apply(&datasets, GITOPS, &manifest("leaving", json!({}), json!([HOLD]))).await;
        // Quickly deleted: the watcher may or may not see it before; either way no row stays.
        datasets
            .delete("leaving", &DeleteParams::default())
            .await
            .unwrap();
        gitops_apply(&datasets, GITOPS, &manifest("later", json!({}), json!([]))).await;
        mirrored(&app, &namespace, "later").await;
        for name in ["copy", "leaving"] {
            let found = db::assets::by_resource(&app.state.db, AssetKind::Dataset, &namespace, name)
                .await
                .unwrap();
            if name == "leaving" {
                // A row made before the delete shows `deleting`, never a live dataset.
                if let Some(a) = found {
                    eventually("the row of a resource being deleted shows it", || async {
                        row(&app, &a.id).await.unwrap().details.status == "deleting"
                    })
                    .await;
                }
            } else {
                assert!(found.is_none(), "{name} ({}): {found:?}", app.kind);
            }
        }
        datasets
            .patch(
                "leaving",
                &PatchParams::apply(GITOPS).force(),
                &Patch::Apply(manifest("leaving", json!({}), json!([]))),
            )
            .await
            .unwrap();
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn the_api_applies_its_datasets_fields_and_a_gitops_change_to_them_is_a_conflict() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        // No namespace yet: the API's apply creates it, with the organization's bucket.
        let (org, slug, namespace) = organization(&app, "Gds Api").await;
        let (dev, _) = user(&app, &format!("dev@{slug}.example"), "developer", &org).await;
        let id = db::new_id();
        let (ns, name) = cluster::datasets::placement(&app.state, &org, &id, "Sales Q3")
            .await
            .unwrap()
            .expect("a cluster is configured");
        assert_eq!(ns, namespace);
        assert_eq!(name, format!("sales-q3-{}", &id[..8]));
        let now = db::now();
        let mut d = db::datasets::Dataset {
            asset: db::assets::AssetRow {
                id: id.clone(),
                kind: "dataset".parse().unwrap(),
                organization_id: org.clone(),
                owner_uid: Some(dev.clone()),
                name: "Sales Q3".into(),
                description: "Made in the console".into(),
                img_path: None,
                namespace: Some(ns.clone()),
                resource_name: Some(name.clone()),
                origin: "api".parse().unwrap(),
                views: 0,
                created_at: now,
                updated_at: now,
            },
            details: db::datasets::DatasetRow {
                id: id.clone(),
                bucket: cluster::organizations::bucket_of(&app.state, &org).await.unwrap(),
                prefix: ludis_storage::dataset_prefix(&ns, &id),
                deletion_policy: "Delete".parse().unwrap(),
                status: "pending".parse().unwrap(),
                ..Default::default()
            },
        };
        db::details::insert(&app.state.db, &d).await.unwrap();
        cluster::datasets::apply(&app.state, &d).await.unwrap();

        let ns_obj = Api::<Namespace>::all(client.clone())
            .get(&namespace)
            .await
            .unwrap();
        assert_eq!(ns_obj.labels()["ludis.dev/organization"], org);
        assert_eq!(
            ns_obj.annotations()["ludis.dev/bucket"],
            app.state.settings.s3_bucket
        );

        let datasets: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
        let cr = datasets.get(&name).await.unwrap();
        assert_eq!(cr.labels()[LABEL_ID], id);
        assert_eq!(cr.annotations()[ANNOTATION_OWNER], dev);
        assert_eq!(cr.spec.display_name, "Sales Q3");
        assert_eq!(cr.spec.description, "Made in the console");
        assert_eq!(
            cr.spec.deletion_policy,
            ludis_crds::dataset::DeletionPolicy::Delete
        );
        assert!(
            cr.managed_fields()
                .iter()
                .any(|m| m.manager.as_deref() == Some(FIELD_MANAGER_API)
                    && m.operation.as_deref() == Some("Apply")),
            "{:?}",
            cr.managed_fields()
        );

        // The operator's status reaches a console dataset's row too.
        operator_status(
            &datasets,
            &name,
            "Dataset",
            json!({"objectCount": 2, "bytes": 20, "conditions": [condition("Ready", "True", "Available", "")]}),
        )
        .await;
        follows_status(&app, &datasets, &name, &id).await;
        let r = row(&app, &id).await.unwrap();
        assert_eq!(
            r.asset.origin, "api",
            "the API's row is never taken for a GitOps one"
        );
        assert_eq!(r.asset.name, "Sales Q3");

        // A field the API does not set (sharing) stays with its manager through the API's applies.
        datasets
            .patch(
                &name,
                &PatchParams::apply(GITOPS),
                &Patch::Apply(json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                    "metadata": {"name": name}, "spec": {"sharing": {"organization": "view"}}})),
            )
            .await
            .unwrap();
        d.asset.description = "Edited in the console".into();
        cluster::datasets::apply(&app.state, &d).await.unwrap();
        let cr = datasets.get(&name).await.unwrap();
        assert_eq!(cr.spec.description, "Edited in the console");
        assert!(cr.spec.sharing.is_some(), "another manager's field is kept");

        // A field another manager took over is theirs: the API's change is a Conflict, nothing is
        // overwritten, and the resource's value reaches the row.
        datasets
            .patch(
                &name,
                &PatchParams::apply(GITOPS).force(),
                &Patch::Apply(json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                    "metadata": {"name": name},
                    "spec": {"displayName": "Renamed in Git", "sharing": {"organization": "view"}}})),
            )
            .await
            .unwrap();
        eventually("the resource's name reaches the row", || async {
            row(&app, &id).await.unwrap().asset.name == "Renamed in Git"
        })
        .await;
        d.asset.name = "Mine again".into();
        let err = cluster::datasets::apply(&app.state, &d)
            .await
            .expect_err("a field of another manager is not overwritten");
        let conflict = err
            .downcast_ref::<cluster::apply::Conflict>()
            .unwrap_or_else(|| panic!("a Conflict: {err:#}"));
        assert!(conflict.message.contains(GITOPS), "{}", conflict.message);
        assert!(
            conflict.message.contains(".spec.displayName"),
            "{}",
            conflict.message
        );
        assert!(
            conflict.message.starts_with("The dataset's resource"),
            "{}",
            conflict.message
        );
        assert_eq!(
            datasets.get(&name).await.unwrap().spec.display_name,
            "Renamed in Git"
        );

        // A resource-managed row is never applied by the API.
        let mut managed = d.clone();
        managed.asset.origin = "resource".parse().unwrap();
        managed.asset.resource_name = Some("never-applied".into());
        cluster::datasets::apply(&app.state, &managed).await.unwrap();
        assert!(datasets.get_opt("never-applied").await.unwrap().is_none());

        // Deleting the resource (no operator: no finalizer) removes the row; a second delete is fine.
        cluster::datasets::delete(&app.state, &d).await.unwrap();
        eventually("the row goes with its resource", || async {
            row(&app, &id).await.is_none()
        })
        .await;
        cluster::datasets::delete(&app.state, &d).await.unwrap();
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn an_organizations_namespace_names_its_bucket() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let home = app.org(&unique("Home"), 5).await;
        let root_email = format!(
            "root-{}@ludis.example",
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        );
        let (_, root) = user(&app, &root_email, "superadmin", &home).await;
        let first = db::organizations::ensure_bucket(&app.state.db, "acme-data", "us-east-1")
            .await
            .unwrap();
        let second = db::organizations::ensure_bucket(&app.state.db, "acme-archive", "us-east-1")
            .await
            .unwrap();
        let namespaces: Api<Namespace> = Api::all(client.clone());
        let bucket_of = |ns: &Namespace| ns.annotations().get("ludis.dev/bucket").cloned();

        // Without a bucket: the API's default.
        let (s, b) = app
            .post(
                "/v1/organizations",
                Some(&root),
                json!({"organization": {"name": unique("Plain"), "admin_email": "a@b.example", "tier": "free", "max_seats": 3}}),
            )
            .await;
        assert_eq!(s, 201, "{} {b}", app.kind);
        let plain = b["organization"]["namespace"].as_str().unwrap().to_owned();
        let ns = namespaces.get(&plain).await.unwrap();
        assert_eq!(
            bucket_of(&ns).as_deref(),
            Some(app.state.settings.s3_bucket.as_str())
        );

        // With one, and after a change of it.
        let (s, b) = app
            .post(
                "/v1/organizations",
                Some(&root),
                json!({"organization": {"name": unique("Acme"), "admin_email": "a@b.example", "tier": "free",
                                        "max_seats": 3, "bucket_id": first}}),
            )
            .await;
        assert_eq!(s, 201, "{} {b}", app.kind);
        let org = b["organization"]["id"].as_str().unwrap().to_owned();
        let namespace = b["organization"]["namespace"].as_str().unwrap().to_owned();
        let ns = namespaces.get(&namespace).await.unwrap();
        assert_eq!(bucket_of(&ns).as_deref(), Some("acme-data"));
        assert_eq!(
            cluster::organizations::bucket_of(&app.state, &org).await.unwrap(),
            "acme-data"
        );

        let (s, b) = app
            .put(
                &format!("/v1/organizations/{org}"),
                &root,
                json!({"organization": {"bucket_id": second}}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let ns = namespaces.get(&namespace).await.unwrap();
        assert_eq!(bucket_of(&ns).as_deref(), Some("acme-archive"));
        assert_eq!(
            ns.labels()["ludis.dev/organization"],
            org,
            "the rest of the namespace stays"
        );

        // Another update leaves it as it is.
        let (s, b) = app
            .put(
                &format!("/v1/organizations/{org}"),
                &root,
                json!({"organization": {"description": "Changed"}}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let ns = namespaces.get(&namespace).await.unwrap();
        assert_eq!(bucket_of(&ns).as_deref(), Some("acme-archive"));

        delete_namespace(&client, &plain).await;
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn after_a_relist_dataset_rows_whose_resource_is_gone_are_removed() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, _, namespace) = organization_with_namespace(&app, &client, "Gds Sweep").await;
        let datasets: Api<Dataset> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &datasets,
            GITOPS,
            &json!({"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset",
                    "metadata": {"name": "kept"}, "spec": {"displayName": "Kept"}}),
        )
        .await;
        let kept = mirrored(&app, &namespace, "kept").await;
        let dataset = |name: &str, origin: &str, updated_at: i64| {
            let id = db::new_id();
            db::datasets::Dataset {
                asset: db::assets::AssetRow {
                    id: id.clone(),
                    kind: "dataset".parse().unwrap(),
                    organization_id: org.clone(),
                    owner_uid: None,
                    name: name.into(),
                    description: String::new(),
                    img_path: None,
                    namespace: Some(namespace.clone()),
                    resource_name: Some(name.into()),
                    origin: origin.parse().unwrap(),
                    views: 0,
                    created_at: updated_at,
                    updated_at,
                },
                details: db::datasets::DatasetRow {
                    id: id.clone(),
                    bucket: "ludis".into(),
                    prefix: ludis_storage::dataset_prefix(&namespace, &id),
                    deletion_policy: "Retain".parse().unwrap(),
                    status: "ready".parse().unwrap(),
                    ..Default::default()
                },
            }
        };
        // Rows whose resource vanished while no watcher ran (of both origins), and one changed a
        // moment ago (its resource may be on its way).
        let gone_api = dataset("gone-api", "api", db::now() - 600);
        let gone_resource = dataset("gone-resource", "resource", db::now() - 600);
        let fresh = dataset("fresh", "api", db::now());
        for d in [&gone_api, &gone_resource, &fresh] {
            db::details::insert(&app.state.db, d).await.unwrap();
        }
        let watcher = ludis_api::cluster::watcher::spawn(app.state.clone()).unwrap();
        eventually("the rows whose resource is gone are removed", || async {
            row(&app, &gone_api.asset.id).await.is_none()
                && row(&app, &gone_resource.asset.id).await.is_none()
        })
        .await;
        watcher.abort();
        assert!(row(&app, &kept.asset.id).await.is_some());
        assert!(
            row(&app, &fresh.asset.id).await.is_some(),
            "a row changed since the list began is left alone"
        );
        delete_namespace(&client, &namespace).await;
    }
}
