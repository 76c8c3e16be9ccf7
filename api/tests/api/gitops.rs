//! Insight resources applied with kubectl or a GitOps tool, and the ones the API applies, against
//! a real control plane (KUBECONFIG; the test command starts one). Skipped, with a message, when
//! no cluster is configured locally. No operator runs here: the tests write the status the
//! operator would.

use std::time::Duration;

use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, Patch, PatchParams},
};
use ludis_api::db;
use ludis_api::domain::AssetKind;
use ludis_crds::{ANNOTATION_OWNER, FIELD_MANAGER_API, Insight, LABEL_ID};
use serde_json::{Value, json};

use crate::helpers::{TestApp, apps, cluster};

/// Polls `check` every 100 ms for up to 10 seconds.
pub async fn eventually<F, Fut>(what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_within(what, 10, check).await;
}

/// Polls `check` every 100 ms for up to `seconds`.
pub async fn eventually_within<F, Fut>(what: &str, seconds: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..seconds * 10 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("not within {seconds} s: {what}");
}

/// Writes a status as the operator would: its field manager, and the generation it describes
/// (`observedGeneration`, which the API reads to tell a status of the current spec from an older
/// one; the CRDs default it to 0, "not observed yet").
pub(crate) async fn operator_status<K>(api: &Api<K>, name: &str, kind: &str, status: Value)
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let generation = api.get(name).await.unwrap().meta().generation;
    let mut status = status;
    status["observedGeneration"] = json!(generation);
    api.patch_status(
        name,
        &PatchParams::apply("ludis-operator").force(),
        &Patch::Apply(json!({"apiVersion": "ludis.dev/v1alpha1", "kind": kind, "status": status})),
    )
    .await
    .unwrap();
}

/// An organization with a unique name and its namespace; returns (org id, slug, namespace).
pub(crate) async fn organization(
    app: &TestApp,
    client: &kube::Client,
    prefix: &str,
) -> (String, String, String) {
    let name = format!("{prefix} {}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let org = app.org(&name, 20).await;
    let slug = name.to_lowercase().replace(' ', "-");
    let namespace = ludis_crds::organization_namespace(&slug);
    ludis_api::cluster::organizations::ensure_namespace(
        client,
        &namespace,
        &org,
        &app.state.settings.s3_bucket,
    )
    .await
    .unwrap();
    (org, slug, namespace)
}

/// A user of `org`, signed in: (uid, access token).
pub async fn user(app: &TestApp, email: &str, role: &str, org: &str) -> (String, String) {
    let uid = app.user(email, "pass-word", role, org).await;
    let (token, _) = app.login(email, "pass-word").await;
    (uid, token)
}

/// Applies a resource as a GitOps tool would (its own field manager, forced like Argo CD).
pub async fn gitops_apply<K>(api: &Api<K>, manager: &str, body: &Value)
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    api.patch(
        body["metadata"]["name"].as_str().unwrap(),
        &PatchParams::apply(manager).force(),
        &Patch::Apply(body),
    )
    .await
    .unwrap();
}

