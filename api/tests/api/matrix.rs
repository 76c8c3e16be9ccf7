//! The authorization matrix: every route of the API's route table (its OpenAPI document) that
//! takes an asset — a path parameter `{id}`/`{entityId}` or a body field naming one
//! (`application_id`, `entity_id`, `reference_id`, `app_id`) — has an entry here saying which
//! level it needs and how to call it for a given asset. `every_asset_route_has_an_entry` fails
//! for a route without one (so a new route cannot skip the matrix) and for an entry whose route is
//! gone. `the_access_rule_holds_on_every_asset_route` calls every entry as ten callers and checks:
//! no access → 404; less than needed → 403; enough → neither (2xx, or a 4xx such as 400/409
//! about the request itself).

use std::{collections::BTreeSet, future::Future, pin::Pin, sync::Arc};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{InsightSeed, Person, TestApp, apps, apps_with, s3_settings};
use ludis_api::domain::{AccessLevel as Level, AssetKind};

/// Path parameters that name an asset, and body fields that do.
const ASSET_PARAMS: [&str; 2] = ["{id}", "{entityId}"];
const ASSET_FIELDS: [&str; 9] = [
    "project",
    "project_id",
    "project_uid",
    "id",
    "application_id",
    "entity_id",
    "reference_id",
    "app_id",
    "dataset_id",
];

/// Routes with an `{id}` that is not an asset's, and why.
const NOT_ASSETS: &[(&str, &str, &str)] = &[
    ("GET", "/v1/users/{id}", "a user id (tests/api/users.rs)"),
    ("PUT", "/v1/users/{id}", "a user id"),
    ("DELETE", "/v1/users/{id}", "a user id"),
    ("POST", "/v1/users/{id}/api_key", "a user id"),
    ("DELETE", "/v1/users/{id}/api_key", "a user id"),
    (
        "GET",
        "/v1/organizations/{id}",
        "an organization id (tests/api/admin.rs)",
    ),
    ("PUT", "/v1/organizations/{id}", "an organization id"),
    ("DELETE", "/v1/organizations/{id}", "an organization id"),
    ("PUT", "/v1/organizations/{id}/2farequired", "an organization id"),
    (
        "GET",
        "/v1/organizations/{id}/mailrecipients",
        "an organization id (tests/api/workflows.rs)",
    ),
    (
        "PUT",
        "/v1/organizations/{id}/mailrecipients",
        "an organization id",
    ),
    (
        "GET",
        "/v1/organizations/{id}/quota",
        "an organization id (tests/api/quota.rs)",
    ),
    (
        "GET",
        "/v1/organizations/{id}/compute",
        "an organization id (tests/api/compute.rs)",
    ),
    (
        "GET",
        "/v1/organizations/{id}/availableSeats",
        "an organization id",
    ),
    ("GET", "/v1/organizations/buckets/{id}", "a bucket id"),
    (
        "GET",
        "/v2/cluster/{id}",
        "a cluster id (tests/api/projects_env.rs)",
    ),
    (
        "POST",
        "/v2/projects",
        "creates a project: its `project` is the new project's fields (tests/api/projects.rs)",
    ),
    (
        "POST",
        "/v1/applications",
        "creates an insight: its `project_id` is the project it is published from, checked by the access rule (tests/api/projects_run.rs)",
    ),
    (
        "POST",
        "/v2/workflows",
        "creates a workflow: its `project_id` is the project it runs, checked by the access rule (tests/api/workflows.rs)",
    ),
    (
        "POST",
        "/v1/projects",
        "creates a legacy project: its `project` is the new project's fields (tests/api/notebooks.rs)",
    ),
];

#[derive(Clone, Copy, Debug)]
pub(crate) enum Need {
    Level(Level),
}

pub(crate) type Response = (StatusCode, Value);
pub(crate) type Call = fn(Arc<Ctx>, String, Person) -> Pin<Box<dyn Future<Output = Response>>>;

pub(crate) struct Entry {
    pub(crate) method: &'static str,
    pub(crate) path: &'static str,
    /// Which use of the route this is, when it has several.
    pub(crate) variant: &'static str,
    pub(crate) need: Need,
    /// The call changes the asset for everyone (a fresh asset per caller).
    pub(crate) destructive: bool,
    pub(crate) call: Call,
}

