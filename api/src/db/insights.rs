//! The `insights` table: an application's, report's or user report's details beside its `assets`
//! row (kind `application`), and what the API and the operator change of it alone (status).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::{
    details::{AnyQuery, Details, WithDetails},
    named, named_opt,
};
use crate::domain::{AppType, AssetKind, InsightStatus, Language, Template};

/// The folder of user reports' files in the assets bucket: `reports/<insight id>/<file name>`.
pub const REPORTS_PREFIX: &str = "reports";

/// The key of file `file_name` (no `/`) of user report `insight_id`.
pub fn report_key(insight_id: &str, file_name: &str) -> String {
    format!("{REPORTS_PREFIX}/{insight_id}/{file_name}")
}

/// Whether `key` is a file of insight `insight_id`'s own report folder — the only object its
/// `report_object` may name, since it is presigned for every viewer and deleted with the insight.
/// The file name is what the import makes (letters, digits, `.`, `-`, `_`, not starting with a
/// dot), as the Insight CRD's rule on `spec.reportObject` says.
pub fn is_own_report_object(insight_id: &str, key: &str) -> bool {
    key.strip_prefix(REPORTS_PREFIX)
        .and_then(|k| k.strip_prefix('/'))
        .and_then(|k| k.strip_prefix(insight_id))
        .and_then(|k| k.strip_prefix('/'))
        .is_some_and(|file| {
            !insight_id.is_empty()
                && !file.is_empty()
                && !file.starts_with('.')
                && file
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        })
}

#[derive(Debug, Clone, Default)]
pub struct InsightRow {
    pub id: String,
    pub app_type: AppType,
    pub status: InsightStatus,
    pub app_url: Option<String>,
    pub container_name: Option<String>,
    pub template: Option<Template>,
    pub is_template: bool,
    pub language: Language,
    pub report_object: Option<String>,
    pub project_id: Option<String>,
    pub publish_filenames: Vec<String>,
    pub dataset_ids: Vec<String>,
    pub upstream_url: Option<String>,
    pub output: Option<String>,
    /// Why it fails or what it waits for, as the operator says.
    pub status_message: Option<String>,
    /// The commit it was published at (its pods check that revision out).
    pub revision: Option<String>,
    /// A template app's data file, relative to its first dataset (chosen in the wizard); `None`:
    /// the dataset's default.
    pub template_file: Option<String>,
    /// The hardware size of its pod (an id of the administrator's size list); `None`: the
    /// list's default for apps and reports.
    pub size_id: Option<String>,
    /// Pinned always on by its owner: never scaled to zero when idle (where the organization
    /// allows pins; [`crate::idle`]).
    pub always_on: bool,
}

pub(super) fn json_list(s: &str) -> Vec<String> {
    serde_json::from_str(s).unwrap_or_default()
}

pub(super) fn json_text(list: &[String]) -> String {
    serde_json::to_string(list).unwrap_or_else(|_| "[]".into())
}

impl Details for InsightRow {
    const KIND: AssetKind = AssetKind::Insight;
    const COLUMNS: &'static [&'static str] = &[
        "app_type",
        "status",
        "app_url",
        "container_name",
        "template",
        "is_template",
        "language",
        "report_object",
        "project_id",
        "publish_filenames",
        "dataset_ids",
        "upstream_url",
        "output",
        "status_message",
        "revision",
        "template_file",
        "size_id",
        "always_on",
    ];

    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            app_type: named(r, "app_type")?,
            status: named(r, "status")?,
            app_url: r.try_get("app_url")?,
            container_name: r.try_get("container_name")?,
            template: named_opt(r, "template")?,
            is_template: r.try_get::<i64, _>("is_template")? != 0,
            language: named(r, "language")?,
            report_object: r.try_get("report_object")?,
            project_id: r.try_get("project_id")?,
            publish_filenames: json_list(&r.try_get::<String, _>("publish_filenames")?),
            dataset_ids: json_list(&r.try_get::<String, _>("dataset_ids")?),
            upstream_url: r.try_get("upstream_url")?,
            output: r.try_get("output")?,
            status_message: r.try_get("status_message")?,
            revision: r.try_get("revision")?,
            template_file: r.try_get("template_file")?,
            size_id: r.try_get("size_id")?,
            always_on: r.try_get::<i64, _>("always_on")? != 0,
        })
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn bind<'q>(&'q self, q: AnyQuery<'q>) -> AnyQuery<'q> {
        q.bind(self.app_type.as_str())
            .bind(self.status.as_str())
            .bind(&self.app_url)
            .bind(&self.container_name)
            .bind(self.template.map(Template::as_str))
            .bind(i64::from(self.is_template))
            .bind(self.language.as_str())
            .bind(&self.report_object)
            .bind(&self.project_id)
            .bind(json_text(&self.publish_filenames))
            .bind(json_text(&self.dataset_ids))
            .bind(&self.upstream_url)
            .bind(&self.output)
            .bind(&self.status_message)
            .bind(&self.revision)
            .bind(&self.template_file)
            .bind(&self.size_id)
            .bind(i64::from(self.always_on))
    }
}

impl InsightRow {
    /// An application that runs in the cluster (not an external URL).
    pub fn runs_in_cluster(&self) -> bool {
        self.app_type == AppType::Application && self.status != InsightStatus::External
    }
}

/// An insight: its asset row and its details.
pub type Insight = WithDetails<InsightRow>;

/// Sets what the operator observed: status (and what it says of it), upstream URL, report output.
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: InsightStatus,
    message: Option<&str>,
    upstream_url: Option<&str>,
    output: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE insights SET status = $2, status_message = $3, upstream_url = $4, output = $5 WHERE id = $1",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(message)
    .bind(upstream_url)
    .bind(output)
    .execute(db)
    .await?;
    Ok(())
}

/// Sets what an application runs: its files (the first is the entry file) and the commit.
pub async fn set_publication(
    db: &AnyPool,
    id: &str,
    files: &[String],
    revision: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE insights SET publish_filenames = $2, revision = $3 WHERE id = $1")
        .bind(id)
        .bind(json_text(files))
        .bind(revision)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets the status the API expects right after an action (stop → stopped, restart → starting),
/// before the operator reports what it observed; touches the asset's `updated_at`.
pub async fn set_status(db: &AnyPool, id: &str, status: InsightStatus, now: i64) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE insights SET status = $2, status_message = NULL WHERE id = $1")
        .bind(id)
        .bind(status.as_str())
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE assets SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_object_is_a_file_of_the_insights_own_folder() {
        let id = "8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0aa";
        assert!(is_own_report_object(id, &report_key(id, "Q3_report-v2.pdf")));
        for key in [
            "reports/8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0ab/r.pdf".to_owned(),
            format!("reports/{id}/"),
            format!("reports/{id}/a/b.pdf"),
            format!("reports/{id}/../x.pdf"),
            format!("reports/{id}/..pdf"),
            format!("reports/{id}/a b.pdf"),
            format!("/reports/{id}/r.pdf"),
            format!("reports/{id}r.pdf"),
            format!("datasets/ludis-acme/{id}/r.pdf"),
            "reports/r.pdf".to_owned(),
        ] {
            assert!(!is_own_report_object(id, &key), "{key}");
        }
        assert!(!is_own_report_object("", "reports//r.pdf"));
    }
}