/// The row of a resource, once the watcher wrote it (10 s at most).
pub(crate) async fn mirrored(app: &TestApp, namespace: &str, name: &str) -> db::assets::AssetRow {
    for _ in 0..100 {
        if let Some(row) = db::assets::by_resource(&app.state.db, AssetKind::Insight, namespace, name)
            .await
            .unwrap()
        {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{namespace}/{name} is not mirrored within 10 s ({})", app.kind);
}

fn ids_of(list: &Value) -> Vec<String> {
    list["applications"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| i["id"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Deletes a test's namespace (whoever made it).
pub(crate) async fn delete_namespace(client: &kube::Client, namespace: &str) {
    let _ = kube::Api::<k8s_openapi::api::core::v1::Namespace>::all(client.clone())
        .delete(namespace, &kube::api::DeleteParams::default())
        .await;
}

#[tokio::test]
async fn a_gitops_insight_appears_for_its_owner_and_the_people_its_sharing_names() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Git").await;
        let (owner, owner_token) = user(&app, &format!("owner@{slug}.example"), "developer", &org).await;
        let (viewer, viewer_token) = user(&app, &format!("Viewer@{slug}.example"), "developer", &org).await;
        let (runner, runner_token) = user(&app, &format!("runner@{slug}.example"), "developer", &org).await;
        let (_, member_token) = user(&app, &format!("member@{slug}.example"), "developer", &org).await;
        let (_, admin_token) = user(&app, &format!("boss@{slug}.example"), "administrator", &org).await;
        let id = uuid::Uuid::new_v4().to_string();
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        let manifest = |sharing: Value| {
            json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                "metadata": {"name": "sales", "labels": {LABEL_ID: id}, "annotations": {ANNOTATION_OWNER: owner}},
                "spec": {"displayName": "Sales", "description": "From Git", "type": "application",
                         "source": {"project": "demo", "files": ["dash.py"]}, "sharing": sharing}
            })
        };
        gitops_apply(
            &insights,
            "argocd",
            &manifest(json!({
                // E-mails in any case; one without an account yet.
                "users": [{"email": format!("viewer@{slug}.example"), "level": "view"},
                          {"email": format!("RUNNER@{slug}.example"), "level": "execute"},
                          {"email": "Newcomer@Elsewhere.example", "level": "view"}],
                "organization": "view"
            })),
        )
        .await;

        // The owner sees it (with the label's id), marked managed.
        eventually("the insight reaches its owner's list", || async {
            let (_, list) = app
                .get("/v1/applications/insights?filter=owned", &owner_token)
                .await;
            ids_of(&list).contains(&id)
        })
        .await;
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &owner_token).await;
        assert_eq!(s, 200, "{} {b}", app.kind);
        let view = &b["application"];
        assert_eq!(view["name"], "Sales");
        assert_eq!(view["managed"], true);
        assert_eq!(view["is_owner"], true);
        assert_eq!(view["status"], "starting", "no operator status yet");
        assert_eq!(view["app_type"], "application");

        // The named colleagues see it in their shared lists at the named level; the rest of the
        // organization through the organization's share.
        for (token, level) in [
            (&viewer_token, "view"),
            (&runner_token, "execute"),
            (&member_token, "view"),
        ] {
            let (_, list) = app.get("/v1/applications/insights?filter=shared", token).await;
            let item = list["applications"]
                .as_array()
                .unwrap()
                .iter()
                .find(|i| i["id"] == id.as_str())
                .unwrap_or_else(|| panic!("{} shared list: {list}", app.kind))
                .clone();
            assert_eq!(item["access_level"], level, "{}", app.kind);
        }
        // The declared entries are managed: the console shows them as such.
        let (s, b) = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &owner_token,
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let shares = b["shares"].as_array().unwrap();
        for (uid, level) in [(&viewer, "view"), (&runner, "execute")] {
            let entry = shares
                .iter()
                .find(|e| e["to_entity_uid"] == uid.as_str())
                .unwrap_or_else(|| panic!("{uid} in {b}"));
            assert_eq!(
                (entry["access_level"].as_str(), entry["managed"].as_bool()),
                (Some(level), Some(true))
            );
        }
        assert_eq!(b["organization"]["access_level"], "view");
        assert_eq!(b["organization"]["managed"], true);
        let rows = db::shares::for_asset(&app.state.db, &id).await.unwrap();
        assert!(
            rows.iter()
                .any(|r| r.to_type == "email" && r.to_id == "newcomer@elsewhere.example" && r.is_managed()),
            "an address without an account is kept by e-mail: {rows:?}"
        );
        assert!(rows.iter().all(|r| r.is_managed()));

        // The operator's status reaches the row (only the observed columns change).
        let before = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        let generation = insights.get("sales").await.unwrap().metadata.generation;
        insights
            .patch_status(
                "sales",
                &PatchParams::apply("ludis-operator").force(),
                &Patch::Apply(json!({
                    "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                    "status": {"observedGeneration": generation, "phase": "Running",
                               "url": format!("http://sales.{namespace}.svc:8000")}
                })),
            )
            .await
            .unwrap();
        eventually("the status reaches the row", || async {
            let d = db::details::by_id::<db::insights::InsightRow>(&app.state.db, &id)
                .await
                .unwrap()
                .unwrap()
                .details;
            d.status == "running" && d.upstream_url == Some(format!("http://sales.{namespace}.svc:8000"))
        })
        .await;
        let after = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        assert_eq!(
            after.updated_at, before.updated_at,
            "a status change is not an edit"
        );

        // The console cannot edit or delete it: the resource is the source.
        let (s, b) = app
            .put(
                &format!("/v1/applications/{id}"),
                &owner_token,
                json!({"entity": {"name": "Mine"}}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (409, Some("managed_by_resource")),
            "{b}"
        );

        // Removing the runner and the organization from spec.sharing removes their access.
        gitops_apply(
            &insights,
            "argocd",
            &manifest(json!({"users": [{"email": format!("viewer@{slug}.example"), "level": "view"}]})),
        )
        .await;
        eventually("the removed colleague loses access", || async {
            app.get(&format!("/v1/applications/{id}"), &runner_token).await.0 == 404
        })
        .await;
        assert_eq!(
            app.get(&format!("/v1/applications/{id}"), &member_token).await.0,
            404
        );
        assert_eq!(
            app.get(&format!("/v1/applications/{id}"), &viewer_token).await.0,
            200
        );
        assert_eq!(
            app.get(&format!("/v1/applications/{id}"), &admin_token).await.0,
            200
        );

        // Deleting the resource removes the row.
        insights.delete("sales", &DeleteParams::default()).await.unwrap();
        eventually("the row goes with its resource", || async {
            db::assets::by_id(&app.state.db, &id).await.unwrap().is_none()
        })
        .await;
        assert_eq!(
            app.get(&format!("/v1/applications/{id}"), &owner_token).await.0,
            404
        );
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn a_resource_without_a_known_owner_belongs_to_the_organizations_administrators() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Orphan").await;
        let (_, admin_token) = user(&app, &format!("admin@{slug}.example"), "administrator", &org).await;
        let (_, dev_token) = user(&app, &format!("dev@{slug}.example"), "developer", &org).await;
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        // No owner annotation on one, an unknown owner on the other; no id label on either.
        for (name, annotations) in [
            ("nobody", json!({})),
            ("stranger", json!({ANNOTATION_OWNER: "ghost@nowhere.example"})),
        ] {
            gitops_apply(
                &insights,
                "kubectl",
                &json!({
                    "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                    "metadata": {"name": name, "annotations": annotations},
                    "spec": {"displayName": name, "type": "application", "appUrl": "https://example.com/app"}
                }),
            )
            .await;
        }
        let mut ids = Vec::new();
        for name in ["nobody", "stranger"] {
            let row = mirrored(&app, &namespace, name).await;
            assert_eq!(row.owner_uid, None, "{name}");
            assert_eq!(row.origin, "resource");
            assert!(uuid::Uuid::try_parse(&row.id).is_ok(), "a new id: {}", row.id);
            ids.push(row.id);
        }
        // The label is not written back (GitOps would see drift).
        let cr = insights.get("nobody").await.unwrap();
        assert!(!cr.labels().contains_key(LABEL_ID), "{:?}", cr.labels());
        for id in &ids {
            let (s, b) = app.get(&format!("/v1/applications/{id}"), &admin_token).await;
            assert_eq!(s, 200, "{} {b}", app.kind);
            assert_eq!(b["application"]["status"], "external");
            assert_eq!(b["application"]["user_uid"], Value::Null);
            assert_eq!(
                app.get(&format!("/v1/applications/{id}"), &dev_token).await.0,
                404
            );
        }
        let (_, list) = app.get("/v1/applications/insights", &admin_token).await;
        for id in &ids {
            assert!(ids_of(&list).contains(id), "{list}");
        }
        let (_, list) = app.get("/v1/applications/insights", &dev_token).await;
        assert!(ids_of(&list).is_empty(), "{list}");
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn the_api_applies_only_its_own_fields_and_never_overwrites_another_managers() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Applied").await;
        let (dev, dev_token) = user(&app, &format!("dev@{slug}.example"), "developer", &org).await;
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&dev_token),
                json!({"application": {"name": "Portal", "description": "External", "app_type": "application",
                                       "app_url": "https://portal.example"}}),
            )
            .await;
        assert_eq!(s, 201, "{} {b}", app.kind);
        let id = b["application"]["id"].as_str().unwrap().to_owned();
        let row = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        assert_eq!(row.origin, "api");
        assert_eq!(row.namespace.as_deref(), Some(namespace.as_str()));
        let name = row.resource_name.clone().expect("the row names its resource");
        assert!(name.starts_with("portal-"), "{name}");

        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        let cr = insights.get(&name).await.unwrap();
        assert_eq!(cr.labels()[LABEL_ID], id);
        assert_eq!(cr.annotations()[ANNOTATION_OWNER], dev);
        assert_eq!(cr.spec.display_name, "Portal");
        assert_eq!(cr.spec.app_url.as_deref(), Some("https://portal.example"));
        let managers: Vec<(String, String)> = cr
            .managed_fields()
            .iter()
            .map(|m| {
                (
                    m.manager.clone().unwrap_or_default(),
                    m.operation.clone().unwrap_or_default(),
                )
            })
            .collect();
        assert!(
            managers.contains(&(FIELD_MANAGER_API.to_owned(), "Apply".to_owned())),
            "{managers:?}"
        );

        // Another manager sets a field the API does not own; the API's next apply keeps it.
        insights
            .patch(
                &name,
                &PatchParams::apply("kubectl"),
                &Patch::Apply(json!({
                    "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                    "metadata": {"name": name}, "spec": {"resources": {"cpu": "250m"}}
                })),
            )
            .await
            .unwrap();
        let (s, b) = app
            .put(
                &format!("/v1/applications/{id}"),
                &dev_token,
                json!({"entity": {"name": "Portal 2"}}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let cr = insights.get(&name).await.unwrap();
        assert_eq!(cr.spec.display_name, "Portal 2");
        assert_eq!(
            cr.spec.resources.cpu.as_deref(),
            Some("250m"),
            "another manager's field is kept"
        );

        // A field another manager took over is theirs: the API's change is a conflict, and the
        // resource's value reaches the row.
        insights
            .patch(
                &name,
                &PatchParams::apply("kubectl").force(),
                &Patch::Apply(json!({
                    "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                    "metadata": {"name": name}, "spec": {"displayName": "Renamed in Git", "resources": {"cpu": "250m"}}
                })),
            )
            .await
            .unwrap();
        eventually("the resource's name reaches the row", || async {
            db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap().name == "Renamed in Git"
        })
        .await;
        let (s, b) = app
            .put(
                &format!("/v1/applications/{id}"),
                &dev_token,
                json!({"entity": {"name": "Mine again"}}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (409, Some("resource_conflict")),
            "{b}"
        );
        assert!(b["message"].as_str().unwrap().contains("kubectl"), "{b}");
        assert_eq!(
            insights.get(&name).await.unwrap().spec.display_name,
            "Renamed in Git"
        );

        // The row made by the API is never taken for a GitOps one, and goes with a delete.
        let row = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        assert_eq!(row.origin, "api");
        let (s, b) = app.delete(&format!("/v1/applications/{id}"), &dev_token).await;
        assert_eq!(s, 200, "{b}");
        eventually("the resource is deleted", || async {
            insights.get_opt(&name).await.unwrap().is_none()
        })
        .await;
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn stopping_a_gitops_insight_applies_only_spec_running() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, slug, namespace) = organization(&app, &client, "Stop").await;
        let (owner, owner_token) = user(&app, &format!("owner@{slug}.example"), "developer", &org).await;
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        let manifest = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
            "metadata": {"name": "board", "annotations": {ANNOTATION_OWNER: format!("owner@{slug}.example")}},
            "spec": {"displayName": "Board", "type": "application", "source": {"project": "demo", "files": ["b.py"]}}
        });
        gitops_apply(&insights, "argocd", &manifest).await;
        let row = mirrored(&app, &namespace, "board").await;
        let id = row.id.clone();
        assert_eq!(
            row.owner_uid.as_deref(),
            Some(owner.as_str()),
            "an owner by e-mail"
        );

        let (s, b) = app
            .post(
                "/v1/applications/stop",
                Some(&owner_token),
                json!({"application_id": id}),
            )
            .await;
        assert_eq!(s, 200, "{} {b}", app.kind);
        let cr = insights.get("board").await.unwrap();
        assert!(!cr.spec.running);
        let api_fields: Vec<_> = cr
            .managed_fields()
            .iter()
            .filter(|m| m.manager.as_deref() == Some(FIELD_MANAGER_API))
            .map(|m| m.fields_v1.as_ref().unwrap().0.clone())
            .collect();
        assert_eq!(
            api_fields,
            [json!({"f:spec": {"f:running": {}}})],
            "the API owns spec.running only"
        );
        // The GitOps tool applies its manifest again (without `running`): the stop stays.
        gitops_apply(&insights, "argocd", &manifest).await;
        assert!(!insights.get("board").await.unwrap().spec.running);
        assert_eq!(insights.get("board").await.unwrap().spec.display_name, "Board");

        // A manifest that declares `running` owns it: the console's restart is refused, not forced.
        let mut declared = manifest.clone();
        declared["spec"]["running"] = json!(false);
        gitops_apply(&insights, "argocd", &declared).await;
        let (s, b) = app
            .post(
                "/v1/applications/restart",
                Some(&owner_token),
                json!({"application_id": id}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["code"].as_str()),
            (409, Some("resource_conflict")),
            "{b}"
        );
        assert!(b["message"].as_str().unwrap().contains("argocd"), "{b}");
        assert!(!insights.get("board").await.unwrap().spec.running);
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn after_a_relist_rows_whose_resource_is_gone_are_removed() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let (org, _, namespace) = organization(&app, &client, "Sweep").await;
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &insights,
            "argocd",
            &json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                "metadata": {"name": "kept"},
                "spec": {"displayName": "Kept", "type": "application", "appUrl": "https://kept.example"}
            }),
        )
        .await;
        let kept = mirrored(&app, &namespace, "kept").await;
        // Rows whose resource vanished while no watcher ran: an old one, and one changed a moment
        // ago (its resource may be on its way).
        let row = |name: &str, updated_at: i64| db::insights::Insight {
            asset: db::assets::AssetRow {
                id: db::new_id(),
                kind: "application".parse().unwrap(),
                organization_id: org.clone(),
                owner_uid: None,
                name: name.into(),
                description: String::new(),
                img_path: None,
                namespace: Some(namespace.clone()),
                resource_name: Some(name.into()),
                origin: "api".parse().unwrap(),
                views: 0,
                created_at: updated_at,
                updated_at,
            },
            details: db::insights::InsightRow {
                id: String::new(),
                app_type: "application".parse().unwrap(),
                status: "external".parse().unwrap(),
                app_url: Some("https://gone.example".into()),
                language: "python".parse().unwrap(),
                ..Default::default()
            },
        };
        let mut gone = row("gone", db::now() - 600);
        gone.details.id = gone.asset.id.clone();
        let mut fresh = row("fresh", db::now());
        fresh.details.id = fresh.asset.id.clone();
        db::details::insert(&app.state.db, &gone).await.unwrap();
        db::details::insert(&app.state.db, &fresh).await.unwrap();

        // A watcher (re)starting lists every resource, then sweeps.
        let watcher = ludis_api::cluster::watcher::spawn(app.state.clone()).unwrap();
        eventually("the row whose resource is gone is removed", || async {
            db::assets::by_id(&app.state.db, &gone.asset.id)
                .await
                .unwrap()
                .is_none()
        })
        .await;
        watcher.abort();
        assert!(
            db::assets::by_id(&app.state.db, &kept.id)
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            db::assets::by_id(&app.state.db, &fresh.asset.id)
                .await
                .unwrap()
                .is_some(),
            "a row changed since the list began is left alone"
        );
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn resources_in_a_namespace_without_an_organization_wait_for_one() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let org = app
            .org(
                &format!("Late {}", &uuid::Uuid::new_v4().simple().to_string()[..8]),
                5,
            )
            .await;
        // Not an organization's namespace (no label, no `ludis-` prefix).
        let namespace = format!("gitops-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client.clone());
        namespaces
            .create(
                &Default::default(),
                &serde_json::from_value(json!({"metadata": {"name": namespace}})).unwrap(),
            )
            .await
            .unwrap();
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        gitops_apply(
            &insights,
            "argocd",
            &json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                "metadata": {"name": "early"},
                "spec": {"displayName": "Early", "type": "application", "appUrl": "https://early.example"}
            }),
        )
        .await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(
            db::assets::by_resource(&app.state.db, AssetKind::Insight, &namespace, "early")
                .await
                .unwrap()
                .is_none(),
            "no organization, no row"
        );
        // An administrator gives the namespace to the organization (its label; the API never
        // takes a namespace it did not make): its resources are mirrored then.
        Api::<k8s_openapi::api::core::v1::Namespace>::all(client.clone())
            .patch(
                &namespace,
                &kube::api::PatchParams::default(),
                &kube::api::Patch::Merge(
                    json!({"metadata": {"labels": {ludis_crds::LABEL_ORGANIZATION: org}}}),
                ),
            )
            .await
            .unwrap();
        let row = mirrored(&app, &namespace, "early").await;
        assert_eq!(row.organization_id, org);
        delete_namespace(&client, &namespace).await;
    }
}

