//! A legacy project's notebooks (spec 001 §7): the list, one notebook, create (an empty
//! notebook), import (another notebook the caller can see, or an uploaded `.ipynb`), rename,
//! delete. Each change is a commit by the caller in the project's repository.

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    EMPTY_NOTEBOOK_NAME, files, load_notebook, load_project,
    view::{JupyterState, NotebookView},
};
use crate::{
    auth::AuthUser,
    db::{self, activity::Activity, notebooks as rows},
    domain::{AccessLevel, ActivityAction},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    notebooks::ipynb,
    routes::insights::optional_text,
    state::AppState,
    views::Done,
};

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
/// An uploaded notebook's body: the 10 MiB file as JSON text, escaped, with room to spare.
pub const IMPORT_BODY_LIMIT: usize = 24 * 1024 * 1024;

/// Pure: a notebook's name and description (both required, spec 001 §5).
fn name_and_description(name: &str, description: &str) -> Result<(String, String)> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("name_required", EMPTY_NOTEBOOK_NAME));
    }
    if name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "invalid_name",
            format!("A notebook name has at most {NAME_MAX} characters"),
        ));
    }
    let description = optional_text(description, DESCRIPTION_MAX)?;
    if description.trim().is_empty() {
        return Err(ApiError::bad_request(
            "description_required",
            super::DESCRIPTION_REQUIRED,
        ));
    }
    Ok((name.to_owned(), description))
}

#[derive(Serialize, ToSchema)]
pub struct NotebooksAnswer {
    pub success: bool,
    pub notebooks: Vec<NotebookView>,
}

