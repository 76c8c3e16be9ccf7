//! The authorization matrix's entries for the template apps' data calls and the assistant's log
//! summary (issue 17), beside
//! [`super::matrix`]'s. The matrix's insight is a plain application: callers who may view it get
//! 400 'This insight is not a template app' (the access rule is checked first); the known answers
//! over a real template app and its dataset are in [`super::templates`].

use serde_json::json;

use crate::matrix::{Entry, Need};
use ludis_api::domain::AccessLevel::View;

/// The matrix's entries for `/v1/templates…` (view on the app, and on its dataset; the wizard's
/// calls: view on the dataset).
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        // The assistant's log summary (view on the item). The matrix's app has no assistant: an
        // empty log is refused (400) after the access rule, before the provider is asked.
        Entry {
            method: "POST",
            path: "/v1/llm/{id}/logsummary",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/llm/{id}/logsummary"),
                            Some(&p.token),
                            json!({"logs": "", "entity": "application"}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/templates/col.names/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v1/templates/col.names/{id}"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/templates/data.paginate/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/templates/data.paginate/{id}"),
                            Some(&p.token),
                            json!({"start": 0, "count": 10}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/templates/graph.data/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/templates/graph.data/{id}"),
                            Some(&p.token),
                            json!({"kind": "kmeans", "columns": ["x", "y"], "clusters": 4}),
                        )
                        .await
                })
            },
        },
        Entry {
            method: "POST",
            path: "/v1/templates/forecast/{id}",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .post(
                            &format!("/v1/templates/forecast/{id}"),
                            Some(&p.token),
                            json!({"x": "month", "y": "sales"}),
                        )
                        .await
                })
            },
        },
        // The wizard's calls over a dataset (view on it). The matrix's dataset has no data file:
        // an empty list, and 400 'no .csv' for the row check, after the access rule.
        Entry {
            method: "GET",
            path: "/v1/templates/datasets/{id}/files",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v1/templates/datasets/{id}/files"), &p.token)
                        .await
                })
            },
        },
        Entry {
            method: "GET",
            path: "/v1/templates/datasets/{id}/rows",
            variant: "",
            need: Need::Level(View),
            destructive: false,
            call: |c, id, p| {
                Box::pin(async move {
                    c.app
                        .get(&format!("/v1/templates/datasets/{id}/rows"), &p.token)
                        .await
                })
            },
        },
    ]
}
