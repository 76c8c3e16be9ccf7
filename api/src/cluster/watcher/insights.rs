//! The Insight side of the watcher: an Insight resource's fields in the database's words
//! ([`Seen`]), its rows ([`new_insight`], [`updated_insight`]) and what the operator observed
//! (status, the app's upstream URL, a report's output). A console row keeps its project, files and
//! datasets; a resource row takes them from `spec.source` and `spec.datasets` (by their resource
//! names in the namespace). `spec.reportObject` is mirrored only when it is a file of the insight's
//! own report folder.

use kube::ResourceExt as _;
use ludis_crds::{
    Insight as InsightCr,
    common::Sharing,
    insight::{InsightPhase, InsightTemplate, InsightType},
};

use super::mirror::{Mirror, Mirrored, Reading, follow, resource_row, same_apart_from};
use crate::{
    db::{
        assets::{self, AssetRow},
        insights::{self as rows, Insight, InsightRow},
    },
    domain::{AppType, AssetKind, InsightStatus, Language, Origin, Template},
};

impl Mirrored for InsightCr {
    type Details = InsightRow;
    type Seen = Seen;

    fn id_candidates(cr: &Self) -> Vec<String> {
        cr.labels()
            .get(ludis_crds::LABEL_ID)
            .cloned()
            .into_iter()
            .collect()
    }

    async fn new_rows(
        m: &mut Mirror,
        cr: &Self,
        seen: &Seen,
        row: AssetRow,
    ) -> anyhow::Result<Option<Insight>> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let lookups = lookups(&m.state.db, seen, &namespace).await?;
        let mut insight = new_insight(
            seen,
            (&row.id, &row.organization_id),
            row.owner_uid.clone(),
            (&namespace, &name),
            row.created_at,
            lookups,
        );
        insight.asset.origin = row.origin;
        warn_ignored_report(cr, seen, &insight.details);
        Ok(Some(insight))
    }

    async fn updated(
        m: &mut Mirror,
        cr: &Self,
        old: &Insight,
        seen: &Seen,
        owner: Option<String>,
    ) -> anyhow::Result<Insight> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let lookups = if old.asset.origin == Origin::Resource {
            Some(lookups(&m.state.db, seen, &namespace).await?)
        } else {
            None
        };
        let new = updated_insight(old, seen, owner, (&namespace, &name), lookups);
        warn_ignored_report(cr, seen, &new.details);
        Ok(new)
    }

    fn same_fields(a: &Insight, b: &Insight) -> bool {
        same_fields(a, b)
    }

    async fn write_observed(db: &sqlx::AnyPool, old: &Insight, new: &Insight) -> anyhow::Result<()> {
        if observed(&old.details) != observed(&new.details) {
            let d = &new.details;
            rows::set_observed(
                db,
                &d.id,
                d.status,
                d.status_message.as_deref(),
                d.upstream_url.as_deref(),
                d.output.as_deref(),
            )
            .await?;
        }
        Ok(())
    }
}

/// A `spec.reportObject` outside the insight's own report folder is not mirrored: logged.
fn warn_ignored_report(cr: &InsightCr, seen: &Seen, row: &InsightRow) {
    if let Some(key) = &seen.report_object
        && row.report_object.is_none()
    {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        tracing::warn!(%namespace, %name, %key, "spec.reportObject is not in the insight's own report folder; ignored");
    }
}

/// The ids of the source project and datasets, by their resource names in the namespace.
async fn lookups(db: &sqlx::AnyPool, seen: &Seen, namespace: &str) -> anyhow::Result<Lookups> {
    let project_id = match &seen.project {
        Some(p) => assets::by_resource(db, AssetKind::ProjectV2, namespace, p)
            .await?
            .map(|a| a.id),
        None => None,
    };
    let mut dataset_ids = Vec::new();
    for d in &seen.datasets {
        if let Some(a) = assets::by_resource(db, AssetKind::Dataset, namespace, d).await? {
            dataset_ids.push(a.id);
        }
    }
    Ok(Lookups {
        project_id,
        dataset_ids,
    })
}

