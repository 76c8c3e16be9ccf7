//! The legacy project calls (spec 000 §7 "Legacy projects", spec 001 §7 "Legacy and notebooks"):
//! the caller's list and the shared list, one project with its notebook server, create (from the
//! form or a template), update, delete, share.

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    DESCRIPTION_REQUIRED, EMPTY_NAME, INVALID_NAME, NAME_FIXED, files, load_project,
    view::{JupyterState, LegacyProjectView, view, views},
};
use crate::{
    assets,
    auth::AuthUser,
    cluster,
    db::{
        self,
        assets::{AssetRow, Filter, ListQuery, SortBy},
        details,
        projects::{Project, ProjectRow},
    },
    domain::{AccessLevel, ActivityAction, AssetKind, EntityType, Language, ProjectFlavour},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    notebooks::templates::{self, TEMPLATES},
    projects::{git, images},
    routes::{
        insights::optional_text,
        projects::{create_rows, git_language, language, listed_projects, remove, visible_datasets},
        shares,
    },
    state::AppState,
    views::Done,
};

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
const TYPE_MAX: usize = 64;
const TAGS_MAX: usize = 20;
const TAG_MAX: usize = 32;
/// The workspace sizes a legacy project may ask for, in GiB.
const SIZE_RANGE: std::ops::RangeInclusive<u32> = 1..=100;

/// Pure: a legacy project name (spec 001 §5): letters, digits, hyphens, whitespace and slashes;
/// each run of whitespace is one space.
pub fn legacy_name(value: &str) -> Result<String> {
    let v = value.split_whitespace().collect::<Vec<_>>().join(" ");
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
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ' ' | '/'))
    {
        return Err(ApiError::bad_request("invalid_name", INVALID_NAME));
    }
    Ok(v)
}

/// Pure: the size (GiB) as digits in range.
fn size(value: &str) -> Result<String> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| SIZE_RANGE.contains(n))
        .map(|n| n.to_string())
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_size",
                format!(
                    "Size must be a whole number of GiB from {} to {}",
                    SIZE_RANGE.start(),
                    SIZE_RANGE.end()
                ),
            )
        })
}

/// Pure: the type: letters, digits, spaces, commas, underscores and hyphens (e.g. `report`).
fn project_type(value: &str) -> Result<String> {
    let v = value.trim();
    if v.is_empty()
        || v.chars().count() > TYPE_MAX
        || !v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | ',' | '_' | '-'))
    {
        return Err(ApiError::bad_request(
            "invalid_type",
            format!(
                "The type is letters, digits, commas and spaces, at most {TYPE_MAX} characters (e.g. report)"
            ),
        ));
    }
    Ok(v.to_owned())
}