#[tokio::test]
async fn the_api_creates_a_missing_organization_namespace_before_applying() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        // An organization made while the cluster was away: no namespace yet.
        let name = format!("Fresh {}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let org = app.org(&name, 5).await;
        let slug = name.to_lowercase().replace(' ', "-");
        let namespace = ludis_crds::organization_namespace(&slug);
        let (_, token) = user(&app, &format!("dev@{slug}.example"), "developer", &org).await;
        let (s, b) = app
            .post(
                "/v1/applications/importapp",
                Some(&token),
                json!({"application": {"name": "Wiki", "description": "Docs", "app_type": "application",
                                       "app_url": "https://wiki.example"}}),
            )
            .await;
        assert_eq!(s, 201, "{} {b}", app.kind);
        let id = b["application"]["id"].as_str().unwrap();
        let ns = Api::<k8s_openapi::api::core::v1::Namespace>::all(client.clone())
            .get(&namespace)
            .await
            .expect("the namespace is created");
        assert_eq!(ns.labels()["ludis.dev/organization"], org);
        let row = db::assets::by_id(&app.state.db, id).await.unwrap().unwrap();
        let cr = Api::<Insight>::namespaced(client.clone(), &namespace)
            .get(row.resource_name.as_deref().unwrap())
            .await
            .unwrap();
        assert_eq!(cr.labels()[LABEL_ID], id);
        delete_namespace(&client, &namespace).await;
    }
}