/// The notebooks of legacy project `id` (view access on it).
#[utoipa::path(get, path = "/v1/notebook/{id}", tag = "notebooks",
    params(("id" = String, Path, description = "Project id")),
    responses((status = 200, body = NotebooksAnswer), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn project_notebooks(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<NotebooksAnswer>> {
    let (project, _) = load_project(&state, &caller, &id, AccessLevel::View).await?;
    let notebooks = rows::of_projects(&state.db, std::slice::from_ref(&project.asset.id)).await?;
    Ok(Json(NotebooksAnswer {
        success: true,
        notebooks: notebooks.iter().map(NotebookView::from).collect(),
    }))
}

/// The project a notebook belongs to, as the caller sees it.
#[derive(Serialize, ToSchema)]
pub struct NotebookProject {
    pub id: String,
    pub name: String,
    pub access_level: AccessLevel,
}

#[derive(Serialize, ToSchema)]
pub struct NotebookDetail {
    pub success: bool,
    pub notebook: NotebookView,
    pub project: NotebookProject,
    pub jupyter: JupyterState,
    /// The notebook in JupyterLab (with a one-use ticket) while the server runs and the caller
    /// may execute; else null.
    #[schema(required)]
    pub iframe: Option<String>,
}

/// One notebook (view access on its project), its project and the notebook server.
#[utoipa::path(get, path = "/v1/notebook/detail/{id}", tag = "notebooks",
    params(("id" = String, Path, description = "Notebook id")),
    responses((status = 200, body = NotebookDetail), (status = 404, description = "Notebook not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn notebook_detail(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<NotebookDetail>> {
    let (n, project, level) = load_notebook(&state, &caller, &id, AccessLevel::View).await?;
    let (iframe, jupyter) = super::jupyter::iframe(&state, &caller, &project, &n, level).await?;
    Ok(Json(NotebookDetail {
        success: true,
        notebook: (&n).into(),
        jupyter,
        iframe,
        project: NotebookProject {
            id: project.asset.id.clone(),
            name: project.asset.name.clone(),
            access_level: level,
        },
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewNotebook {
    pub name: String,
    /// Required.
    pub description: String,
    pub project_id: String,
}

#[derive(Deserialize, ToSchema)]
pub struct NewNotebookRequest {
    pub notebook: NewNotebook,
}

#[derive(Serialize, ToSchema)]
pub struct NotebookAnswer {
    pub success: bool,
    pub message: String,
    pub notebook: NotebookView,
}

/// Records a change to a project's notebooks.
async fn record(
    state: &AppState,
    caller: &AuthUser,
    project: &db::projects::Project,
    action: ActivityAction,
) {
    Activity::on_asset(&caller.user, &project.asset, action)
        .record(&state.db)
        .await;
}

/// Create an empty notebook in a legacy project (edit access on it): a new `.ipynb` file
/// committed by the caller.
#[utoipa::path(post, path = "/v1/notebook", tag = "notebooks", request_body = NewNotebookRequest,
    responses(
        (status = 201, description = "Notebook created successfully!", body = NotebookAnswer),
        (status = 400, description = "Empty notebook name not allowed. / Description is required", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<NewNotebookRequest>,
) -> Result<(StatusCode, Json<NotebookAnswer>)> {
    let f = req.notebook;
    let (name, description) = name_and_description(&f.name, &f.description)?;
    let (project, _) = load_project(&state, &caller, &f.project_id, AccessLevel::Edit).await?;
    let content = ipynb::empty_notebook(project.details.language);
    let n = files::add(&state, &caller, &project, (&name, &description), &name, &content).await?;
    record(&state, &caller, &project, ActivityAction::Committed).await;
    Ok((
        StatusCode::CREATED,
        Json(NotebookAnswer {
            success: true,
            message: "Notebook created successfully!".into(),
            notebook: (&n).into(),
        }),
    ))
}

/// An uploaded notebook file.
#[derive(Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct UploadedNotebook {
    /// The file's name (the notebook's name when none is given).
    pub name: String,
    /// The `.ipynb` text (at most 10 MiB).
    pub content: String,
}

#[derive(Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ImportTarget {
    pub project_id: String,
    /// Default: the imported notebook's name (or the file's).
    pub name: Option<String>,
    /// Default: the imported notebook's description.
    pub description: Option<String>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ImportNotebookRequest {
    pub notebook: ImportTarget,
    /// The id of an active notebook the caller can see.
    #[serde(rename = "importNotebook")]
    pub import_notebook: Option<String>,
    /// Or a notebook file.
    pub file: Option<UploadedNotebook>,
}

/// Import a notebook into a legacy project (edit access on it): a copy of another notebook the
/// caller can see (`importNotebook`, its file at the head of its project) or an uploaded `.ipynb`
/// (`file`).
#[utoipa::path(post, path = "/v1/notebook/import", tag = "notebooks", request_body = ImportNotebookRequest,
    responses(
        (status = 201, description = "Notebook created successfully!", body = NotebookAnswer),
        (status = 400, description = "Neither or both sources; not a notebook; empty name", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project or notebook not found", body = ErrorBody),
        (status = 413, description = "The notebook is larger than 10 MiB", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn import_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<ImportNotebookRequest>,
) -> Result<(StatusCode, Json<NotebookAnswer>)> {
    let source_id = req
        .import_notebook
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let (default_name, default_description, content) = match (source_id, &req.file) {
        (Some(id), None) => {
            let (src, src_project, _) = load_notebook(&state, &caller, id, AccessLevel::View).await?;
            if src.status != rows::ACTIVE {
                return Err(ApiError::bad_request(
                    "inactive_notebook",
                    "Only active notebooks can be imported",
                ));
            }
            let file = files::read(&state, &caller, &src_project, &src).await?;
            let text = String::from_utf8(file.bytes).map_err(|_| {
                ApiError::bad_request(
                    "invalid_notebook",
                    "This is not a Jupyter notebook: it is not UTF-8 text",
                )
            })?;
            (src.name, src.description, text)
        }
        (None, Some(f)) => {
            if f.content.len() > ipynb::MAX_NOTEBOOK_BYTES {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    ipynb::NotebookError::TooLarge.to_string(),
                ));
            }
            let name = f.name.trim().trim_end_matches(".ipynb").to_owned();
            (name, "Imported notebook".to_owned(), f.content.clone())
        }
        _ => {
            return Err(ApiError::bad_request(
                "invalid_source",
                "Choose one notebook to import: importNotebook or file",
            ));
        }
    };
    let t = req.notebook;
    let (name, description) = name_and_description(
        t.name
            .as_deref()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(&default_name),
        t.description
            .as_deref()
            .filter(|d| !d.trim().is_empty())
            .unwrap_or(&default_description),
    )?;
    let (project, _) = load_project(&state, &caller, &t.project_id, AccessLevel::Edit).await?;
    let n = files::add(&state, &caller, &project, (&name, &description), &name, &content).await?;
    record(&state, &caller, &project, ActivityAction::Committed).await;
    Ok((
        StatusCode::CREATED,
        Json(NotebookAnswer {
            success: true,
            message: "Notebook created successfully!".into(),
            notebook: (&n).into(),
        }),
    ))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NotebookChanges {
    pub name: Option<String>,
    pub description: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateNotebookRequest {
    pub notebook: NotebookChanges,
}

/// Rename a notebook or change its description (edit access on its project); its file keeps
/// its path.
#[utoipa::path(put, path = "/v1/notebook/{id}", tag = "notebooks", request_body = UpdateNotebookRequest,
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, description = "Notebook updated!", body = NotebookAnswer),
        (status = 400, description = "Empty notebook name not allowed. / Description is required", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Notebook not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateNotebookRequest>,
) -> Result<Json<NotebookAnswer>> {
    let (mut n, project, _) = load_notebook(&state, &caller, &id, AccessLevel::Edit).await?;
    let c = req.notebook;
    let (name, description) = name_and_description(
        c.name.as_deref().unwrap_or(&n.name),
        c.description.as_deref().unwrap_or(&n.description),
    )?;
    let now = db::now();
    rows::rename(&state.db, &n.id, &name, &description, now).await?;
    (n.name, n.description, n.updated_at) = (name, description, now);
    record(&state, &caller, &project, ActivityAction::Updated).await;
    Ok(Json(NotebookAnswer {
        success: true,
        message: "Notebook updated!".into(),
        notebook: (&n).into(),
    }))
}

/// Delete a notebook (edit access on its project): its file in a commit by the caller, and its
/// row.
#[utoipa::path(delete, path = "/v1/notebook/{id}", tag = "notebooks",
    params(("id" = String, Path, description = "Notebook id")),
    responses(
        (status = 200, description = "Notebook Deleted!", body = Done),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Notebook not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_notebook(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (n, project, _) = load_notebook(&state, &caller, &id, AccessLevel::Edit).await?;
    files::remove(&state, &caller, &project, &n).await?;
    record(&state, &caller, &project, ActivityAction::Committed).await;
    Ok(Done::new("Notebook Deleted!"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notebook_needs_a_name_and_a_description() {
        assert_eq!(
            name_and_description(" ", "d").unwrap_err().to_string(),
            EMPTY_NOTEBOOK_NAME
        );
        assert_eq!(
            name_and_description("n", " ").unwrap_err().to_string(),
            super::super::DESCRIPTION_REQUIRED
        );
        assert!(name_and_description(&"x".repeat(129), "d").is_err());
        assert_eq!(
            name_and_description(" Sales ", "d").unwrap(),
            ("Sales".to_owned(), "d".to_owned())
        );
    }
}