/// Pure: tags, trimmed, without empty ones or repeats.
fn tags(values: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for t in values.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        if t.chars().count() > TAG_MAX || t.chars().any(char::is_control) {
            return Err(ApiError::bad_request(
                "invalid_tag",
                format!("A tag has at most {TAG_MAX} characters"),
            ));
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(t)) {
            out.push(t.to_owned());
        }
    }
    if out.len() > TAGS_MAX {
        return Err(ApiError::bad_request(
            "too_many_tags",
            format!("A project has at most {TAGS_MAX} tags"),
        ));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Lists

#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
#[serde(default, rename_all = "camelCase")]
pub struct LegacyProjectsQuery {
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 10).
    #[serde(alias = "page_size", alias = "limit")]
    pub page_size: Option<i64>,
    /// asc or desc (default desc).
    pub sort_operator: Option<String>,
    /// name, created_at or updated_at (default updated_at).
    pub order_by: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LegacyProjectsPage {
    pub success: bool,
    pub projects: Vec<LegacyProjectView>,
    pub page: i64,
    #[serde(rename = "pageSize")]
    pub page_size: i64,
    pub total: i64,
    pub total_pages: i64,
}

fn sort(q: &LegacyProjectsQuery, default: SortBy) -> Result<(SortBy, bool)> {
    let by = match q.order_by.as_deref().map(str::trim).unwrap_or("") {
        "" => default,
        "name" => SortBy::Name,
        "created_at" | "createdAt" => SortBy::CreatedAt,
        "updated_at" | "updatedAt" => SortBy::UpdatedAt,
        other => {
            return Err(ApiError::bad_request(
                "invalid_order",
                format!("Unknown order: {other} (name, created_at or updated_at)"),
            ));
        }
    };
    let descending = match q
        .sort_operator
        .as_deref()
        .map(|s| s.trim().to_lowercase())
        .as_deref()
    {
        None | Some("") | Some("desc") => true,
        Some("asc") => false,
        Some(other) => {
            return Err(ApiError::bad_request(
                "invalid_sort",
                format!("Unknown sort: {other} (asc or desc)"),
            ));
        }
    };
    Ok((by, descending))
}

/// One page of the caller's legacy projects (`Owned`) or of those shared with them (`Shared`);
/// only types including `report` (spec 000 §2).
async fn page(
    state: &AppState,
    caller: &AuthUser,
    q: &LegacyProjectsQuery,
    filter: Filter,
    default_sort: SortBy,
) -> Result<Json<LegacyProjectsPage>> {
    let (sort_by, descending) = sort(q, default_sort)?;
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(10).clamp(1, 100);
    let query = ListQuery {
        kind: AssetKind::ProjectV2,
        filter,
        sort_by,
        descending,
        search: String::new(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details: Some((
            "d.flavour = $100 AND LOWER(d.project_type) LIKE $101".to_owned(),
            vec![
                ProjectFlavour::Notebook.as_str().to_owned(),
                "%report%".to_owned(),
            ],
        )),
    };
    let (items, total) = listed_projects(state, caller, &query).await?;
    Ok(Json(LegacyProjectsPage {
        success: true,
        projects: views(state, caller, &items).await?,
        page,
        page_size,
        total,
        total_pages: (total + page_size - 1) / page_size,
    }))
}

/// The caller's own legacy projects ('My Projects').
#[utoipa::path(get, path = "/v1/projects", tag = "notebooks", params(LegacyProjectsQuery),
    responses((status = 200, body = LegacyProjectsPage), (status = 400, description = "Unknown order or sort", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_legacy_projects(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<LegacyProjectsQuery>,
) -> Result<Json<LegacyProjectsPage>> {
    page(&state, &caller, &q, Filter::Owned, SortBy::UpdatedAt).await
}

/// Legacy projects shared with the caller ('Shared With Me'), newest first.
#[utoipa::path(get, path = "/v1/projects/share/list", tag = "notebooks", params(LegacyProjectsQuery),
    responses((status = 200, body = LegacyProjectsPage), (status = 400, description = "Unknown order or sort", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn shared_legacy_projects(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<LegacyProjectsQuery>,
) -> Result<Json<LegacyProjectsPage>> {
    page(&state, &caller, &q, Filter::Shared, SortBy::CreatedAt).await
}

#[derive(Serialize, ToSchema)]
pub struct LegacyProjectDetail {
    pub success: bool,
    pub project: LegacyProjectView,
    pub jupyter: JupyterState,
}

/// One legacy project with its notebooks (view access) and its notebook server.
#[utoipa::path(get, path = "/v1/projects/{id}", tag = "notebooks",
    params(("id" = String, Path, description = "Project id")),
    responses((status = 200, body = LegacyProjectDetail), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn legacy_project_details(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<LegacyProjectDetail>> {
    let (project, level) = load_project(&state, &caller, &id, AccessLevel::View).await?;
    let jupyter = JupyterState::of(&state, &caller, &project, level)
        .with_shutdown(&state, &project)
        .await?;
    Ok(Json(LegacyProjectDetail {
        success: true,
        project: view(&state, &caller, project, level).await?,
        jupyter,
    }))
}

// ---------------------------------------------------------------------------------------------
// Create, update, delete, share

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewLegacyProject {
    /// Letters, digits, hyphens, whitespace and slashes.
    pub name: String,
    /// Required.
    pub description: String,
    /// python (the default) or r.
    #[schema(value_type = Language, default = "python")]
    pub language: String,
    /// At least one dataset the caller can see ('Dataset is required').
    pub dataset_ids: Vec<String>,
    /// Default `report`.
    #[serde(rename = "type")]
    pub project_type: Option<String>,
    /// GiB, default `5`.
    pub size: Option<String>,
    /// Default: the creator's name.
    pub author: Option<String>,
    pub tags: Vec<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct NewLegacyProjectRequest {
    pub project: NewLegacyProject,
}

#[derive(Serialize, ToSchema)]
pub struct LegacyProjectAnswer {
    pub success: bool,
    pub message: String,
    pub project: LegacyProjectView,
}

/// What a new legacy project is made of, checked.
struct Fields {
    name: String,
    description: String,
    language: Language,
    dataset_ids: Vec<String>,
    project_type: String,
    size: String,
    author: String,
    tags: Vec<String>,
}

/// Makes a legacy project the caller owns: a repository Ludis hosts, its resource (notebook
/// flavour) and rows.
async fn create(state: &AppState, caller: &AuthUser, f: Fields) -> Result<Project> {
    let image_id = images::default_for(&images::available(state).await, f.language)
        .map(|i| i.id.clone())
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_image",
                format!("No image for {} is available", f.language),
            )
        })?;
    let id = db::new_id();
    let org = caller.user.organization_id.clone();
    let placement = cluster::projects::placement(state, &org, &id, &f.name)
        .await
        .map_err(ApiError::cluster)?;
    let project = Project {
        asset: AssetRow {
            owner_uid: Some(caller.user.uid.clone()),
            description: f.description,
            ..AssetRow::new(AssetKind::ProjectV2, id.clone(), org, f.name.clone(), db::now())
        }
        .placed(placement),
        details: ProjectRow {
            id,
            language: f.language,
            branch: ludis_git::BranchName::main().as_str().to_owned(),
            image_id,
            dataset_ids: f.dataset_ids,
            flavour: ProjectFlavour::Notebook,
            project_type: f.project_type,
            size: f.size,
            author: f.author,
            tags: f.tags,
            ..ProjectRow::default()
        },
    };
    let new = ludis_git::NewRepository {
        name: f.name,
        language: git_language(f.language),
        author: git::author(&caller.user)?,
    };
    create_rows(state, caller, &project, Some(new)).await?;
    Ok(project)
}

/// Create a legacy project (spec 001 §2 `/projects/new`): name, description, language and at
/// least one dataset; type, size, author and tags optional.
#[utoipa::path(post, path = "/v1/projects", tag = "notebooks", request_body = NewLegacyProjectRequest,
    responses(
        (status = 201, description = "Project Created Successfully", body = LegacyProjectAnswer),
        (status = 400, description = "Please enter valid project name. No special character allowed. / Empty project name not allowed. / Dataset is required / Description is required", body = ErrorBody),
        (status = 502, description = "The cluster or the git server failed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_legacy_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<NewLegacyProjectRequest>,
) -> Result<(StatusCode, Json<LegacyProjectAnswer>)> {
    let f = req.project;
    let name = legacy_name(&f.name)?;
    let description = optional_text(&f.description, DESCRIPTION_MAX)?;
    if description.trim().is_empty() {
        return Err(ApiError::bad_request(
            "description_required",
            DESCRIPTION_REQUIRED,
        ));
    }
    let language = language(&f.language)?;
    let dataset_ids = visible_datasets(&state, &caller, f.dataset_ids).await?;
    if dataset_ids.is_empty() {
        return Err(ApiError::bad_request("dataset_required", super::DATASET_REQUIRED));
    }
    let fields = Fields {
        name,
        description,
        language,
        dataset_ids,
        project_type: project_type(f.project_type.as_deref().unwrap_or("report"))?,
        size: size(f.size.as_deref().unwrap_or("5"))?,
        author: optional_text(f.author.as_deref().unwrap_or_default(), NAME_MAX)?,
        tags: tags(&f.tags)?,
    };
    let project = create(&state, &caller, fields).await?;
    Ok((
        StatusCode::CREATED,
        Json(LegacyProjectAnswer {
            success: true,
            message: "Project Created Successfully".into(),
            project: view(&state, &caller, project, AccessLevel::Edit).await?,
        }),
    ))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LegacyProjectChanges {
    /// Not editable: a different name is refused.
    pub name: Option<String>,
    pub description: Option<String>,
    #[serde(rename = "type")]
    pub project_type: Option<String>,
    pub size: Option<String>,
    pub author: Option<String>,
    pub dataset_ids: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateLegacyProjectRequest {
    pub project: LegacyProjectChanges,
}

/// Change a legacy project (edit access): description, type, size, author, datasets, tags; the
/// name is not editable (spec 001 §5). A new size applies to the workspace volume (it can grow).
#[utoipa::path(put, path = "/v1/projects/{id}", tag = "notebooks", request_body = UpdateLegacyProjectRequest,
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, description = "Project updated!", body = LegacyProjectAnswer),
        (status = 400, description = "Invalid field; the name cannot be changed", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_legacy_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateLegacyProjectRequest>,
) -> Result<Json<LegacyProjectAnswer>> {
    let (mut project, level) = load_project(&state, &caller, &id, AccessLevel::Edit).await?;
    if project.asset.is_managed() {
        return Err(ApiError::conflict(
            "managed_by_resource",
            crate::routes::projects::MANAGED,
        ));
    }
    let c = req.project;
    if let Some(name) = &c.name
        && legacy_name(name).ok().as_deref() != Some(project.asset.name.as_str())
    {
        return Err(ApiError::bad_request("name_fixed", NAME_FIXED));
    }
    if let Some(description) = &c.description {
        let d = optional_text(description, DESCRIPTION_MAX)?;
        if d.trim().is_empty() {
            return Err(ApiError::bad_request(
                "description_required",
                DESCRIPTION_REQUIRED,
            ));
        }
        project.asset.description = d;
    }
    let d = &mut project.details;
    if let Some(t) = &c.project_type {
        d.project_type = project_type(t)?;
    }
    if let Some(s) = &c.size {
        let new = size(s)?;
        if new.parse::<u32>().ok() < d.size.parse::<u32>().ok() {
            return Err(ApiError::bad_request(
                "size_shrinks",
                "A workspace can grow but not shrink",
            ));
        }
        d.size = new;
    }
    if let Some(a) = &c.author {
        d.author = optional_text(a, NAME_MAX)?;
    }
    if let Some(t) = &c.tags {
        d.tags = tags(t)?;
    }
    if let Some(ids) = c.dataset_ids {
        let ids = visible_datasets(&state, &caller, ids).await?;
        if ids.is_empty() {
            return Err(ApiError::bad_request("dataset_required", super::DATASET_REQUIRED));
        }
        d.dataset_ids = ids;
    }
    project.asset.updated_at = db::now();
    cluster::projects::apply(&state, &project)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &project).await?;
    db::activity::Activity::on_asset(&caller.user, &project.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(LegacyProjectAnswer {
        success: true,
        message: "Project updated!".into(),
        project: view(&state, &caller, project, level).await?,
    }))
}

/// Delete a legacy project (edit access): its notebooks, repository, resource and rows.
#[utoipa::path(delete, path = "/v1/projects/{id}", tag = "notebooks",
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, description = "Project Deleted!", body = Done),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_legacy_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (project, _) = load_project(&state, &caller, &id, AccessLevel::Edit).await?;
    remove(&state, &caller, &project).await?;
    Ok(Done::new("Project Deleted!"))
}

/// Share a legacy project: `POST /v1/applications/share` for it (edit access).
#[utoipa::path(post, path = "/v1/projects/share", tag = "notebooks", request_body = shares::ShareRequest,
    responses(
        (status = 200, description = "Project shared!", body = Done),
        (status = 400, description = "Invalid entry", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn share_legacy_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(mut req): AppJson<shares::ShareRequest>,
) -> Result<Json<Done>> {
    // Only a legacy project is shared here (404 otherwise, as for anything unseen).
    load_project(&state, &caller, &req.share.entity_id, AccessLevel::View).await?;
    req.share.entity_type = EntityType::ProjectV2.as_str().into();
    shares::share(State(state), caller, AppJson(req)).await
}

// ---------------------------------------------------------------------------------------------
// Template projects

#[derive(Serialize, ToSchema)]
pub struct ProjectTemplateView {
    pub id: String,
    pub name: String,
    pub description: String,
    pub language: Language,
    /// The notebooks' names.
    pub notebooks: Vec<String>,
    /// The sample datasets it reads, by name.
    pub datasets: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ProjectTemplatesAnswer {
    pub success: bool,
    pub templates: Vec<ProjectTemplateView>,
}

/// The template projects with notebooks.
#[utoipa::path(get, path = "/v1/projects/ludisproject", tag = "notebooks",
    responses((status = 200, body = ProjectTemplatesAnswer)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn project_templates(_caller: AuthUser) -> Json<ProjectTemplatesAnswer> {
    Json(ProjectTemplatesAnswer {
        success: true,
        templates: TEMPLATES
            .iter()
            .map(|t| ProjectTemplateView {
                id: t.id.into(),
                name: t.name.into(),
                description: t.description.into(),
                language: Language::Python,
                notebooks: t.notebooks.iter().map(|n| n.name.to_owned()).collect(),
                datasets: vec![templates::sample_name(t).to_owned()],
            })
            .collect(),
    })
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct TemplateProjectRequest {
    /// A template's id (`GET /v1/projects/ludisproject`).
    pub template: String,
    /// Default: the template's name.
    pub name: Option<String>,
}

/// Create a project from a template (spec 001 §7 `ludisproject`): its notebooks, reading the
/// organization's sample dataset the template names when the caller can see it.
#[utoipa::path(post, path = "/v1/projects/ludisproject", tag = "notebooks", request_body = TemplateProjectRequest,
    responses(
        (status = 201, description = "Project Created Successfully", body = LegacyProjectAnswer),
        (status = 400, description = "Unknown template; invalid name", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_template_project(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<TemplateProjectRequest>,
) -> Result<(StatusCode, Json<LegacyProjectAnswer>)> {
    let t = templates::by_id(&req.template).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_template",
            format!("Unknown template: {}", req.template.trim()),
        )
    })?;
    let name = legacy_name(
        req.name
            .as_deref()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(t.name),
    )?;
    let dataset_ids = sample_dataset(&state, &caller, templates::sample_name(t))
        .await?
        .into_iter()
        .collect();
    let fields = Fields {
        name,
        description: t.description.to_owned(),
        language: Language::Python,
        dataset_ids,
        project_type: "report".into(),
        size: "5".into(),
        author: String::new(),
        tags: vec!["template".into()],
    };
    let project = create(&state, &caller, fields).await?;
    for n in t.notebooks {
        files::add(
            &state,
            &caller,
            &project,
            (n.name, n.description),
            n.file,
            n.content,
        )
        .await?;
    }
    Ok((
        StatusCode::CREATED,
        Json(LegacyProjectAnswer {
            success: true,
            message: "Project Created Successfully".into(),
            project: view(&state, &caller, project, AccessLevel::Edit).await?,
        }),
    ))
}

/// The id of the sample dataset named `name` that the caller can see, if any.
async fn sample_dataset(state: &AppState, caller: &AuthUser, name: &str) -> Result<Option<String>> {
    let query = ListQuery {
        kind: AssetKind::Dataset,
        filter: Filter::All,
        sort_by: SortBy::CreatedAt,
        descending: false,
        search: name.to_lowercase(),
        limit: 50,
        offset: 0,
        details: None,
    };
    let (listed, _) = db::assets::list(&state.db, assets::viewer(&caller.user), &query).await?;
    Ok(listed
        .into_iter()
        .find(|l| l.asset.name == name && l.asset.organization_id == caller.user.organization_id)
        .map(|l| l.asset.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_names_follow_the_spec() {
        assert_eq!(
            legacy_name("  Sales  2026/Q1 - east ").unwrap(),
            "Sales 2026/Q1 - east"
        );
        for bad in ["a_b", "café", "x!", "a.b"] {
            let e = legacy_name(bad).unwrap_err();
            assert_eq!(e.to_string(), INVALID_NAME, "{bad}");
        }
        assert_eq!(legacy_name("  ").unwrap_err().to_string(), EMPTY_NAME);
        assert!(legacy_name(&"x".repeat(129)).is_err());
    }

    #[test]
    fn sizes_types_and_tags_are_checked() {
        assert_eq!(size(" 5 ").unwrap(), "5");
        for bad in ["0", "101", "5Gi", "", "-1"] {
            assert!(size(bad).is_err(), "{bad}");
        }
        assert_eq!(project_type("report, dashboard").unwrap(), "report, dashboard");
        assert!(project_type("<b>").is_err());
        assert!(project_type("").is_err());
        assert_eq!(
            tags(&[" a ".into(), "A".into(), "".into(), "b".into()]).unwrap(),
            ["a", "b"]
        );
        assert!(tags(&["x".repeat(33)]).is_err());
        assert!(tags(&(0..21).map(|i| i.to_string()).collect::<Vec<_>>()).is_err());
    }
}