/// Pure: what a resource says, in the database's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub name: String,
    pub description: String,
    pub app_type: AppType,
    pub app_url: Option<String>,
    pub template: Option<Template>,
    pub language: Language,
    pub report_object: Option<String>,
    pub project: Option<String>,
    pub files: Vec<String>,
    pub datasets: Vec<String>,
    pub running: bool,
    /// The observed status, when the resource's status describes its current spec.
    pub status: Option<InsightStatus>,
    pub upstream_url: Option<String>,
    pub output: Option<String>,
    /// Why it fails or what it waits for (the operator's conditions).
    pub message: Option<String>,
    /// The published revision (`spec.source.revision`).
    pub revision: Option<String>,
    /// The hardware size (`spec.size`).
    pub size: Option<String>,
    pub sharing: Option<ludis_crds::common::Sharing>,
}

impl Reading<InsightCr> for Seen {
    fn sharing(&self) -> Option<&Sharing> {
        self.sharing.as_ref()
    }

    fn of(cr: &InsightCr) -> Self {
        let spec = &cr.spec;
        let status = cr.status.as_ref();
        let current = status.is_some_and(|s| match (s.observed_generation, cr.metadata.generation) {
            (Some(observed), Some(generation)) => observed >= generation,
            _ => true,
        });
        let phase = status.filter(|_| current).and_then(|s| s.phase);
        let external = spec.app_url.is_some();
        Self {
            name: spec.display_name.clone(),
            description: spec.description.clone(),
            app_type: match spec.type_ {
                InsightType::Application => AppType::Application,
                InsightType::Report => AppType::Report,
                InsightType::UserReport => AppType::UserReport,
            },
            app_url: spec.app_url.clone(),
            template: spec.template.map(|t| match t {
                InsightTemplate::Cluster => Template::Cluster,
                InsightTemplate::SliceAndDice => Template::SliceAndDice,
                InsightTemplate::Campaign => Template::Campaign,
            }),
            language: match spec.language {
                ludis_crds::common::Language::Python => Language::Python,
                ludis_crds::common::Language::R => Language::R,
            },
            report_object: spec.report_object.clone(),
            project: spec.source.as_ref().map(|s| s.project.clone()),
            files: spec.source.as_ref().map(|s| s.files.clone()).unwrap_or_default(),
            datasets: spec.datasets.iter().map(|d| d.name.clone()).collect(),
            running: spec.running,
            status: phase.map(status_of),
            // External apps are redirected to, never proxied.
            upstream_url: status
                .filter(|_| current && !external)
                .and_then(|s| s.url.clone()),
            output: status.filter(|_| current).and_then(|s| s.output.clone()),
            message: status
                .filter(|_| current)
                .and_then(|s| ludis_crds::common::status_message(&s.conditions)),
            revision: spec.source.as_ref().and_then(|s| s.revision.clone()),
            size: spec.size.clone(),
            sharing: spec.sharing.clone(),
        }
    }
}

impl Seen {
    /// The status of a new row before the operator reports.
    fn initial_status(&self) -> InsightStatus {
        match self.app_type {
            AppType::UserReport => InsightStatus::Uploaded,
            AppType::Report => InsightStatus::Rendering,
            _ if self.app_url.is_some() => InsightStatus::External,
            _ if self.running => InsightStatus::Starting,
            _ => InsightStatus::Stopped,
        }
    }
}

/// Pure: the database status of an operator phase.
pub fn status_of(phase: InsightPhase) -> InsightStatus {
    match phase {
        InsightPhase::Running => InsightStatus::Running,
        InsightPhase::Stopped => InsightStatus::Stopped,
        InsightPhase::Idle => InsightStatus::Idle,
        InsightPhase::Starting => InsightStatus::Starting,
        InsightPhase::Rendering => InsightStatus::Rendering,
        InsightPhase::Rendered => InsightStatus::Rendered,
        InsightPhase::External => InsightStatus::External,
        InsightPhase::Uploaded => InsightStatus::Uploaded,
        InsightPhase::Failed => InsightStatus::Failed,
    }
}

/// Ids of what a resource refers to.
#[derive(Debug, Clone, Default)]
pub struct Lookups {
    pub project_id: Option<String>,
    pub dataset_ids: Vec<String>,
}

/// A default picture for an insight that came without one: one of the 15 defaults, by id.
fn default_image(id: &str) -> String {
    let n = id
        .bytes()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
        % 15
        + 1;
    format!("/v1/images/defaults/insight-{n:02}.svg")
}

