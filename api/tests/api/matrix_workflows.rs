//! The authorization matrix's entries for the workflow calls (issue 15), beside
//! [`super::matrix`]'s for the other kinds. A workflow of the matrix is the owner's visual
//! workflow, unpublished, in a project the three share holders may edit (publish and schedule
//! need edit on the project besides the workflow's level), so each caller's level on the
//! workflow decides. Runs do not exist before a publish: the run calls answer 409 to callers
//! with enough access, and the access rule is checked before that.

use serde_json::json;

use crate::matrix::{Entry, Need};
use ludis_api::domain::AccessLevel::{Edit, Execute, View};

/// The matrix's entries for `/v2/workflows…`.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry {
            method: "GET",
            path: "/v2/workflows/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/workflows/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "PUT",
            path: "/v2/workflows/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .put(
                            &format!("/v2/workflows/{id}"),
                            &p.token,
                            json!({"name": "Renamed"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PATCH",
            path: "/v2/workflows/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .call(
                            reqwest::Method::PATCH,
                            &format!("/v2/workflows/{id}"),
                            Some(&p.token),
                            Some(json!({"paused": true})),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/delete/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: true,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(&format!("/v2/workflows/delete/{id}"), Some(&p.token), json!({}))
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/share",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            "/v2/workflows/share",
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
            path: "/v2/workflows/share/list",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v2/workflows/share/list?id={id}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/workflows/daginfo/{id}",
            variant: "unpublished: 409",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/workflows/daginfo/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/workflows/visual/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/workflows/visual/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/save/{id}",
            variant: "",
            need: Need::Level(Edit),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/save/{id}"),
                            Some(&p.token),
                            json!({"nodes": [{"id": "1", "type": "taskNode", "position": {"x": 0, "y": 0},
                                              "data": {"label": "A", "taskType": null, "taskData": {}}}], "edges": []}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/visual/publish/{id}",
            variant: "an unconfigured node: 400",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/visual/publish/{id}"),
                            Some(&p.token),
                            json!({}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/publish/{id}",
            variant: "a visual workflow: 400",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/publish/{id}"),
                            Some(&p.token),
                            json!({"file_name": format!("{id}_dag.py"), "files": []}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/run/{id}",
            variant: "not ready: 409",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(&format!("/v2/workflows/run/{id}"), Some(&p.token), json!({}))
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/workflows/runs/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move { c.app.get(&format!("/v2/workflows/runs/{id}"), &p.token).await })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/workflows/tasks/{id}/{dagRunId}",
            variant: "unpublished: 409",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v2/workflows/tasks/{id}/run-1"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v2/workflows/tasks/{id}/{dagRunId}/{taskId}/{tryNumber}",
            variant: "unpublished: 409",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v2/workflows/tasks/{id}/run-1/a/1"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/latest/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/latest/{id}"),
                            Some(&p.token),
                            json!({"limit": 5}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "PATCH",
            path: "/v2/workflows/mark/{id}",
            variant: "unpublished: 409",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .call(
                            reqwest::Method::PATCH,
                            &format!("/v2/workflows/mark/{id}"),
                            Some(&p.token),
                            Some(json!({"state": "success", "dagRunId": "run-1", "taskId": "a"})),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/clear/{id}",
            variant: "unpublished: 409",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/clear/{id}"),
                            Some(&p.token),
                            json!({"task_ids": ["a"], "dag_run_id": "run-1", "include_downstream": true}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v2/workflows/schedule/{id}",
            variant: "",
            need: Need::Level(Execute),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v2/workflows/schedule/{id}"),
                            Some(&p.token),
                            json!({"value": "0 6 * * *"}),
                        )
                        .await
                })
            },
        },
    ]
}
