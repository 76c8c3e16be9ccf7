//! Insight custom resources written by the API: server-side apply under the field manager
//! `ludis-api`, never forced, with only the fields the API decides.
//!
//! - An insight made in the console (`origin = api`) is applied whole from its database rows:
//!   `displayName`, `description`, `type`, `language`, `running`, and when they apply `appUrl`,
//!   `source`, `datasets`, `template`, `reportObject`, plus the id label and the owner annotation.
//!   Fields the API does not set (`port`, `image`, `resources`, `sharing`, anything added with
//!   kubectl) are left to whoever set them; a field the API owns that another manager changed
//!   since is a conflict ([`apply::Conflict`]), not an overwrite.
//! - An insight applied with kubectl or GitOps (`origin = resource`) belongs to its resource: the
//!   API applies nothing of the console's edits ([`apply`] does nothing), and stop/restart and
//!   redeploy apply only `spec.running` / `spec.redeployToken` (with the other fields the API
//!   already owns there). When the resource's manager declares `running` itself, stopping it from
//!   the console is a [`apply::Conflict`]: the manifest wins, nothing is forced.
//!
//! Without a cluster (`state.kube == None`) or for a row without a resource (`namespace` /
//! `resource_name` unset) every call does nothing.

use anyhow::Context as _;
use kube::Api;
use ludis_crds::{FIELD_MANAGER_API, Insight as InsightCr};
use serde_json::{Map, Value, json};

use super::apply::{self, truncate};
use crate::{
    db::{
        assets,
        insights::{self as rows, Insight, InsightRow},
    },
    domain::{AppType, AssetKind, InsightStatus, Language},
    state::AppState,
};

/// What the API changes besides the database rows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Change<'a> {
    /// A new `spec.running`.
    pub running: Option<bool>,
    /// A new `spec.redeployToken`.
    pub redeploy_token: Option<&'a str>,
}

/// Applies the Insight CR of `insight` (creating it, or updating the fields the API owns). Does
/// nothing for an insight applied with kubectl/GitOps (its resource is the source), without a
/// cluster, or for a row without a resource. `owner_email` is not written (the owner annotation
/// carries the uid).
pub async fn apply(state: &AppState, insight: &Insight, owner_email: Option<&str>) -> anyhow::Result<()> {
    let _ = owner_email;
    if insight.asset.is_managed() {
        tracing::debug!(insight = %insight.asset.id, "not applied: the insight's resource is its source");
        return Ok(());
    }
    write(state, insight, Change::default()).await
}

impl apply::Written for InsightRow {
    async fn apply(state: &AppState, a: &Insight) -> anyhow::Result<()> {
        apply(state, a, None).await
    }
    async fn delete(state: &AppState, a: &Insight) -> anyhow::Result<()> {
        delete(state, a).await
    }
}

/// Sets `spec.running` (stop/restart).
pub async fn set_running(state: &AppState, insight: &Insight, running: bool) -> anyhow::Result<()> {
    write(
        state,
        insight,
        Change {
            running: Some(running),
            ..Change::default()
        },
    )
    .await
}

/// Sets `spec.redeployToken` to a new value (the current time), which rolls the application.
pub async fn redeploy(state: &AppState, insight: &Insight) -> anyhow::Result<()> {
    let token = redeploy_token(std::time::SystemTime::now());
    write(
        state,
        insight,
        Change {
            redeploy_token: Some(&token),
            ..Change::default()
        },
    )
    .await
}

/// Marks the app idle since `since` (an RFC 3339 time: the operator scales it to zero) or, with
/// `None`, not idle (it starts again): the annotation `ludis.dev/idle-since`, merged into the
/// resource's metadata whoever manages its spec (console or GitOps alike). A resource that is
/// gone is fine.
pub async fn set_idle_since(
    state: &AppState,
    asset: &assets::AssetRow,
    since: Option<&str>,
) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, asset.resource()) else {
        return Ok(());
    };
    let patch = json!({"metadata": {"annotations": {ludis_crds::keys::ANNOTATION_IDLE_SINCE: since}}});
    match Api::<InsightCr>::namespaced(client.clone(), namespace)
        .patch(
            name,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&patch),
        )
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e).with_context(|| format!("failed to mark insight {namespace}/{name} idle")),
    }
}

/// Deletes the Insight CR (its children go with it). A CR that is already gone is fine.
pub async fn delete(state: &AppState, insight: &Insight) -> anyhow::Result<()> {
    apply::delete::<InsightCr>(state, &insight.asset).await
}

