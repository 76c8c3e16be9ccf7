//! Legacy projects and their notebooks (spec 000 §2 "legacy project list", §7; spec 001 §2
//! "Notebooks", §7 "Legacy and notebooks (v1)"; issue 18; docs/contracts/notebooks.md).
//! [`legacy`]: the lists, one project, create (from the form or a template), update, delete,
//! share; [`crud`]: a project's notebooks, create, import, rename, delete; [`jupyter`]: open
//! a notebook in JupyterLab, its read-only preview, commit it, the notebook server's address;
//! [`files`]: the notebook files in git; [`view`]: the answers' shapes.
//!
//! A legacy project is a project of the notebook flavour: the same asset, access rule and
//! resource. A notebook has no access of its own: it is as visible as its project, and a notebook
//! of a project the caller cannot see does not exist (404). Every call is the `notebooks`
//! feature's (`policy::flags::feature_for_path`).

use axum::{extract::DefaultBodyLimit, http::StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::AuthUser,
    db::{
        notebooks::{self as rows, NotebookRow},
        projects::Project,
    },
    domain::AccessLevel,
    error::{ApiError, Result},
    state::AppState,
};

mod crud;
mod files;
mod jupyter;
mod legacy;
pub mod view;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(
            legacy::list_legacy_projects,
            legacy::create_legacy_project
        ))
        .routes(routes!(legacy::shared_legacy_projects))
        .routes(routes!(legacy::share_legacy_project))
        .routes(routes!(
            legacy::project_templates,
            legacy::create_template_project
        ))
        .routes(routes!(
            legacy::legacy_project_details,
            legacy::update_legacy_project,
            legacy::delete_legacy_project
        ))
        .routes(routes!(crud::create_notebook))
        .routes(routes!(crud::notebook_detail))
        .routes(routes!(
            crud::project_notebooks,
            crud::update_notebook,
            crud::delete_notebook
        ))
        .routes(routes!(jupyter::open_notebook))
        .routes(routes!(jupyter::stop_notebook))
        .routes(routes!(jupyter::preview_notebook))
        .routes(routes!(jupyter::commit_notebook))
        .routes(routes!(jupyter::jupyter_dev_url))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(crud::import_notebook))
                .layer(DefaultBodyLimit::max(crud::IMPORT_BODY_LIMIT)),
        )
}

/// Messages (spec 001 §5, §8, and the contract).
pub const INVALID_NAME: &str = "Please enter valid project name. No special character allowed.";
pub const EMPTY_NAME: &str = "Empty project name not allowed.";
pub const DATASET_REQUIRED: &str = "Dataset is required";
pub const DESCRIPTION_REQUIRED: &str = "Description is required";
pub const NAME_FIXED: &str = "Project name cannot be changed";
pub const EMPTY_NOTEBOOK_NAME: &str = "Empty notebook name not allowed.";

/// Loads a legacy project the caller has at least `need` on; a project of another flavour is not
/// one (404).
pub(crate) async fn load_project(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(Project, AccessLevel)> {
    let (project, level) = crate::routes::projects::load(state, caller, id, need).await?;
    if !project.details.is_notebook() {
        return Err(crate::assets::not_found(Some(
            crate::domain::AssetKind::ProjectV2,
        )));
    }
    Ok((project, level))
}

fn notebook_not_found() -> ApiError {
    ApiError::not_found("notebook_not_found", "Notebook not found")
}

/// Loads notebook `id` with its project, the caller having at least `need` on the project; a
/// notebook of a project the caller cannot see does not exist (404).
pub(crate) async fn load_notebook(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(NotebookRow, Project, AccessLevel)> {
    let n = rows::by_id(&state.db, id.trim())
        .await?
        .ok_or_else(notebook_not_found)?;
    match load_project(state, caller, &n.project_id, need).await {
        Ok((p, level)) => Ok((n, p, level)),
        Err(e) if e.status() == StatusCode::NOT_FOUND => Err(notebook_not_found()),
        Err(e) => Err(e),
    }
}
