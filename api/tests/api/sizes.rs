//! Hardware sizes through the API: the administrator's list, a project's and an app's choice
//! (kept, shown, applied to its resource), and a size outside the list refused with the sizes
//! there are, changing nothing.

use kube::Api;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, apps};

/// `spec.size` of the resource of asset `id` (the test runs with a cluster: dev/test.sh).
async fn resource_size<K>(app: &TestApp, id: &str) -> Option<String>
where
    K: kube::Resource<Scope = kube::core::NamespaceResourceScope, DynamicType = ()>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
    K: serde::Serialize,
{
    let client = app
        .state
        .kube
        .clone()
        .expect("a cluster (KUBECONFIG, set by dev/test.sh)");
    let a = ludis_api::db::assets::by_id(&app.state.db, id)
        .await
        .unwrap()
        .unwrap();
    let object = Api::<K>::namespaced(client, &a.namespace.unwrap())
        .get(&a.resource_name.unwrap())
        .await
        .unwrap();
    serde_json::to_value(object).unwrap()["spec"]["size"]
        .as_str()
        .map(str::to_owned)
}

fn message(r: &(reqwest::StatusCode, Value)) -> (u16, &str) {
    (r.0.as_u16(), r.1["message"].as_str().unwrap_or_default())
}

const UNKNOWN: &str = "Unknown size: huge (one of small, medium, large)";

#[tokio::test]
async fn sizes_are_listed_chosen_and_applied_and_an_unknown_one_is_refused() {
    for app in apps().await {
        let k = app.kind;
        let org = app.unique_org("Sizes").await;
        let owner = app.person(&org, "developer", "Owner").await;

        // The list, with its defaults; nothing without signing in.
        let (status, body) = app.get("/v2/cluster/sizes/list", &owner.token).await;
        assert_eq!(status, 200, "{k}: {body}");
        let ids: Vec<&str> = body["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["small", "medium", "large"], "{k}");
        assert_eq!(
            (body["default"].as_str(), body["default_insight"].as_str()),
            (Some("medium"), Some("small"))
        );
        let medium = &body["sizes"][1];
        assert_eq!(
            [
                &medium["cpu"],
                &medium["cpu_limit"],
                &medium["memory"],
                &medium["ephemeral_storage_limit"]
            ],
            [&json!("500m"), &json!("2"), &json!("1Gi"), &json!("4Gi")]
        );
        let (status, _) = app.call(Method::GET, "/v2/cluster/sizes/list", None, None).await;
        assert_eq!(status, 401, "{k}");

        // A project made with a size keeps it and runs with it; an unknown one is refused.
        let create = |size: &str| json!({"project": {"name": format!("Sized {size}"), "description": "", "language": "python", "size_id": size}});
        let refused = app.post("/v2/projects", Some(&owner.token), create("huge")).await;
        assert_eq!(message(&refused), (400, UNKNOWN), "{k}");
        let (status, body) = app
            .post("/v2/projects", Some(&owner.token), create("large"))
            .await;
        assert_eq!(status, 201, "{k}: {body}");
        assert_eq!(body["project"]["size_id"], "large");
        let id = body["project"]["id"].as_str().unwrap().to_owned();
        assert_eq!(
            resource_size::<ludis_crds::Project>(&app, &id).await.as_deref(),
            Some("large")
        );
        let path = format!("/v2/projects/{id}");
        let refused = app
            .put(&path, &owner.token, json!({"entity": {"size_id": "huge"}}))
            .await;
        assert_eq!(message(&refused), (400, UNKNOWN), "{k}");
        let (_, body) = app.get(&path, &owner.token).await;
        assert_eq!(
            body["project"]["size_id"], "large",
            "{k}: the refused change lost nothing"
        );
        // Empty: back to the list's default (the resource names none).
        let (status, body) = app
            .put(&path, &owner.token, json!({"entity": {"size_id": ""}}))
            .await;
        assert_eq!(
            (status.as_u16(), &body["project"]["size_id"]),
            (200, &Value::Null),
            "{k}"
        );
        assert_eq!(resource_size::<ludis_crds::Project>(&app, &id).await, None);

        // An app published with a size, then given another.
        let source = app.project_with_files(&owner, "Sized source", &["app.py"]).await;
        let publish = |size: &str| {
            json!({"application": {"name": format!("Sized app {size}"), "description": "", "app_type": "application",
                "project_id": source, "publish_filenames": ["app.py"], "size_id": size}})
        };
        let refused = app
            .post("/v1/applications", Some(&owner.token), publish("huge"))
            .await;
        assert_eq!(message(&refused), (400, UNKNOWN), "{k}");
        let (status, body) = app
            .post("/v1/applications", Some(&owner.token), publish("medium"))
            .await;
        assert_eq!(status, 201, "{k}: {body}");
        assert_eq!(body["application"]["size_id"], "medium");
        let app_id = body["application"]["id"].as_str().unwrap().to_owned();
        assert_eq!(
            resource_size::<ludis_crds::Insight>(&app, &app_id)
                .await
                .as_deref(),
            Some("medium")
        );
        let path = format!("/v1/applications/{app_id}");
        let refused = app
            .put(&path, &owner.token, json!({"entity": {"size_id": "huge"}}))
            .await;
        assert_eq!(message(&refused), (400, UNKNOWN), "{k}");
        let (status, body) = app
            .put(&path, &owner.token, json!({"entity": {"size_id": "large"}}))
            .await;
        assert_eq!(status, 200, "{k}: {body}");
        assert_eq!(body["application"]["size_id"], "large");
        assert_eq!(
            resource_size::<ludis_crds::Insight>(&app, &app_id)
                .await
                .as_deref(),
            Some("large")
        );

        // Nothing of this test runs on after it.
        for path in [
            format!("/v1/applications/{app_id}"),
            format!("/v2/projects/{id}"),
            format!("/v2/projects/{source}"),
        ] {
            let (status, body) = app.delete(&path, &owner.token).await;
            assert_eq!(status, 200, "{k} {path}: {body}");
        }
    }
}