/// Pure: the rows of a resource seen for the first time.
pub fn new_insight(
    seen: &Seen,
    (id, organization_id): (&str, &str),
    owner_uid: Option<String>,
    at: (&str, &str),
    now: i64,
    lookups: Lookups,
) -> Insight {
    let (_, name) = at;
    let in_cluster = seen.app_type == AppType::Application && seen.app_url.is_none();
    let row = resource_row(
        AssetKind::Insight,
        (id, organization_id),
        owner_uid,
        at,
        (&seen.name, &seen.description),
        now,
    );
    Insight {
        asset: AssetRow {
            img_path: Some(default_image(id)),
            ..row
        },
        details: InsightRow {
            id: id.to_owned(),
            app_type: seen.app_type,
            status: seen.status.unwrap_or_else(|| seen.initial_status()),
            app_url: seen.app_url.clone(),
            container_name: in_cluster.then(|| name.to_owned()),
            template: seen.template,
            is_template: false,
            language: seen.language,
            report_object: own_report_object(seen, id),
            project_id: lookups.project_id,
            publish_filenames: seen.files.clone(),
            dataset_ids: lookups.dataset_ids,
            upstream_url: seen.upstream_url.clone(),
            output: seen.output.clone(),
            status_message: seen.message.clone(),
            revision: seen.revision.clone(),
            // The wizard's choice; a resource does not name one.
            template_file: None,
            size_id: seen.size.clone(),
            always_on: false,
        },
    }
}

/// Pure: an existing row brought in line with its resource. The resource's fields replace the
/// row's; for a row made in the console (`lookups` is None) the project, files and datasets stay
/// the console's. An owner annotation that names nobody keeps the console's owner, and takes
/// the owner away from a resource row.
pub fn updated_insight(
    old: &Insight,
    seen: &Seen,
    owner_uid: Option<String>,
    at: (&str, &str),
    lookups: Option<Lookups>,
) -> Insight {
    let (_, name) = at;
    let mut new = follow(old, (&seen.name, &seen.description), owner_uid, at);
    let d = &mut new.details;
    d.app_type = seen.app_type;
    d.app_url = seen.app_url.clone();
    d.template = seen.template;
    d.language = seen.language;
    d.report_object = own_report_object(seen, &old.asset.id);
    if let Some(l) = lookups {
        d.project_id = l.project_id;
        d.dataset_ids = l.dataset_ids;
        d.publish_filenames = seen.files.clone();
        d.revision = seen.revision.clone();
        d.size_id = seen.size.clone();
        let in_cluster = seen.app_type == AppType::Application && seen.app_url.is_none();
        d.container_name = in_cluster.then(|| name.to_owned());
    }
    if let Some(status) = seen.status {
        d.status = status;
        d.status_message = seen.message.clone();
        d.upstream_url = seen.upstream_url.clone();
        d.output = seen.output.clone();
    } else if old.asset.origin == Origin::Api && seen.app_url.is_some() {
        // An app the console made external: no workload, nothing to wait for.
        d.status = InsightStatus::External;
    }
    new
}

/// Pure: the resource's `spec.reportObject` when it names a file of the insight's own report
/// folder (`reports/<insight id>/…`), else nothing: it is presigned for every viewer, so a
/// resource may not point at another insight's, or another organization's, object.
fn own_report_object(seen: &Seen, insight_id: &str) -> Option<String> {
    seen.report_object
        .clone()
        .filter(|key| rows::is_own_report_object(insight_id, key))
}

/// Pure: whether the fields a resource decides are the same (the observed ones aside).
fn same_fields(a: &Insight, b: &Insight) -> bool {
    same_apart_from(a, b, |d| {
        d.status = InsightStatus::default();
        d.status_message = None;
        d.upstream_url = None;
        d.output = None;
    })
}