/// Whether the insight can be expressed as a custom resource: an external application (its
/// `appUrl`), an application or report published from a project, or an uploaded report. A
/// template app without a source project has none (the CRD requires a source or an appUrl).
pub fn has_resource(details: &rows::InsightRow) -> bool {
    match details.app_type {
        AppType::Application => is_external(details) || details.project_id.is_some(),
        AppType::Report => details.project_id.is_some(),
        AppType::UserReport => true,
    }
}

/// Where a new insight's CR goes: `(namespace, resource name)` to store in the asset row before
/// calling [`apply`]. `None` without a cluster or when the insight has no resource
/// ([`has_resource`]); such a row keeps `namespace`/`resource_name` unset. The watcher deletes a
/// row whose resource disappeared, so set them only for insights that get one.
pub async fn placement(
    state: &AppState,
    organization_id: &str,
    id: &str,
    name: &str,
    details: &rows::InsightRow,
) -> anyhow::Result<Option<(String, String)>> {
    if !has_resource(details) {
        return Ok(None);
    }
    apply::placement(state, AssetKind::Insight, organization_id, id, name).await
}

/// A readable, unique CR name ([`apply::resource_name`]: `sales-dashboard-1a2b3c4d`).
pub fn resource_name(name: &str, id: &str) -> String {
    apply::resource_name(AssetKind::Insight, name, id)
}

fn redeploy_token(at: std::time::SystemTime) -> String {
    let d = at.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!("{}.{:03}", d.as_secs(), d.subsec_millis())
}

fn is_external(details: &rows::InsightRow) -> bool {
    details.app_type == AppType::Application && details.app_url.is_some() && !details.runs_in_cluster()
}

/// The names of the insight's source project and datasets in its namespace (their assets'
/// resource names; an id without an asset row is taken as the name itself).
async fn references(state: &AppState, d: &rows::InsightRow) -> anyhow::Result<References> {
    async fn name_of(state: &AppState, kind: AssetKind, id: &str) -> anyhow::Result<Option<String>> {
        let row = assets::by_id(&state.db, id).await?.filter(|a| a.kind == kind);
        Ok(match row {
            Some(a) => a.resource_name,
            None => is_dns_name(id).then(|| id.to_owned()),
        })
    }
    let project = match &d.project_id {
        Some(id) => name_of(state, AssetKind::ProjectV2, id).await?,
        None => None,
    };
    let mut datasets = Vec::new();
    for id in &d.dataset_ids {
        if let Some(n) = name_of(state, AssetKind::Dataset, id).await? {
            datasets.push(n);
        }
    }
    Ok(References { project, datasets })
}

fn is_dns_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && !s.starts_with(['-', '.'])
        && !s.ends_with(['-', '.'])
}

/// Resource names of what the insight refers to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct References {
    pub project: Option<String>,
    pub datasets: Vec<String>,
}

/// Pure: the spec fields the API applies for an insight made in the console.
pub fn console_spec(
    insight: &Insight,
    refs: &References,
    running: bool,
    redeploy_token: Option<&str>,
) -> Map<String, Value> {
    let (a, d) = (&insight.asset, &insight.details);
    let mut spec = Map::new();
    spec.insert("displayName".into(), json!(truncate(&a.name, 128)));
    spec.insert("description".into(), json!(truncate(&a.description, 2000)));
    spec.insert("type".into(), json!(d.app_type));
    spec.insert("language".into(), json!(d.language));
    spec.insert("running".into(), json!(running));
    if is_external(d) {
        spec.insert("appUrl".into(), json!(d.app_url));
    } else if d.app_type != AppType::UserReport
        && let Some(project) = &refs.project
    {
        let files = if d.publish_filenames.is_empty() {
            vec![
                if d.language == Language::R {
                    "app.R"
                } else {
                    "app.py"
                }
                .to_owned(),
            ]
        } else {
            d.publish_filenames.clone()
        };
        let mut source = json!({"project": project, "files": files});
        if let Some(revision) = &d.revision {
            source["revision"] = json!(revision);
        }
        spec.insert("source".into(), source);
    }
    if !refs.datasets.is_empty() {
        let list: Vec<Value> = refs.datasets.iter().map(|n| json!({"name": n})).collect();
        spec.insert("datasets".into(), Value::Array(list));
    }
    if let Some(t) = &d.template {
        spec.insert("template".into(), json!(t));
    }
    if d.app_type == AppType::UserReport
        && let Some(key) = &d.report_object
    {
        spec.insert("reportObject".into(), json!(key));
    }
    if let Some(token) = redeploy_token {
        spec.insert("redeployToken".into(), json!(token));
    }
    if let Some(size) = &d.size_id {
        spec.insert("size".into(), json!(size));
    }
    spec
}

