//! Running a project (spec 001 §4 "Run"; the contract's `run` and `stop`): the preview container
//! starts from the project's image with the latest commit (its checkout clones the branch at start,
//! with the pod's own identity: see `routes::projects::git_http`) and stops; execute access. The
//! API sets `spec.preview.running` with server-side apply and shows `starting`/`stopped` until the
//! watcher writes what the operator observed. And the insights published from a project.

use axum::{Json, extract::State};
use ludis_crds::launch::Purpose;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{MANAGED, crud::PreviewAnswer, load, view::PreviewState};
use ludis_crds::sizes::WorkloadKind;

use crate::{
    assets,
    auth::AuthUser,
    cluster,
    cluster::quota,
    db::{
        self,
        assets::{Filter, ListQuery, SortBy},
        projects::{self as rows, Project},
    },
    domain::{AccessLevel, AssetKind, ProjectStatus},
    error::{ApiError, AppPath, AppQuery, ErrorBody, Result},
    projects::{
        git::require_files,
        launch::{self, LaunchView},
    },
    routes::insights::listed_views,
    state::AppState,
    views::InsightView,
};

/// Asks the preview to run (the entry file `file` when one is chosen; it is kept for the next
/// Run) or stop.
async fn switch(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    running: bool,
    file: Option<&str>,
) -> Result<Json<PreviewAnswer>> {
    let (mut project, level) = load(state, caller, id, AccessLevel::Execute).await?;
    if let Some(file) = file.map(str::trim).filter(|f| !f.is_empty()) {
        let file = launch::entry_file(file)?;
        require_files(state, &caller.user, &project, std::slice::from_ref(&file)).await?;
        project.details.run_file = Some(file);
        rows::set_run_file(&state.db, &project.asset.id, project.details.run_file.as_deref()).await?;
    }
    set_running(state, &mut project, running).await?;
    Ok(Json(PreviewAnswer {
        success: true,
        preview: PreviewState::of(state, caller, &project, level)
            .with_shutdown(state, &project)
            .await?,
    }))
}

/// Asks `project`'s preview to run (with a new notebook token) or stop: its resource,
/// then its row (`starting`/`stopped` until the operator reports).
pub(crate) async fn set_running(state: &AppState, project: &mut Project, running: bool) -> Result<()> {
    if project.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    if running && !project.details.running {
        // A start the organization's quota has no room for is refused before anything changes.
        let size = quota::size_of(state, project.details.size_id.as_deref(), WorkloadKind::Project).await?;
        quota::check_room(state, project.asset.namespace.as_deref(), &size).await?;
    }
    let claimed = running && project.details.is_notebook();
    if claimed {
        // Of two API replicas asked at once, one starts the server and makes its token: a second
        // token would reach the database but not the pod.
        if !rows::claim_start(&state.db, &project.asset.id).await? {
            project.details.running = true;
            return Ok(());
        }
    }
    let started = async {
        if claimed {
            crate::projects::jupyter::renew(state, project).await?;
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
            .map_err(ApiError::cluster)
    }
    .await;
    if let Err(e) = started {
        if claimed {
            rows::set_running(&state.db, &project.asset.id, false, ProjectStatus::Stopped).await?;
        }
        return Err(e);
    }
    rows::set_running(&state.db, &project.asset.id, running, project.details.status).await?;
    if running {
        crate::idle::started(state, &project.asset.id).await;
    }
    Ok(())
}

/// The entry file a Run starts.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunQuery {
    /// The entry file to run (kept for the next Run); unset: the one chosen before, else the
    /// launch rule's first candidate (`app.py`, `main.py`, …).
    pub file: Option<String>,
}

/// Start the preview container with the latest commit (execute access), running the entry file
/// chosen beside Run.
#[utoipa::path(post, path = "/v2/projects/run/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id"), RunQuery),
    responses(
        (status = 200, body = PreviewAnswer),
        (status = 400, description = "The file to run must be a .py, .R, .Rmd or .ipynb file of the project", body = ErrorBody),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn run_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<RunQuery>,
) -> Result<Json<PreviewAnswer>> {
    switch(&state, &caller, &id, true, q.file.as_deref()).await
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
    switch(&state, &caller, &id, false, None).await
}

/// What to show the launch of.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LaunchQuery {
    /// An entry file; unset: the one Run would pick (the chosen file, else the first candidate).
    pub file: Option<String>,
    /// `serve` (Run, an application; the default) or `render` (a report).
    pub purpose: Option<String>,
}

/// What Run (or publishing a file) will run, before it runs: the entry file and the command the
/// launch rule gives it (`streamlit run app.py`, `python main.py`, …), decided from the file at
/// the branch head as the pod will (view access).
#[utoipa::path(get, path = "/v2/projects/launch/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id"), LaunchQuery),
    responses(
        (status = 200, body = LaunchView),
        (status = 400, description = "The file to run must be a .py, .R, .Rmd or .ipynb file of the project / '…' is not a file of the project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn project_launch(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<LaunchQuery>,
) -> Result<Json<LaunchView>> {
    let (project, _) = load(&state, &caller, &id, AccessLevel::View).await?;
    let purpose = match q.purpose.as_deref().map(str::trim) {
        None | Some("" | "serve") => Purpose::Serve,
        Some("render") => Purpose::Render,
        Some(_) => {
            return Err(ApiError::bad_request(
                "invalid_purpose",
                "purpose is serve or render",
            ));
        }
    };
    let file = q
        .file
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .or(project.details.run_file.as_deref());
    Ok(Json(
        launch::what_runs(&state, &caller.user, &project, purpose, file).await?,
    ))
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
