//! Running a project (spec 001 §4 "Run"; the contract's `run` and `stop`): the preview container
//! starts from the project's image with the latest commit (its checkout pulls on start) and
//! stops; execute access. The API sets `spec.preview.running` with server-side apply and shows
//! `starting`/`stopped` until the watcher writes what the operator observed. A hosted
//! repository's checkout token is rotated at every run (its SHA-256 kept here, the token in the
//! project's git Secret). And the insights published from a project.

use axum::{Json, extract::State};
use serde::Serialize;
use utoipa::ToSchema;

use super::{MANAGED, crud::PreviewAnswer, load, view::PreviewState};
use crate::{
    assets,
    auth::AuthUser,
    cluster,
    db::{
        self,
        assets::{Filter, ListQuery, SortBy},
        projects::{self as rows, Project},
    },
    domain::{AccessLevel, AssetKind, ProjectStatus},
    error::{ApiError, AppPath, ErrorBody, Result},
    projects::checkout::{CheckoutToken, checkout_token},
    routes::insights::listed_views,
    state::AppState,
    views::InsightView,
};

/// Asks the preview to run or stop.
async fn switch(state: &AppState, caller: &AuthUser, id: &str, running: bool) -> Result<Json<PreviewAnswer>> {
    let (mut project, level) = load(state, caller, id, AccessLevel::Execute).await?;
    set_running(state, &mut project, running).await?;
    Ok(Json(PreviewAnswer {
        success: true,
        preview: PreviewState::of(state, caller, &project, level),
    }))
}

/// Asks `project`'s preview to run (with new checkout and notebook tokens) or stop: its resource,
/// then its row (`starting`/`stopped` until the operator reports).
pub(crate) async fn set_running(state: &AppState, project: &mut Project, running: bool) -> Result<()> {
    if project.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    if running {
        checkout_token(state, project, CheckoutToken::Rotate).await?;
        if project.details.is_notebook() {
            crate::projects::jupyter::rotate_token(state, &project.asset.id).await?;
            super::sync_secret(state, project).await?;
        }
    }
    project.details.running = running;
    project.details.status = if running {
        ProjectStatus::Starting
    } else {
        ProjectStatus::Stopped
    };
    project.details.status_message = None;
    cluster::projects::apply(state, project)
        .await
        .map_err(ApiError::cluster)?;
    rows::set_running(&state.db, &project.asset.id, running, project.details.status).await?;
    Ok(())
}

/// Start the preview container with the latest commit (execute access).
#[utoipa::path(post, path = "/v2/projects/run/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, body = PreviewAnswer),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn run_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<PreviewAnswer>> {
    switch(&state, &caller, &id, true).await
}

/// Stop the preview container (execute access).
#[utoipa::path(post, path = "/v2/projects/stop/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, body = PreviewAnswer),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn stop_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<PreviewAnswer>> {
    switch(&state, &caller, &id, false).await
}

#[derive(Serialize, ToSchema)]
pub struct ProjectAppsAnswer {
    pub success: bool,
    #[serde(rename = "projectApps")]
    pub project_apps: Vec<InsightView>,
}

/// The insights published from a project that the caller may see (view access on the project).
#[utoipa::path(get, path = "/v2/projects/getprojectapps/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses((status = 200, body = ProjectAppsAnswer), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn project_apps(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<ProjectAppsAnswer>> {
    let (project, _) = load(&state, &caller, &id, AccessLevel::View).await?;
    let query = ListQuery {
        kind: AssetKind::Insight,
        filter: Filter::All,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: String::new(),
        limit: 1000,
        offset: 0,
        details: Some(("d.project_id = $100".to_owned(), vec![project.asset.id.clone()])),
    };
    let (listed, _) = db::assets::list(&state.db, assets::viewer(&caller.user), &query).await?;
    Ok(Json(ProjectAppsAnswer {
        success: true,
        project_apps: listed_views(&state, &caller, listed).await?,
    }))
}
