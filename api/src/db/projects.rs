//! The `projects` table: where a project's code is (a repository Ludis hosts, or an external
//! remote and branch), its image and datasets, and its preview (asked to run, and what the
//! operator observed), beside its `assets` row (kind `project`); and `project_env_vars`, its
//! environment variables with their values encrypted at rest.

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::{
    details::{AnyQuery, Details, WithDetails},
    insights::{json_list, json_text},
    named,
};
use crate::domain::{AssetKind, Language, ProjectStatus};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProjectRow {
    pub id: String,
    pub language: Language,
    /// The external remote; `None`: hosted by Ludis.
    pub repo_url: Option<String>,
    pub repo_author: Option<String>,
    pub branch: String,
    pub image_id: String,
    pub dataset_ids: Vec<String>,
    /// Whether the preview is asked to run.
    pub running: bool,
    pub status: ProjectStatus,
    pub status_message: Option<String>,
    /// Where the preview answers (the resource's `status.url`).
    pub upstream_url: Option<String>,
}

impl Details for ProjectRow {
    const KIND: AssetKind = AssetKind::ProjectV2;
    const COLUMNS: &'static [&'static str] = &[
        "language",
        "repo_url",
        "repo_author",
        "branch",
        "image_id",
        "dataset_ids",
        "running",
        "status",
        "status_message",
        "upstream_url",
    ];

    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: r.try_get("id")?,
            language: named(r, "language")?,
            repo_url: r.try_get("repo_url")?,
            repo_author: r.try_get("repo_author")?,
            branch: r.try_get("branch")?,
            image_id: r.try_get("image_id")?,
            dataset_ids: json_list(&r.try_get::<String, _>("dataset_ids")?),
            running: r.try_get::<i64, _>("running")? != 0,
            status: named(r, "status")?,
            status_message: r.try_get("status_message")?,
            upstream_url: r.try_get("upstream_url")?,
        })
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn bind<'q>(&'q self, q: AnyQuery<'q>) -> AnyQuery<'q> {
        q.bind(self.language.as_str())
            .bind(&self.repo_url)
            .bind(&self.repo_author)
            .bind(&self.branch)
            .bind(&self.image_id)
            .bind(json_text(&self.dataset_ids))
            .bind(i64::from(self.running))
            .bind(self.status.as_str())
            .bind(&self.status_message)
            .bind(&self.upstream_url)
    }
}

impl ProjectRow {
    /// Whether Ludis hosts the repository.
    pub fn is_hosted(&self) -> bool {
        self.repo_url.is_none()
    }
}

/// A project: its asset row and its details.
pub type Project = WithDetails<ProjectRow>;

/// Sets what the operator observed of the preview.
pub async fn set_observed(
    db: &AnyPool,
    id: &str,
    status: ProjectStatus,
    message: Option<&str>,
    upstream_url: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE projects SET status = $2, status_message = $3, upstream_url = $4 WHERE id = $1")
        .bind(id)
        .bind(status.as_str())
        .bind(message)
        .bind(upstream_url)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets whether the preview is asked to run, and the status the API expects until the operator
/// reports (`starting`, `stopped`).
pub async fn set_running(
    db: &AnyPool,
    id: &str,
    running: bool,
    status: ProjectStatus,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE projects SET running = $2, status = $3, status_message = NULL WHERE id = $1")
        .bind(id)
        .bind(i64::from(running))
        .bind(status.as_str())
        .execute(db)
        .await?;
    Ok(())
}
