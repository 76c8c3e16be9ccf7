//! The `insights` table: an application's, report's or user report's details beside its `assets`
//! row (kind `application`).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::assets::{self, AssetRow};

pub const APPLICATION: &str = "application";
pub const REPORT: &str = "report";
pub const USER_REPORT: &str = "user_report";
pub const APP_TYPES: [&str; 3] = [APPLICATION, REPORT, USER_REPORT];

/// Statuses (the spec's `running` and `external`, and the operator's phases lowercased).
pub const RUNNING: &str = "running";
pub const STOPPED: &str = "stopped";
pub const STARTING: &str = "starting";
pub const EXTERNAL: &str = "external";
pub const RENDERING: &str = "rendering";
pub const RENDERED: &str = "rendered";
pub const UPLOADED: &str = "uploaded";
pub const FAILED: &str = "failed";

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
    pub app_type: String,
    pub status: String,
    pub app_url: Option<String>,
    pub container_name: Option<String>,
    pub template: Option<String>,
    pub is_template: bool,
    pub language: String,
    pub report_object: Option<String>,
    pub project_id: Option<String>,
    pub publish_filenames: Vec<String>,
    pub dataset_ids: Vec<String>,
    pub upstream_url: Option<String>,
    pub output: Option<String>,
}

const COLUMNS: &str = "d.app_type, d.status, d.app_url, d.container_name, d.template, d.is_template, d.language, \
    d.report_object, d.project_id, d.publish_filenames, d.dataset_ids, d.upstream_url, d.output";

fn json_list(s: &str) -> Vec<String> {
    serde_json::from_str(s).unwrap_or_default()
}

impl InsightRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            app_type: r.try_get("app_type")?,
            status: r.try_get("status")?,
            app_url: r.try_get("app_url")?,
            container_name: r.try_get("container_name")?,
            template: r.try_get("template")?,
            is_template: r.try_get::<i64, _>("is_template")? != 0,
            language: r.try_get("language")?,
            report_object: r.try_get("report_object")?,
            project_id: r.try_get("project_id")?,
            publish_filenames: json_list(&r.try_get::<String, _>("publish_filenames")?),
            dataset_ids: json_list(&r.try_get::<String, _>("dataset_ids")?),
            upstream_url: r.try_get("upstream_url")?,
            output: r.try_get("output")?,
        })
    }

    /// An application that runs in the cluster (not an external URL).
    pub fn runs_in_cluster(&self) -> bool {
        self.app_type == APPLICATION && self.status != EXTERNAL
    }
}

/// An insight: its asset row and its details.
#[derive(Debug, Clone)]
pub struct Insight {
    pub asset: AssetRow,
    pub details: InsightRow,
}

async fn write<'e, E>(exec: E, d: &InsightRow, insert: bool) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let sql = if insert {
        "INSERT INTO insights (id, app_type, status, app_url, container_name, template, is_template, language, \
         report_object, project_id, publish_filenames, dataset_ids, upstream_url, output) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
    } else {
        "UPDATE insights SET app_type = $2, status = $3, app_url = $4, container_name = $5, template = $6, \
         is_template = $7, language = $8, report_object = $9, project_id = $10, publish_filenames = $11, \
         dataset_ids = $12, upstream_url = $13, output = $14 WHERE id = $1"
    };
    sqlx::query(sql)
        .bind(&d.id)
        .bind(&d.app_type)
        .bind(&d.status)
        .bind(&d.app_url)
        .bind(&d.container_name)
        .bind(&d.template)
        .bind(i64::from(d.is_template))
        .bind(&d.language)
        .bind(&d.report_object)
        .bind(&d.project_id)
        .bind(serde_json::to_string(&d.publish_filenames).unwrap_or_else(|_| "[]".into()))
        .bind(serde_json::to_string(&d.dataset_ids).unwrap_or_else(|_| "[]".into()))
        .bind(&d.upstream_url)
        .bind(&d.output)
        .execute(exec)
        .await?;
    Ok(())
}

/// Inserts both rows in one transaction.
pub async fn insert(db: &AnyPool, i: &Insight) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    assets::insert(&mut *tx, &i.asset).await?;
    write(&mut *tx, &i.details, true).await?;
    tx.commit().await
}

/// Updates both rows in one transaction.
pub async fn update(db: &AnyPool, i: &Insight) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    assets::update(&mut *tx, &i.asset).await?;
    write(&mut *tx, &i.details, false).await?;
    tx.commit().await
}

/// Inserts or updates both rows, and replaces the resource share entries, in one transaction
/// (the resource watcher's write).
pub async fn upsert_with_resource_shares(
    db: &AnyPool,
    i: &Insight,
    exists: bool,
    shares: &[super::shares::Entry<'_>],
    now: i64,
) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    if exists {
        assets::update(&mut *tx, &i.asset).await?;
        write(&mut *tx, &i.details, false).await?;
    } else {
        assets::insert(&mut *tx, &i.asset).await?;
        write(&mut *tx, &i.details, true).await?;
    }
    super::shares::replace_resource(&mut tx, &i.asset.id, shares, now).await?;
    tx.commit().await
}

/// Sets what the operator observed: status, upstream URL, report output.
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: &str,
    upstream_url: Option<&str>,
    output: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE insights SET status = $2, upstream_url = $3, output = $4 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(upstream_url)
        .bind(output)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets the status the API expects right after an action (stop → stopped, restart → starting),
/// before the operator reports what it observed; touches the asset's `updated_at`.
pub async fn set_status(db: &AnyPool, id: &str, status: &str, now: i64) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE insights SET status = $2 WHERE id = $1")
        .bind(id)
        .bind(status)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE assets SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<Insight>, sqlx::Error> {
    let sql = format!(
        "SELECT {}, {COLUMNS} FROM assets a JOIN insights d ON d.id = a.id WHERE a.id = $1",
        assets::COLUMNS
    );
    match sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?
    {
        Some(r) => Ok(Some(Insight {
            asset: AssetRow::from_row(&r)?,
            details: InsightRow::from_row(&r)?,
        })),
        None => Ok(None),
    }
}

/// The details of several insights (for a listed page), in no particular order.
pub async fn details_of(db: &AnyPool, ids: &[String]) -> Result<Vec<InsightRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT d.id, {COLUMNS} FROM insights d WHERE d.id IN ({})",
        placeholders.join(", ")
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(id.as_str());
    }
    q.fetch_all(db).await?.iter().map(InsightRow::from_row).collect()
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