/// Creates an application through the API and renames it; answers its id and the resource as it
/// was before the rename (what a late event of the watch carries).
async fn renamed_with_its_old_version(
    app: &TestApp,
    token: &str,
    client: &kube::Client,
) -> (String, Insight) {
    let (s, b) = app
        .post(
            "/v1/applications",
            Some(token),
            json!({"application": {"name": "Q3 sales", "description": "Quarterly", "app_type": "application",
                "app_url": "https://dash.example/q3"}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let id = b["application"]["id"].as_str().unwrap().to_owned();
    let row = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
    let (namespace, name) = row.resource().expect("the application has a resource");
    let old = Api::<Insight>::namespaced(client.clone(), namespace)
        .get(name)
        .await
        .unwrap();
    assert_eq!(old.spec.display_name, "Q3 sales");
    let (s, b) = app
        .put(
            &format!("/v1/applications/{id}"),
            token,
            json!({"entity": {"name": "Q3 sales (final)"}}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    (id, old)
}

#[tokio::test]
async fn a_late_event_of_the_watch_never_undoes_the_users_last_write() {
    let client = cluster()
        .await
        .expect("no cluster: dev/test.sh starts one and sets KUBECONFIG");
    for app in apps().await {
        let k = app.kind;
        let org = app.unique_org("Late events").await;
        let admin = app.person(&org, "administrator", "Admin").await;
        let name_of = |id: String| {
            let db = app.state.db.clone();
            async move { db::assets::by_id(&db, &id).await.unwrap().unwrap().name }
        };

        // The version before the rename arrives after it (a busy watcher): the row keeps the new
        // name, and the deletion is recorded under it.
        let (id, old) = renamed_with_its_old_version(&app, &admin.token, &client).await;
        ludis_api::cluster::watcher::replay_insight(app.state.clone(), client.clone(), old).await;
        assert_eq!(name_of(id.clone()).await, "Q3 sales (final)", "{k}");
        let (s, _) = app.delete(&format!("/v1/applications/{id}"), &admin.token).await;
        assert_eq!(s, 200, "{k}");
        let (_, b) = app
            .get("/v1/metrics/applications?period=day&searchTerm=q3", &admin.token)
            .await;
        assert_eq!(b["rows"][0]["action"], "deleted", "{k}: {b}");
        assert_eq!(b["rows"][0]["entity_name"], "Q3 sales (final)", "{k}: {b}");

        // The control: a replay is mirrored when its version is the row's own — a row changed
        // behind the resource's back (no newer version applied) gets the resource's name again.
        let (s, b) = app
            .post(
                "/v1/applications",
                Some(&admin.token),
                json!({"application": {"name": "Q4 sales", "app_type": "application", "app_url": "https://dash.example/q4"}}),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        let id = b["application"]["id"].as_str().unwrap().to_owned();
        let row = db::assets::by_id(&app.state.db, &id).await.unwrap().unwrap();
        let (namespace, name) = row.resource().unwrap();
        let current = Api::<Insight>::namespaced(client.clone(), namespace)
            .get(name)
            .await
            .unwrap();
        sqlx::query("UPDATE assets SET name = 'Changed behind its back' WHERE id = $1")
            .bind(&id)
            .execute(&app.state.db)
            .await
            .unwrap();
        ludis_api::cluster::watcher::replay_insight(app.state.clone(), client.clone(), current).await;
        assert_eq!(name_of(id.clone()).await, "Q4 sales", "{k}");
        app.delete(&format!("/v1/applications/{id}"), &admin.token).await;
    }
}