/// What the calls need besides the asset and the caller.
pub(crate) struct Ctx {
    pub(crate) app: TestApp,
    pub(crate) owner: Person,
    /// Someone to share with (never one of the callers).
    pub(crate) target: Person,
}

fn entries() -> Vec<Entry> {
    let mut all = other_entries();
    all.extend(crate::matrix_workflows::entries());
    all.extend(crate::matrix_templates::entries());
    all.extend(crate::matrix_notebooks::entries());
    all
}

fn other_entries() -> Vec<Entry> {
    use Level::{Edit, Execute, View};
    vec![
        Entry {
            method: "GET",
            path: "/v1/applications/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v1/applications/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/applications/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v1/applications/{id}"),
                            &p.token,
                            json!({"entity": {"name": "Renamed", "description": "By the matrix"}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/applications/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move { c.app.delete(&format!("/v1/applications/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/applications/stop",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/applications/stop",
                            Some(&p.token),
                            json!({"application_id": id, "publish_filenames": []}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/applications/restart",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/applications/restart",
                            Some(&p.token),
                            json!({"application_id": id, "publish_filenames": []}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/applications/redeploy/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .call(
                            Method::POST,
                            &format!("/v2/applications/redeploy/{id}"),
                            Some(&p.token),
                            None,
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/applications/pin",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/applications/pin",
                            Some(&p.token),
                            json!({"app_pin": {"app_id": id, "user_id": p.uid, "pinned": true}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/applications/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/applications/share",
                            Some(&p.token),
                            json!({"share": {"entity_id": id, "entity_type": "Application", "shares": [
                                {"share_type": "share", "email": c.target.email, "access_level": "view", "to_entity_type": "User"}]}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/shares/sharedwith/{entityId}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(
                            &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                            &p.token,
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/applications/share/{id}",
            variant: "an application id: leave it",
            need: Need::Level(View),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .delete(&format!("/v1/applications/share/{id}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/applications/share/{id}",
            variant: "a share id: revoke someone's entry",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .share(&id, "user", &c.target.uid, "view", &c.owner.uid)
                        .await;
                    let share: String = sqlx::query_scalar(
                        "SELECT id FROM shares WHERE asset_id = $1 AND to_id = $2 AND origin = 'console'",
                    )
                    .bind(&id)
                    .bind(&c.target.uid)
                    .fetch_one(&c.app.state.db)
                    .await
                    .unwrap();
                    c.app
                        .delete(&format!("/v1/applications/share/{share}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/comment/list",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/comment/list",
                            Some(&p.token),
                            json!({"comments": {"reference_id": id}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/comment/createComment",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/comment/createComment",
                            Some(&p.token),
                            json!({"comment": {"content": "matrix", "reference_id": id}}),
                        )
                        .await
                })
            },
        },
        // Datasets: the routes that need object storage run when the test command provides it.
        Entry {
            method: "POST",
            path: "/v1/datasets/getdatasetdetails/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/getdatasetdetails/{id}"),
                            Some(&p.token),
                            json!({}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/datasets/updatedataset/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v1/datasets/updatedataset/{id}"),
                            &p.token,
                            json!({"dataset": {"name": "Renamed", "description": "By the matrix"}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/datasets/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move { c.app.delete(&format!("/v1/datasets/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/listfiles/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/listfiles/{id}"),
                            Some(&p.token),
                            json!({"path": ""}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/createdatasetdirectory",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/datasets/createdatasetdirectory",
                            Some(&p.token),
                            json!({"dataset_id": id, "path": "", "name": "made by the matrix"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/deletedatasetobject/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/deletedatasetobject/{id}"),
                            Some(&p.token),
                            json!({"path": "nothing-here.csv"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/getpresignedurl/{id}",
            variant: "download",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/getpresignedurl/{id}"),
                            Some(&p.token),
                            json!({"path": "a.csv", "method": "GET"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/getpresignedurl/{id}",
            variant: "upload",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/getpresignedurl/{id}"),
                            Some(&p.token),
                            json!({"path": "a.csv", "method": "PUT"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/getfilepreview/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    // A type without preview: 400 once access is granted, before any storage call.
                    c.app
                        .post(
                            &format!("/v1/datasets/getfilepreview/{id}"),
                            Some(&p.token),
                            json!({"path": "a.pdf"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/get/ludisurl/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/datasets/get/ludisurl/{id}"),
                            Some(&p.token),
                            json!({"path": "a.csv"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/datasets/download/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    // An empty path: 400 once access is granted.
                    c.app
                        .get(&format!("/v1/datasets/download/{id}?path="), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/datasets/links/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v1/datasets/links/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/datasets/links/{id}/{linkId}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .delete(&format!("/v1/datasets/links/{id}/no-such-link"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/datasets/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/datasets/share",
                            Some(&p.token),
                            json!({"share": {"entity_id": id, "shares": [
                                {"share_type": "share", "email": c.target.email, "access_level": "view", "to_entity_type": "User"}]}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/datasets/share/list",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v1/datasets/share/list?dataset_id={id}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/directory/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            "/v1/directory/share",
                            &p.token,
                            json!({"share": {"entity_id": id, "entity_type": "Dataset", "directory_id": "a/", "shares": [
                                {"share_type": "share", "email": c.target.email, "access_level": "view"}]}}),
                        )
                        .await
                })
            },
        },
    ]
    .into_iter()
    .chain(project_entries())
    .collect()
}

/// The Projects v2 calls that take a project.
fn project_entries() -> Vec<Entry> {
    use Level::{Edit, Execute, View};
    vec![
        Entry {
            method: "GET",
            path: "/v2/projects/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/projects/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/projects/check/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/projects/check/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "PUT",
            path: "/v2/projects/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v2/projects/{id}"),
                            &p.token,
                            json!({"entity": {"description": "By the matrix"}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v2/projects/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move { c.app.delete(&format!("/v2/projects/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/repocontents/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/projects/repocontents/{id}"),
                            Some(&p.token),
                            json!({"project": id, "path": ""}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/commitfile",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    // A new file per caller: 200 with edit access.
                    c.app
                        .post(
                            "/v2/projects/commitfile",
                            Some(&p.token),
                            json!({"project": id, "filePath": format!("by-{}.txt", p.uid), "contents": "eA==", "message": "matrix"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/deletefile",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    // A version that is not the file's: 409 once access is granted.
                    c.app
                        .post(
                            "/v2/projects/deletefile",
                            Some(&p.token),
                            json!({"project": id, "filePath": "README.md", "sha": "0123456789abcdef0123456789abcdef01234567"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/run/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .call(
                            Method::POST,
                            &format!("/v2/projects/run/{id}"),
                            Some(&p.token),
                            None,
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/stop/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .call(
                            Method::POST,
                            &format!("/v2/projects/stop/{id}"),
                            Some(&p.token),
                            None,
                        )
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/projects/launch/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/projects/launch/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/projects/getprojectapps/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v2/projects/getprojectapps/{id}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/projects/envvar",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/projects/envvar?id={id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/envvar",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    // A key per caller: 201 with edit access.
                    c.app
                        .post(
                            "/v2/projects/envvar",
                            Some(&p.token),
                            json!({"project_uid": id, "key": format!("K_{}", p.uid.replace('-', "_")), "value": "v"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PUT",
            path: "/v2/projects/envvar/{id}",
            variant: "a variable of the project",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let var = env_var(&c, &id).await;
                    c.app
                        .put(
                            &format!("/v2/projects/envvar/{var}"),
                            &p.token,
                            json!({"value": "changed"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v2/projects/envvar/{id}",
            variant: "a variable of the project",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let var = env_var(&c, &id).await;
                    c.app
                        .delete(&format!("/v2/projects/envvar/{var}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/projects/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v2/projects/share",
                            Some(&p.token),
                            json!({"share": {"entity_id": id, "shares": [
                                {"share_type": "share", "email": c.target.email, "access_level": "view", "to_entity_type": "User"}]}}),
                        )
                        .await
                })
            },
        },
    ]
}

/// A new variable of project `id`, made by its owner; returns the variable's id.
async fn env_var(c: &Ctx, id: &str) -> String {
    let key = format!("V_{}", uuid::Uuid::new_v4().simple());
    let (status, body) = c
        .app
        .post(
            "/v2/projects/envvar",
            Some(&c.owner.token),
            json!({"project_uid": id, "key": key, "value": "v"}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["envVariable"]["id"].as_str().unwrap().to_owned()
}

/// The property names anywhere in a schema (following `$ref`s once each).
fn property_names(doc: &Value, schema: &Value, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or_default().to_owned();
        if seen.insert(name.clone()) {
            property_names(doc, &doc["components"]["schemas"][&name], seen, out);
        }
        return;
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            out.insert(k.clone());
            property_names(doc, v, seen, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = schema.get(key) {
            property_names(doc, v, seen, out);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for v in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
            property_names(doc, v, seen, out);
        }
    }
}

/// Every route of the document that takes an asset: `(METHOD, path)`.
fn asset_routes() -> BTreeSet<(String, String)> {
    let doc: Value = serde_json::from_str(&ludis_api::openapi::document_json()).unwrap();
    let mut out = BTreeSet::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let mut fields = BTreeSet::new();
            for content in op["requestBody"]["content"].as_object().into_iter().flatten() {
                property_names(&doc, &content.1["schema"], &mut BTreeSet::new(), &mut fields);
            }
            for param in op["parameters"].as_array().into_iter().flatten() {
                if param["in"] == "query"
                    && let Some(name) = param["name"].as_str()
                {
                    fields.insert(name.to_owned());
                }
            }
            let by_path = ASSET_PARAMS.iter().any(|p| path.contains(p));
            let by_body = ASSET_FIELDS.iter().any(|f| fields.contains(*f));
            if by_path || by_body {
                out.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    out
}

#[test]
fn every_asset_route_has_an_entry() {
    let routes = asset_routes();
    let covered: BTreeSet<(String, String)> = entries()
        .iter()
        .map(|e| (e.method.to_owned(), e.path.to_owned()))
        .collect();
    let excused: BTreeSet<(String, String)> = NOT_ASSETS
        .iter()
        .map(|(m, p, _)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    let missing: Vec<_> = routes
        .iter()
        .filter(|r| !covered.contains(*r) && !excused.contains(*r))
        .collect();
    assert!(
        missing.is_empty(),
        "routes that take an asset but have no entry in the authorization matrix (tests/api/matrix.rs): {missing:?}"
    );
    let gone: Vec<_> = covered
        .iter()
        .chain(excused.iter())
        .filter(|r| !routes.contains(*r))
        .collect();
    assert!(
        gone.is_empty(),
        "matrix entries whose route no longer exists (or no longer takes an asset): {gone:?}"
    );
    assert!(covered.is_disjoint(&excused));
}

/// A caller: who they are, whether they are tried on the asset with an organization share, and
/// the level the access rule gives them.
struct Caller {
    label: &'static str,
    person: Person,
    org_shared: bool,
    level: Level,
}

/// An application, dataset, project or workflow of the owner's, shared with the viewer, executor and editor
/// (and, when `org_shared`, with its organization at view).
async fn asset(c: &Ctx, people: &[Person; 3], org_shared: bool, kind: AssetKind) -> String {
    let org = &c.owner.org;
    let id = match kind {
        AssetKind::Dataset => c.app.dataset(org, Some(&c.owner.uid), "Matrix data").await,
        AssetKind::ProjectV2 => c.app.project(&c.owner, "Matrix project").await,
        // A legacy notebook-style project with one notebook.
        AssetKind::Project => crate::matrix_notebooks::legacy_project(&c.app, &c.owner, "Matrix notes").await,
        AssetKind::Workflow => {
            // Publish and schedule need edit on the project too: every share holder has it.
            let project = c.app.project(&c.owner, "Matrix project").await;
            for p in people {
                c.app.share(&project, "user", &p.uid, "edit", &c.owner.uid).await;
            }
            c.app.workflow(&c.owner, &project, "Matrix workflow", true).await
        }
        _ => {
            c.app
                .insight(org, Some(&c.owner.uid), InsightSeed::app("Matrix"))
                .await
        }
    };
    for (p, level) in people.iter().zip(["view", "execute", "edit"]) {
        c.app.share(&id, "user", &p.uid, level, &c.owner.uid).await;
    }
    if org_shared {
        c.app.share(&id, "organization", org, "view", &c.owner.uid).await;
    }
    id
}

/// The kind of asset an entry's route takes.
fn kind_of(path: &str) -> AssetKind {
    if path.starts_with("/v1/projects")
        || path.starts_with("/v1/notebook")
        || path.ends_with("/getJupyterDevUrl")
    {
        AssetKind::Project
    } else if path.starts_with("/v2/projects") {
        AssetKind::ProjectV2
    } else if path.starts_with("/v2/workflows") {
        AssetKind::Workflow
    } else if path.contains("/datasets") || path == "/v1/directory/share" {
        AssetKind::Dataset
    } else {
        AssetKind::Insight
    }
}

fn verdict(need: Need, have: Level, status: StatusCode) -> Result<(), String> {
    let s = status.as_u16();
    match need {
        Need::Level(_) if have == Level::None => (s == 404)
            .then_some(())
            .ok_or(format!("no access: expected 404, got {s}")),
        Need::Level(need) if have < need => (s == 403)
            .then_some(())
            .ok_or(format!("{have} < {need}: expected 403, got {s}")),
        Need::Level(need) => (s != 403 && s != 404 && s < 500)
            .then_some(())
            .ok_or(format!("{have} ≥ {need}: expected neither 403 nor 404, got {s}")),
    }
}

#[tokio::test]
async fn the_access_rule_holds_on_every_asset_route() {
    // With the test S3 server when configured: the dataset routes that reach storage need it.
    let apps = match s3_settings() {
        Some(s3) => apps_with(s3).await,
        None => apps().await,
    };
    for app in apps {
        let kind = app.kind;
        let org = app.unique_org("Matrix").await;
        let other = app.unique_org("Elsewhere").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let target = app.person(&org, "developer", "Target").await;
        let shared: [Person; 3] = [
            app.person(&org, "developer", "Viewer").await,
            app.person(&org, "management", "Executor").await,
            app.person(&org, "developer", "Editor").await,
        ];
        let member = app.person(&org, "developer", "Member").await;
        let callers = vec![
            Caller {
                label: "no access",
                person: member.clone(),
                org_shared: false,
                level: Level::None,
            },
            Caller {
                label: "view share",
                person: shared[0].clone(),
                org_shared: false,
                level: Level::View,
            },
            Caller {
                label: "execute share",
                person: shared[1].clone(),
                org_shared: false,
                level: Level::Execute,
            },
            Caller {
                label: "edit share",
                person: shared[2].clone(),
                org_shared: false,
                level: Level::Edit,
            },
            Caller {
                label: "owner",
                person: owner.clone(),
                org_shared: false,
                level: Level::Edit,
            },
            Caller {
                label: "another organization's user (organization share on the asset)",
                person: app.person(&other, "developer", "Outsider").await,
                org_shared: true,
                level: Level::None,
            },
            Caller {
                label: "a member through the organization share",
                person: member,
                org_shared: true,
                level: Level::View,
            },
            Caller {
                label: "the asset organization's administrator",
                person: app.person(&org, "administrator", "Admin").await,
                org_shared: false,
                level: Level::Edit,
            },
            Caller {
                label: "another organization's administrator",
                person: app.person(&other, "administrator", "Oadmin").await,
                org_shared: false,
                level: Level::None,
            },
            Caller {
                label: "a superadmin",
                person: app.person(&other, "superadmin", "Root").await,
                org_shared: false,
                level: Level::Edit,
            },
        ];
        let ctx = Arc::new(Ctx { app, owner, target });
        let mut failures = Vec::new();
        let mut checked = 0;
        for e in entries() {
            let kind = kind_of(e.path);
            let kept = [
                asset(&ctx, &shared, false, kind).await,
                asset(&ctx, &shared, true, kind).await,
            ];
            for c in &callers {
                let id = if e.destructive {
                    asset(&ctx, &shared, c.org_shared, kind).await
                } else {
                    kept[usize::from(c.org_shared)].clone()
                };
                let (status, body) = (e.call)(ctx.clone(), id, c.person.clone()).await;
                checked += 1;
                if let Err(why) = verdict(e.need, c.level, status) {
                    failures.push(format!(
                        "{kind} {} {} {}: {}: {why} — {body}",
                        e.method, e.path, e.variant, c.label
                    ));
                }
            }
        }
        eprintln!(
            "authorization matrix on {kind}: {} entries × {} callers = {checked} calls",
            entries().len(),
            callers.len()
        );
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}
