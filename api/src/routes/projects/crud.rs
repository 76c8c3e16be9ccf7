//! The project calls themselves: list, one project, its preview, create (hosted or imported),
//! update, delete, share.

use axum::{Json, extract::State, http::StatusCode};
use ludis_git::{BranchName, External, NewRepository, RemoteUrl};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    EMPTY_NAME, INVALID_NAME, MANAGED, load,
    view::{PreviewState, ProjectView, view, views},
};
use crate::{
    assets,
    auth::AuthUser,
    cluster,
    db::{
        self,
        activity::Activity,
        assets::{AssetRow, Filter, ListQuery, SortBy},
        details,
        projects::{Project, ProjectRow},
    },
    domain::{AccessLevel, ActivityAction, AssetKind, EntityType, Language, ProjectFlavour, ProjectStatus},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    projects::{
        git::{self, git_error},
        images, sizes,
    },
    routes::{
        insights::{image_path, optional_text},
        shares,
        streams::workload::failure_log_for,
    },
    state::AppState,
    views::Done,
};

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
/// Datasets one project may name (the CRD's limit).
const DATASETS_MAX: usize = 50;

/// Pure: a project v2 name (spec 001 §5): letters, numbers, underscores, hyphens, periods and
/// spaces, at most 128 characters.
pub fn project_name(value: &str) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(ApiError::bad_request("name_required", EMPTY_NAME));
    }
    if v.chars().count() > NAME_MAX {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {NAME_MAX} characters are allowed"),
        ));
    }
    if !v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
    {
        return Err(ApiError::bad_request("invalid_name", INVALID_NAME));
    }
    Ok(v.to_owned())
}

pub(crate) fn language(value: &str) -> Result<Language> {
    match value.trim().to_lowercase().as_str() {
        "" => Ok(Language::Python),
        l => l.parse().map_err(|_| {
            ApiError::bad_request("invalid_language", format!("Unknown language: {l} (python or r)"))
        }),
    }
}

/// An image id a project may choose now (400 otherwise).
async fn image_id(state: &AppState, value: &str) -> Result<String> {
    let value = value.trim();
    images::available(state)
        .await
        .into_iter()
        .find(|i| i.id == value)
        .map(|i| i.id)
        .ok_or_else(|| ApiError::bad_request("invalid_image", format!("Unknown image: {value}")))
}

// ---------------------------------------------------------------------------------------------
// The list, one project, its preview

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ProjectsQuery {
    /// all (default), owned ('Created by me') or shared ('Shared with me').
    pub filter: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 12).
    #[serde(alias = "page_size", alias = "limit")]
    pub page_size: Option<i64>,
    /// Part of the name or description.
    pub search: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ProjectsPage {
    pub success: bool,
    pub projects: Vec<ProjectView>,
    pub page: i64,
    pub page_size: i64,
    pub total: i64,
    pub total_pages: i64,
}

pub(crate) fn parse_filter(v: Option<&str>) -> Result<Filter> {
    match v.map(|s| s.trim().to_lowercase()).unwrap_or_default().as_str() {
        "" | "all" => Ok(Filter::All),
        "owned" | "mine" | "created by me" | "created_by_me" => Ok(Filter::Owned),
        "shared" | "shared with me" | "shared_with_me" => Ok(Filter::Shared),
        other => Err(ApiError::bad_request(
            "invalid_filter",
            format!("Unknown filter: {other} (all, owned or shared)"),
        )),
    }
}

