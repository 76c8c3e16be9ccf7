//! The authorization matrix's entries for legacy projects and their notebooks (issue 18,
//! docs/contracts/notebooks.md), beside [`super::matrix`]'s. The matrix's asset is a legacy
//! project with one notebook; a route that takes a notebook id is called with that notebook's
//! (a notebook has no access of its own: its project's level decides).

use serde_json::json;

use crate::{
    helpers::{Person, TestApp},
    matrix::{Ctx, Entry, Need},
};
use ludis_api::domain::AccessLevel::{Edit, Execute, View};

/// A legacy project of `owner`'s over a dataset of theirs, with one notebook; its id.
pub(crate) async fn legacy_project(app: &TestApp, owner: &Person, name: &str) -> String {
    let dataset = app.dataset(&owner.org, Some(&owner.uid), "Notebook data").await;
    let (status, body) = app
        .post(
            "/v1/projects",
            Some(&owner.token),
            json!({"project": {"name": name, "description": "Notes", "language": "python", "dataset_ids": [dataset]}}),
        )
        .await;
    assert_eq!(status, 201, "create a legacy project on {}: {body}", app.kind);
    let id = body["project"]["id"].as_str().unwrap().to_owned();
    let (status, body) = app
        .post(
            "/v1/notebook",
            Some(&owner.token),
            json!({"notebook": {"name": "First", "description": "The first", "project_id": id}}),
        )
        .await;
    assert_eq!(status, 201, "create a notebook on {}: {body}", app.kind);
    id
}

/// The (first) notebook of legacy project `project`, as its owner sees it.
async fn notebook_of(c: &Ctx, project: &str) -> String {
    let (status, body) = c
        .app
        .get(&format!("/v1/notebook/{project}"), &c.owner.token)
        .await;
    assert_eq!(status, 200, "{body}");
    body["notebooks"][0]["id"].as_str().unwrap().to_owned()
}

pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry {
            method: "GET",
            path: "/v1/projects/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v1/projects/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/projects/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v1/projects/{id}"),
                            &p.token,
                            json!({"project": {"author": "Someone"}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/projects/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move { c.app.delete(&format!("/v1/projects/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/projects/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/projects/share",
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
            path: "/v1/notebook/{id}",
            variant: "a project's notebooks",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v1/notebook/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/notebook/detail/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app.get(&format!("/v1/notebook/detail/{n}"), &p.token).await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/notebook",
                            Some(&p.token),
                            json!({"notebook": {"name": "Another", "description": "d", "project_id": id}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook/import",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v1/notebook/import",
                            Some(&p.token),
                            json!({"notebook": {"project_id": id},
                                   "file": {"name": "uploaded.ipynb", "content": r#"{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[]}"#}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/notebook/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app
                        .put(
                            &format!("/v1/notebook/{n}"),
                            &p.token,
                            json!({"notebook": {"description": "Changed"}}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "DELETE",
            path: "/v1/notebook/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app.delete(&format!("/v1/notebook/{n}"), &p.token).await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook/{id}/open",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app
                        .post(&format!("/v1/notebook/{n}/open"), Some(&p.token), json!({}))
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook/{id}/stop",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app
                        .post(&format!("/v1/notebook/{n}/stop"), Some(&p.token), json!({}))
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook/{id}/preview",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app
                        .post(&format!("/v1/notebook/{n}/preview"), Some(&p.token), json!({}))
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/notebook/{id}/commit",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    let n = notebook_of(&c, &id).await;
                    c.app
                        .post(
                            &format!("/v1/notebook/{n}/commit"),
                            Some(&p.token),
                            json!({"message": "Save"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PUT",
            path: "/v1/users/{userId}/getJupyterDevUrl",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v1/users/{}/getJupyterDevUrl", p.uid),
                            &p.token,
                            json!({"project_id": id}),
                        )
                        .await
                })
            },
        },
    ]
}