fn observed(d: &InsightRow) -> (InsightStatus, Option<&str>, Option<&str>, Option<&str>) {
    (
        d.status,
        d.status_message.as_deref(),
        d.upstream_url.as_deref(),
        d.output.as_deref(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cr(spec: serde_json::Value, status: Option<serde_json::Value>) -> InsightCr {
        let mut v = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
            "metadata": {"name": "sales", "namespace": "ludis-acme", "generation": 2},
            "spec": spec,
        });
        if let Some(s) = status {
            v["status"] = s;
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_resource_reads_in_the_databases_words() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["d.py"]},
                   "template": "slice-and-dice", "language": "r", "datasets": [{"name": "s"}]}),
            Some(
                json!({"observedGeneration": 2, "phase": "Running", "url": "http://sales.ludis-acme.svc:8000"}),
            ),
        ));
        assert_eq!(seen.app_type, AppType::Application);
        assert_eq!(seen.template, Some(Template::SliceAndDice));
        assert_eq!(seen.language, Language::R);
        assert_eq!(seen.status, Some(InsightStatus::Running));
        assert_eq!(
            seen.upstream_url.as_deref(),
            Some("http://sales.ludis-acme.svc:8000")
        );
        assert_eq!(seen.project.as_deref(), Some("demo"));
        assert_eq!(seen.datasets, ["s"]);
    }

    #[test]
    fn a_stale_status_is_not_mirrored() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["d.py"]}, "running": false}),
            Some(json!({"observedGeneration": 1, "phase": "Running", "url": "http://x"})),
        ));
        assert_eq!(seen.status, None);
        assert_eq!(seen.upstream_url, None);
        assert_eq!(seen.initial_status(), InsightStatus::Stopped);
    }

    #[test]
    fn an_external_app_is_never_proxied() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Ext", "type": "application", "appUrl": "https://x.example"}),
            Some(json!({"observedGeneration": 2, "phase": "External", "url": "https://x.example"})),
        ));
        assert_eq!(seen.status, Some(InsightStatus::External));
        assert_eq!(seen.upstream_url, None);
        let new = new_insight(&seen, ("id-1", "org"), None, ("ns", "ext"), 5, Lookups::default());
        assert_eq!(new.asset.origin, Origin::Resource);
        assert_eq!(new.details.container_name, None);
        assert!(
            new.asset
                .img_path
                .unwrap()
                .starts_with("/v1/images/defaults/insight-")
        );
    }

    #[test]
    fn a_report_object_outside_the_insights_own_folder_is_not_mirrored() {
        let report = |key: &str| {
            Seen::of(&cr(
                json!({"displayName": "Q3", "type": "user_report", "reportObject": key}),
                None,
            ))
        };
        let own = report("reports/id-1/q3.pdf");
        let new = new_insight(&own, ("id-1", "org"), None, ("ns", "q3"), 5, Lookups::default());
        assert_eq!(new.details.report_object.as_deref(), Some("reports/id-1/q3.pdf"));
        for key in [
            "reports/id-2/q3.pdf",
            "datasets/ludis-other/id-1/q3.pdf",
            "reports/id-1/../id-2/q3.pdf",
        ] {
            let foreign = report(key);
            let created = new_insight(
                &foreign,
                ("id-1", "org"),
                None,
                ("ns", "q3"),
                5,
                Lookups::default(),
            );
            assert_eq!(created.details.report_object, None, "{key}");
            let updated = updated_insight(&new, &foreign, None, ("ns", "q3"), None);
            assert_eq!(updated.details.report_object, None, "{key}: replaces the old key");
        }
    }

    #[test]
    fn a_console_row_keeps_its_own_fields_and_owner() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Renamed", "type": "application", "source": {"project": "demo", "files": ["x.py"]}}),
            None,
        ));
        let mut old = new_insight(
            &seen,
            ("id-1", "org"),
            Some("u1".into()),
            ("ns", "sales"),
            5,
            Lookups::default(),
        );
        old.asset.origin = Origin::Api;
        old.asset.name = "Old".into();
        old.details.publish_filenames = vec!["console.py".into()];
        old.details.status = InsightStatus::Running;
        let new = updated_insight(&old, &seen, None, ("ns", "sales"), None);
        assert_eq!(new.asset.name, "Renamed");
        assert_eq!(new.asset.owner_uid.as_deref(), Some("u1"));
        assert_eq!(new.details.publish_filenames, ["console.py"]);
        assert_eq!(
            new.details.status,
            InsightStatus::Running,
            "no status yet: the row's stays"
        );
        assert!(!same_fields(&old, &new));
        // A resource row loses an owner the annotation no longer names.
        old.asset.origin = Origin::Resource;
        let new = updated_insight(&old, &seen, None, ("ns", "sales"), Some(Lookups::default()));
        assert_eq!(new.asset.owner_uid, None);
        assert_eq!(new.details.publish_filenames, ["x.py"]);
    }

    #[test]
    fn status_only_changes_are_told_apart() {
        let seen = Seen::of(&cr(
            json!({"displayName": "S", "type": "application", "appUrl": "https://x.example"}),
            None,
        ));
        let old = new_insight(&seen, ("id", "org"), None, ("ns", "s"), 5, Lookups::default());
        let mut new = old.clone();
        new.details.status = InsightStatus::Failed;
        new.details.upstream_url = Some("http://x".into());
        assert!(same_fields(&old, &new));
        assert_ne!(observed(&old.details), observed(&new.details));
    }
}