/// The projects the caller may see, newest change first: all, created by them, or shared with
/// them (a share to them or to their organization); with search and pages.
#[utoipa::path(get, path = "/v2/projects", tag = "projects", params(ProjectsQuery),
    responses((status = 200, body = ProjectsPage), (status = 400, description = "Unknown filter", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_projects(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ProjectsQuery>,
) -> Result<Json<ProjectsPage>> {
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(12).clamp(1, 100);
    let query = ListQuery {
        kind: AssetKind::ProjectV2,
        filter: parse_filter(q.filter.as_deref())?,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        // Legacy notebook-style projects have their own list (`GET /v1/projects`).
        details: Some((
            "d.flavour = $100".to_owned(),
            vec![ProjectFlavour::Code.as_str().to_owned()],
        )),
    };
    let (items, total) = listed_projects(&state, &caller, &query).await?;
    Ok(Json(ProjectsPage {
        success: true,
        projects: views(&state, &caller, &items).await?,
        page,
        page_size,
        total,
        total_pages: (total + page_size - 1) / page_size,
    }))
}

/// One page of the projects `query` asks for that the caller may see, with the caller's level
/// on each, and how many there are in all.
pub(crate) async fn listed_projects(
    state: &AppState,
    caller: &AuthUser,
    query: &ListQuery,
) -> Result<(Vec<(Project, AccessLevel)>, i64)> {
    let (listed, total) = db::assets::list(&state.db, assets::viewer(&caller.user), query).await?;
    let items = details::of_listed::<ProjectRow>(&state.db, listed)
        .await?
        .into_iter()
        .map(|(p, level, _)| (p, level))
        .collect();
    Ok((items, total))
}

#[derive(Serialize, ToSchema)]
pub struct ProjectDetail {
    pub success: bool,
    pub project: ProjectView,
    pub preview: PreviewState,
    /// A failed preview's last log lines (of the checkout or of its program), for callers with
    /// execute access; null otherwise.
    #[schema(required)]
    pub failure_log: Option<Vec<String>>,
}

/// One project (view access) and its preview container.
#[utoipa::path(get, path = "/v2/projects/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses((status = 200, body = ProjectDetail), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn project_details(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<ProjectDetail>> {
    let (project, level) = load(&state, &caller, &id, AccessLevel::View).await?;
    let preview = PreviewState::of(&state, &caller, &project, level)
        .with_shutdown(&state, &project)
        .await?;
    let failed = preview.status == ProjectStatus::Failed;
    let failure_log = failure_log_for(&state, &project.asset, failed, level).await;
    Ok(Json(ProjectDetail {
        success: true,
        project: view(&state, &caller, project, level).await?,
        preview,
        failure_log,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct PreviewAnswer {
    pub success: bool,
    pub preview: PreviewState,
}

/// The preview container's state (view access), polled while it starts.
#[utoipa::path(get, path = "/v2/projects/check/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses((status = 200, body = PreviewAnswer), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn check_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<PreviewAnswer>> {
    let (project, level) = load(&state, &caller, &id, AccessLevel::View).await?;
    Ok(Json(PreviewAnswer {
        success: true,
        preview: PreviewState::of(&state, &caller, &project, level)
            .with_shutdown(&state, &project)
            .await?,
    }))
}

// ---------------------------------------------------------------------------------------------
// Create, update, delete, share

#[derive(Deserialize, ToSchema)]
pub struct NewProjectRequest {
    pub project: NewProject,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewProject {
    /// Letters, numbers, underscores, hyphens, periods and spaces; derived from `repo_url` when
    /// empty on import.
    pub name: String,
    pub description: String,
    /// python (the default, also for an empty string) or r.
    #[schema(value_type = Language, default = "python")]
    pub language: String,
    /// An id of `GET /v2/cluster/dockerimages/list`; default: the language's first image.
    pub image_id: Option<String>,
    /// An id of `GET /v2/cluster/sizes/list`; unset or empty: the list's default.
    pub size_id: Option<String>,
    /// Set: "import project" from this HTTPS remote (needs the caller's saved git token).
    /// Unset: a repository hosted by Ludis with a starter file.
    pub repo_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ProjectAnswer {
    pub success: bool,
    pub message: String,
    pub project: ProjectView,
}

/// Where a new project's code comes from.
struct Source {
    name: String,
    repo_url: Option<String>,
    repo_author: Option<String>,
    branch: String,
}

/// Checks an external remote with the caller's credentials: its name and author, and its
/// default branch (`main` for an empty repository).
async fn import(state: &AppState, caller: &AuthUser, id: &str, url: &str, name: &str) -> Result<Source> {
    let url = RemoteUrl::parse(url, git::url_policy(state))
        .map_err(|e| ApiError::bad_request("invalid_repo_url", e.to_string()))?;
    let credentials = git::credentials_of(state, &caller.user)?
        .ok_or_else(|| ApiError::bad_request("git_token_required", git::NO_GIT_TOKEN))?;
    let imported = url.import();
    let name = if name.trim().is_empty() {
        imported.name.clone()
    } else {
        name.to_owned()
    };
    let repo_id = git::repo_id(state, &caller.user.organization_id, id).await?;
    let external = External {
        url: url.clone(),
        credentials,
    };
    let branch = state
        .git
        .remote_default_branch(&repo_id, &external)
        .await
        .map_err(git_error)?
        .unwrap_or_else(BranchName::main);
    Ok(Source {
        name,
        repo_url: Some(url.as_str().to_owned()),
        repo_author: Some(imported.author),
        branch: branch.as_str().to_owned(),
    })
}

/// Create a project (the caller owns it): without `repo_url` Ludis hosts a new repository with a
/// starter file; with it, "import project" from that remote with the caller's git token. Its
/// Project resource is applied (with a cluster), then its rows are written.
#[utoipa::path(post, path = "/v2/projects", tag = "projects", request_body = NewProjectRequest,
    responses(
        (status = 201, description = "Project Created Successfully", body = ProjectAnswer),
        (status = 400, description = "Invalid name, language, image or URL; no git token; the remote refused the token", body = ErrorBody),
        (status = 502, description = "The cluster or the git server failed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<NewProjectRequest>,
) -> Result<(StatusCode, Json<ProjectAnswer>)> {
    let f = req.project;
    let language = language(&f.language)?;
    let image_id = match f.image_id.as_deref().map(str::trim).filter(|i| !i.is_empty()) {
        Some(i) => image_id(&state, i).await?,
        None => images::default_for(&images::available(&state).await, language)
            .map(|i| i.id.clone())
            .ok_or_else(|| {
                ApiError::bad_request("invalid_image", format!("No image for {language} is available"))
            })?,
    };
    let size_id = sizes::chosen(&state, f.size_id.as_deref().unwrap_or_default()).await?;
    let description = optional_text(&f.description, DESCRIPTION_MAX)?;
    let id = db::new_id();
    let org = caller.user.organization_id.clone();
    let source = match f.repo_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(url) => import(&state, &caller, &id, url, &f.name).await?,
        None => Source {
            name: f.name.clone(),
            repo_url: None,
            repo_author: None,
            branch: BranchName::main().as_str().to_owned(),
        },
    };
    let name = project_name(&source.name)?;
    let placement = cluster::projects::placement(&state, &org, &id, &name)
        .await
        .map_err(ApiError::cluster)?;
    let project = Project {
        asset: AssetRow {
            owner_uid: Some(caller.user.uid.clone()),
            description,
            ..AssetRow::new(
                AssetKind::ProjectV2,
                id.clone(),
                org.clone(),
                name.clone(),
                db::now(),
            )
        }
        .placed(placement),
        details: ProjectRow {
            id: id.clone(),
            language,
            repo_url: source.repo_url,
            repo_author: source.repo_author,
            branch: source.branch,
            image_id,
            size_id,
            ..ProjectRow::default()
        },
    };
    let hosted = if project.details.is_hosted() {
        Some(NewRepository {
            name: name.clone(),
            language: git_language(language),
            author: git::author(&caller.user)?,
        })
    } else {
        None
    };
    create_rows(&state, &caller, &project, hosted).await?;
    Ok((
        StatusCode::CREATED,
        Json(ProjectAnswer {
            success: true,
            message: "Project Created Successfully".into(),
            project: view(&state, &caller, project, AccessLevel::Edit).await?,
        }),
    ))
}

/// The git layer's name of a language.
pub(crate) fn git_language(language: Language) -> ludis_git::Language {
    match language {
        Language::Python => ludis_git::Language::Python,
        Language::R => ludis_git::Language::R,
    }
}

/// Makes a new project real: its hosted repository (`hosted`: what to start it with), its
/// resource and rows (the repository is removed again when they fail) and its empty environment;
/// records the creation. An external remote's token stays with the API (its pods clone the API's
/// mirror of the remote).
pub(crate) async fn create_rows(
    state: &AppState,
    caller: &AuthUser,
    project: &Project,
    hosted: Option<NewRepository>,
) -> Result<()> {
    let (id, org) = (&project.asset.id, &project.asset.organization_id);
    let repo_id = git::repo_id(state, org, id).await?;
    if let Some(new) = hosted {
        state.git.create_hosted(&repo_id, new).await.map_err(git_error)?;
    }
    let created = assets::create(state, project, details::insert(&state.db, project)).await;
    if let Err(e) = created {
        forget_repository(state, project, &repo_id).await;
        return Err(e);
    }
    // An empty environment for the preview (the variables are added later).
    if let Err(e) = super::envvars::sync_secret(state, project).await {
        tracing::warn!(project = %id, error = %e, "failed to write a project's environment");
    }
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Created)
        .record(&state.db)
        .await;
    Ok(())
}

/// Removes what a project keeps in git (its hosted repository, or its cache of the remote).
async fn forget_repository(state: &AppState, project: &Project, repo_id: &ludis_git::RepoId) {
    let done = if project.details.is_hosted() {
        state.git.delete_hosted(repo_id).await
    } else {
        state.git.forget_cache(repo_id).await
    };
    if let Err(e) = done {
        tracing::warn!(project = %project.asset.id, error = format!("{:#}", anyhow::Error::new(e)), "failed to remove a project's repository");
    }
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateProjectRequest {
    pub entity: ProjectChanges,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ProjectChanges {
    pub name: Option<String>,
    pub description: Option<String>,
    pub image_id: Option<String>,
    /// An id of `GET /v2/cluster/sizes/list`; empty: the list's default. Used at the next start.
    pub size_id: Option<String>,
    /// A default image URL or a key the caller uploaded; empty clears it.
    pub img_path: Option<String>,
    /// Datasets the project reads (each one the caller can see).
    pub dataset_ids: Option<Vec<String>>,
}

/// Change a project (edit access): name, description, image and size (`{entity: {image_id,
/// size_id}}` saves the choice, used at the next start), card image, datasets.
#[utoipa::path(put, path = "/v2/projects/{id}", tag = "projects", request_body = UpdateProjectRequest,
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, description = "Project updated!", body = ProjectAnswer),
        (status = 400, description = "Invalid name, image, size or dataset", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource, or another tool owns the field", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateProjectRequest>,
) -> Result<Json<ProjectAnswer>> {
    let (mut project, level) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    if project.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    let c = req.entity;
    if let Some(name) = &c.name {
        project.asset.name = project_name(name)?;
    }
    if let Some(description) = &c.description {
        project.asset.description = optional_text(description, DESCRIPTION_MAX)?;
    }
    if let Some(image) = &c.image_id {
        project.details.image_id = image_id(&state, image).await?;
    }
    if let Some(size) = &c.size_id {
        project.details.size_id = sizes::chosen(&state, size).await?;
    }
    if let Some(img) = &c.img_path {
        project.asset.img_path = image_path(img, &caller.user.uid)?;
    }
    if let Some(ids) = c.dataset_ids {
        project.details.dataset_ids = visible_datasets(&state, &caller, ids).await?;
    }
    project.asset.updated_at = db::now();
    cluster::projects::apply(&state, &project)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &project).await?;
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(ProjectAnswer {
        success: true,
        message: "Project updated!".into(),
        project: view(&state, &caller, project, level).await?,
    }))
}

/// Dataset ids the caller can see (400 for any other), without repeats, at most 50.
pub(crate) async fn visible_datasets(
    state: &AppState,
    caller: &AuthUser,
    ids: Vec<String>,
) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        if out.iter().any(|o| o == id) {
            continue;
        }
        if assets::visible(state, &caller.user, id, Some(AssetKind::Dataset))
            .await?
            .is_none()
        {
            return Err(ApiError::bad_request(
                "invalid_dataset",
                format!("Dataset not found: {id}"),
            ));
        }
        out.push(id.to_owned());
    }
    if out.len() > DATASETS_MAX {
        return Err(ApiError::bad_request(
            "too_many_datasets",
            format!("A project reads at most {DATASETS_MAX} datasets"),
        ));
    }
    Ok(out)
}

/// Delete a project (edit access): its resource (with its volume, Secrets and pods), its rows,
/// and the repository Ludis hosts for it (an external remote is left as it is).
#[utoipa::path(delete, path = "/v2/projects/{id}", tag = "projects",
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, description = "Project Deleted!", body = Done),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (project, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    remove(&state, &caller, &project).await?;
    Ok(Done::new("Project Deleted!"))
}

/// Deletes a project the caller may edit: its resource (with its volume, Secrets and pods), its
/// rows, and the repository Ludis hosts for it; records the deletion.
pub(crate) async fn remove(state: &AppState, caller: &AuthUser, project: &Project) -> Result<()> {
    if project.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    cluster::projects::delete(state, project)
        .await
        .map_err(ApiError::cluster)?;
    db::assets::delete(&state.db, &project.asset.id).await?;
    let repo_id = git::repo_id(state, &project.asset.organization_id, &project.asset.id).await?;
    forget_repository(state, project, &repo_id).await;
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Deleted)
        .record(&state.db)
        .await;
    Ok(())
}

/// Share a project: `POST /v1/applications/share` for a project (edit access).
#[utoipa::path(post, path = "/v2/projects/share", tag = "projects", request_body = shares::ShareRequest,
    responses(
        (status = 200, description = "Project shared!", body = Done),
        (status = 400, description = "Invalid entry", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn share_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(mut req): AppJson<shares::ShareRequest>,
) -> Result<Json<Done>> {
    req.share.entity_type = EntityType::ProjectV2.as_str().into();
    shares::share(State(state), caller, AppJson(req)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_names_follow_the_spec() {
        assert_eq!(
            project_name("  Sales model_2.v1-a ").unwrap(),
            "Sales model_2.v1-a"
        );
        for bad in ["a/b", "café", "x!", "../x"] {
            let e = project_name(bad).unwrap_err();
            assert_eq!(e.status(), StatusCode::BAD_REQUEST, "{bad}");
        }
        assert!(project_name("   ").is_err());
        assert!(project_name(&"x".repeat(129)).is_err());
    }
}