/// Pure: the applied object (identity, the id label, the owner annotation and `spec`).
pub fn object(
    insight: &Insight,
    namespace: &str,
    name: &str,
    spec: Map<String, Value>,
    whole: bool,
) -> Value {
    apply::object(&insight.asset, namespace, name, Value::Object(spec), whole)
}

/// Pure: the top-level `spec` fields a manager owns through Apply on a live object, from its
/// `managedFields`.
pub fn owned_spec_fields(live: &InsightCr, manager: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in live.metadata.managed_fields.iter().flatten() {
        if entry.manager.as_deref() != Some(manager) || entry.operation.as_deref() != Some("Apply") {
            continue;
        }
        let Some(fields) = &entry.fields_v1 else { continue };
        if let Some(spec) = fields.0.get("f:spec").and_then(Value::as_object) {
            out.extend(
                spec.keys()
                    .filter_map(|k| k.strip_prefix("f:"))
                    .map(str::to_owned),
            );
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Pure: the spec fields applied to an insight whose resource is its source: the ones the API
/// already owns there (with their live values) and the change.
pub fn resource_spec(live: &InsightCr, change: Change<'_>) -> Map<String, Value> {
    let live_spec = serde_json::to_value(&live.spec).unwrap_or_default();
    let mut spec = Map::new();
    for field in owned_spec_fields(live, FIELD_MANAGER_API) {
        if let Some(v) = live_spec.get(&field) {
            spec.insert(field, v.clone());
        }
    }
    if let Some(running) = change.running {
        spec.insert("running".into(), json!(running));
    }
    if let Some(token) = change.redeploy_token {
        spec.insert("redeployToken".into(), json!(token));
    }
    spec
}

async fn write(state: &AppState, insight: &Insight, change: Change<'_>) -> anyhow::Result<()> {
    let (Some(client), Some((namespace, name))) = (&state.kube, insight.asset.resource()) else {
        return Ok(());
    };
    let live = match Api::<InsightCr>::namespaced(client.clone(), namespace)
        .get_opt(name)
        .await
    {
        Ok(live) => live,
        // No namespace yet: the apply creates it.
        Err(kube::Error::Api(e)) if e.code == 404 => None,
        Err(e) => return Err(e).with_context(|| format!("failed to read insight {namespace}/{name}")),
    };
    let body = if insight.asset.is_managed() {
        let Some(live) = &live else {
            anyhow::bail!(
                "the resource {namespace}/{name} of insight {} is gone",
                insight.asset.id
            );
        };
        let spec = resource_spec(live, change);
        if spec.is_empty() {
            return Ok(());
        }
        object(insight, namespace, name, spec, false)
    } else {
        if !has_resource(&insight.details) {
            tracing::debug!(insight = %insight.asset.id, "not applied: a template app has no resource");
            return Ok(());
        }
        let refs = references(state, &insight.details).await?;
        let running = change.running.unwrap_or_else(|| match &live {
            Some(l) => l.spec.running,
            None => insight.details.status != InsightStatus::Stopped,
        });
        // A redeploy token the API set before is kept (dropping it would roll the app).
        let token = change.redeploy_token.map(str::to_owned).or_else(|| {
            live.as_ref()
                .filter(|l| {
                    owned_spec_fields(l, FIELD_MANAGER_API)
                        .iter()
                        .any(|f| f == "redeployToken")
                })
                .and_then(|l| l.spec.redeploy_token.clone())
        });
        let spec = console_spec(insight, &refs, running, token.as_deref());
        object(insight, namespace, name, spec, true)
    };
    apply::apply::<InsightCr>(state, &insight.asset, &body).await
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, ManagedFieldsEntry};
    use ludis_crds::{ANNOTATION_OWNER, LABEL_ID};

    use super::*;
    use crate::db::{assets::AssetRow, insights::InsightRow};

    fn insight(app_type: AppType, status: InsightStatus) -> Insight {
        Insight {
            asset: AssetRow {
                id: "1a2b3c4d-0000-4000-8000-000000000000".into(),
                kind: AssetKind::Insight,
                organization_id: "org".into(),
                owner_uid: Some("u1".into()),
                name: "Sales".into(),
                description: "Quarterly".into(),
                img_path: None,
                namespace: Some("ludis-acme".into()),
                resource_name: Some("sales-1a2b3c4d".into()),
                origin: crate::domain::Origin::Api,
                views: 0,
                created_at: 0,
                updated_at: 0,
            },
            details: InsightRow {
                id: "1a2b3c4d-0000-4000-8000-000000000000".into(),
                app_type,
                status,
                language: Language::Python,
                ..InsightRow::default()
            },
        }
    }

    #[test]
    fn an_external_app_applies_its_url_and_no_source() {
        let mut i = insight(AppType::Application, InsightStatus::External);
        i.details.app_url = Some("https://example.com/x".into());
        i.details.project_id = Some("p".into());
        let spec = console_spec(&i, &References::default(), true, None);
        assert_eq!(spec["appUrl"], "https://example.com/x");
        assert!(!spec.contains_key("source"));
        assert_eq!(spec["displayName"], "Sales");
        assert_eq!(spec["type"], "application");
        assert!(has_resource(&i.details));
    }

    #[test]
    fn a_published_app_applies_its_source_and_datasets() {
        let mut i = insight(AppType::Application, InsightStatus::Starting);
        i.details.project_id = Some("p1".into());
        i.details.publish_filenames = vec!["dash.py".into()];
        let refs = References {
            project: Some("demo".into()),
            datasets: vec!["sales".into()],
        };
        let spec = console_spec(&i, &refs, false, Some("123"));
        assert_eq!(spec["source"], json!({"project": "demo", "files": ["dash.py"]}));
        assert_eq!(spec["datasets"], json!([{"name": "sales"}]));
        assert_eq!(spec["running"], false);
        assert_eq!(spec["redeployToken"], "123");
        // Fields the API does not decide are not applied (someone else may own them).
        for f in ["port", "image", "resources", "sharing"] {
            assert!(!spec.contains_key(f), "{f}");
        }
    }

    #[test]
    fn a_template_app_without_a_project_has_no_resource() {
        let mut i = insight(AppType::Application, InsightStatus::Starting);
        i.details.template = Some(crate::domain::Template::Cluster);
        assert!(!has_resource(&i.details));
        assert!(has_resource(
            &insight(AppType::UserReport, InsightStatus::Uploaded).details
        ));
        assert!(!has_resource(
            &insight(AppType::Report, InsightStatus::Rendering).details
        ));
    }

    #[test]
    fn the_object_carries_the_id_label_and_owner_only_when_whole() {
        let i = insight(AppType::UserReport, InsightStatus::Uploaded);
        let whole = object(&i, "ns", "n", Map::new(), true);
        assert_eq!(whole["metadata"]["labels"][LABEL_ID], i.asset.id);
        assert_eq!(whole["metadata"]["annotations"][ANNOTATION_OWNER], "u1");
        let partial = object(&i, "ns", "n", Map::new(), false);
        assert!(partial["metadata"].get("labels").is_none());
        assert!(partial["metadata"].get("annotations").is_none());
        assert_eq!(partial["apiVersion"], "ludis.dev/v1alpha1");
    }

    fn live(entries: Vec<(&str, &str, Value)>) -> InsightCr {
        let mut cr: InsightCr = serde_json::from_value(json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
            "metadata": {"name": "x", "namespace": "ns"},
            "spec": {"displayName": "X", "type": "application", "appUrl": "https://x.example", "running": true, "redeployToken": "7"}
        }))
        .unwrap();
        cr.metadata.managed_fields = Some(
            entries
                .into_iter()
                .map(|(m, op, f)| ManagedFieldsEntry {
                    manager: Some(m.into()),
                    operation: Some(op.into()),
                    fields_v1: Some(FieldsV1(f)),
                    ..ManagedFieldsEntry::default()
                })
                .collect(),
        );
        cr
    }

    #[test]
    fn a_resource_insight_gets_only_the_fields_the_api_owns_and_the_change() {
        let cr = live(vec![
            (
                "argocd",
                "Apply",
                json!({"f:spec": {"f:displayName": {}, "f:type": {}, "f:appUrl": {}}}),
            ),
            ("ludis-api", "Apply", json!({"f:spec": {"f:redeployToken": {}}})),
            ("ludis-api", "Update", json!({"f:spec": {"f:displayName": {}}})),
        ]);
        assert_eq!(owned_spec_fields(&cr, "ludis-api"), vec!["redeployToken"]);
        let spec = resource_spec(
            &cr,
            Change {
                running: Some(false),
                ..Change::default()
            },
        );
        assert_eq!(
            Value::Object(spec),
            json!({"redeployToken": "7", "running": false})
        );
    }

    #[test]
    fn redeploy_tokens_change_with_time() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_700_000_000_123);
        assert_eq!(redeploy_token(t), "1700000000.123");
    }
}
