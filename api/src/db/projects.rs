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
use crate::domain::{AssetKind, Language, ProjectFlavour, ProjectStatus};

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
    /// What the preview runs: the entry file, or JupyterLab (a legacy project).
    pub flavour: ProjectFlavour,
    /// The legacy form's fields (docs/contracts/notebooks.md): type, size in GiB, author, tags.
    pub project_type: String,
    pub size: String,
    pub author: String,
    pub tags: Vec<String>,
    /// The entry file Run runs (chosen beside Run); `None`: the launch rule's first candidate.
    pub run_file: Option<String>,
    /// The hardware size of the preview (an id of the administrator's size list); `None`: the
    /// list's default for projects.
    pub size_id: Option<String>,
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
        "flavour",
        "project_type",
        "size",
        "author",
        "tags",
        "run_file",
        "size_id",
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
            flavour: named(r, "flavour")?,
            project_type: r.try_get("project_type")?,
            size: r.try_get("size")?,
            author: r.try_get("author")?,
            tags: json_list(&r.try_get::<String, _>("tags")?),
            run_file: r.try_get("run_file")?,
            size_id: r.try_get("size_id")?,
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
            .bind(self.flavour.as_str())
            .bind(&self.project_type)
            .bind(&self.size)
            .bind(&self.author)
            .bind(json_text(&self.tags))
            .bind(&self.run_file)
            .bind(&self.size_id)
    }
}

impl ProjectRow {
    /// Whether Ludis hosts the repository.
    pub fn is_hosted(&self) -> bool {
        self.repo_url.is_none()
    }

    /// Whether this is a legacy notebook-style project.
    pub fn is_notebook(&self) -> bool {
        self.flavour == ProjectFlavour::Notebook
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

/// Sets the entry file Run runs.
pub async fn set_run_file(db: &AnyPool, id: &str, file: Option<&str>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE projects SET run_file = $2 WHERE id = $1")
        .bind(id)
        .bind(file)
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

/// One environment variable of a project; `value_enc` is the value encrypted at rest.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvVarRow {
    pub id: String,
    pub project_id: String,
    pub key: String,
    pub value_enc: String,
    pub created_at: i64,
    pub updated_at: i64,
}

fn env_var(r: &AnyRow) -> Result<EnvVarRow, sqlx::Error> {
    Ok(EnvVarRow {
        id: r.try_get("id")?,
        project_id: r.try_get("project_id")?,
        key: r.try_get("key")?,
        value_enc: r.try_get("value_enc")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

const ENV_COLUMNS: &str = "id, project_id, key, value_enc, created_at, updated_at";

/// A project's environment variables, by key.
pub async fn env_vars(db: &AnyPool, project_id: &str) -> Result<Vec<EnvVarRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ENV_COLUMNS} FROM project_env_vars WHERE project_id = $1 ORDER BY key"
    )))
    .bind(project_id)
    .fetch_all(db)
    .await?
    .iter()
    .map(env_var)
    .collect()
}

/// One environment variable by id.
pub async fn env_var_by_id(db: &AnyPool, id: &str) -> Result<Option<EnvVarRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ENV_COLUMNS} FROM project_env_vars WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?
    .as_ref()
    .map(env_var)
    .transpose()
}

/// Adds a variable; false when the project has one with that key already.
pub async fn insert_env_var(db: &AnyPool, v: &EnvVarRow) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO project_env_vars (id, project_id, key, value_enc, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, key) DO NOTHING",
    )
    .bind(&v.id)
    .bind(&v.project_id)
    .bind(&v.key)
    .bind(&v.value_enc)
    .bind(v.created_at)
    .bind(v.updated_at)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Sets a variable's (encrypted) value.
pub async fn update_env_var(db: &AnyPool, id: &str, value_enc: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE project_env_vars SET value_enc = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(value_enc)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn delete_env_var(db: &AnyPool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM project_env_vars WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// The ids of the keys the stored values were encrypted with (checked at start, as the users'
/// secrets are).
pub async fn encrypted_key_ids(db: &AnyPool) -> Result<Vec<String>, sqlx::Error> {
    let values: Vec<String> = sqlx::query_scalar("SELECT DISTINCT value_enc FROM project_env_vars")
        .fetch_all(db)
        .await?;
    let mut ids: Vec<String> = values
        .iter()
        .filter_map(|v| crate::crypto::Keyring::key_id(v).map(str::to_owned))
        .collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// Sets the (encrypted) token of project `id`'s notebook server (for a start, not a restart).
pub async fn set_jupyter_token(db: &AnyPool, id: &str, token_enc: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE projects SET jupyter_token_enc = $2, jupyter_token_replaces = NULL WHERE id = $1")
        .bind(id)
        .bind(token_enc)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets the (encrypted) token of project `id`'s notebook server made for the restart of pod
/// `pod` (its uid), unless a token was already made for that pod's restart (by another API
/// replica): whether this call set it.
pub async fn replace_jupyter_token(
    db: &AnyPool,
    id: &str,
    token_enc: &str,
    pod: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE projects SET jupyter_token_enc = $2, jupyter_token_replaces = $3 \
         WHERE id = $1 AND COALESCE(jupyter_token_replaces, '') <> $3",
    )
    .bind(id)
    .bind(token_enc)
    .bind(pod)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks project `id` starting (running, status `starting`) unless it runs already and has not
/// failed: whether this call started it (of two API replicas asked at once, one does).
pub async fn claim_start(db: &AnyPool, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE projects SET running = 1, status = $2, status_message = NULL \
         WHERE id = $1 AND (running = 0 OR status = $3)",
    )
    .bind(id)
    .bind(ProjectStatus::Starting.as_str())
    .bind(ProjectStatus::Failed.as_str())
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The (encrypted) token of project `id`'s notebook server, when it has one.
pub async fn jupyter_token(db: &AnyPool, id: &str) -> Result<Option<String>, sqlx::Error> {
    Ok(
        sqlx::query_scalar::<_, Option<String>>("SELECT jupyter_token_enc FROM projects WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?
            .flatten(),
    )
}
