//! The `notebooks` table: the notebooks of legacy projects, each a `.ipynb` file in its project's
//! repository (docs/contracts/notebooks.md). A notebook has no access of its own: whoever sees
//! its project sees it.

use sqlx::{AnyPool, Row as _, any::AnyRow};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotebookRow {
    pub id: String,
    pub project_id: String,
    pub name: String,
    pub description: String,
    /// The file in the repository.
    pub path: String,
    /// `active` (the spec's only notebook status).
    pub status: String,
    /// The file's blob JupyterLab last started from, or last committed here.
    pub base_sha: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The status of a notebook in use (spec 000 §9 "Active notebook status 'active'").
pub const ACTIVE: &str = "active";

const COLUMNS: &str = "id, project_id, name, description, path, status, base_sha, created_at, updated_at";

fn row(r: &AnyRow) -> Result<NotebookRow, sqlx::Error> {
    Ok(NotebookRow {
        id: r.try_get("id")?,
        project_id: r.try_get("project_id")?,
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        path: r.try_get("path")?,
        status: r.try_get("status")?,
        base_sha: r.try_get("base_sha")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// One notebook.
pub async fn by_id(db: &AnyPool, id: &str) -> Result<Option<NotebookRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notebooks WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?
    .as_ref()
    .map(row)
    .transpose()
}

/// The notebooks of some projects, oldest first.
pub async fn of_projects(db: &AnyPool, project_ids: &[String]) -> Result<Vec<NotebookRow>, sqlx::Error> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=project_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT {COLUMNS} FROM notebooks WHERE project_id IN ({}) ORDER BY created_at, name, id",
        marks.join(", ")
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in project_ids {
        q = q.bind(id);
    }
    q.fetch_all(db).await?.iter().map(row).collect()
}

/// Adds a notebook; false when its project has a notebook at that path already.
pub async fn insert(db: &AnyPool, n: &NotebookRow) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO notebooks ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (project_id, path) DO NOTHING"
    )))
    .bind(&n.id)
    .bind(&n.project_id)
    .bind(&n.name)
    .bind(&n.description)
    .bind(&n.path)
    .bind(&n.status)
    .bind(&n.base_sha)
    .bind(n.created_at)
    .bind(n.updated_at)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Sets a notebook's name and description.
pub async fn rename(
    db: &AnyPool,
    id: &str,
    name: &str,
    description: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE notebooks SET name = $2, description = $3, updated_at = $4 WHERE id = $1")
        .bind(id)
        .bind(name)
        .bind(description)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets the blob a notebook's next commit is based on.
pub async fn set_base(db: &AnyPool, id: &str, base_sha: Option<&str>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE notebooks SET base_sha = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(base_sha)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn delete(db: &AnyPool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM notebooks WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}
