//! Creating an insight: from a project, from a template, by URL (`import_app`); the shared
//! create path (cluster first, then the row).

use super::*;

/// A new insight of the caller, in their organization. Its custom resource's place (namespace
/// and name) is set only when it gets one ([`cluster::insights::placement`]); an application
/// that runs in the cluster is named after it (`container_name`) either way.
pub(super) async fn new_insight(
    state: &AppState,
    caller: &AuthUser,
    name: String,
    description: String,
    img_path: Option<String>,
    details: InsightRow,
) -> Result<Insight> {
    let organization_id = caller.user.organization_id.clone();
    let id = details.id.clone();
    let placement = cluster::insights::placement(state, &organization_id, &id, &name, &details)
        .await
        .map_err(ApiError::Internal)?;
    let runs = details.app_type == AppType::Application && details.status == InsightStatus::Starting;
    let container_name = runs.then(|| cluster::insights::resource_name(&name, &id));
    Ok(Insight {
        asset: AssetRow {
            owner_uid: Some(caller.user.uid.clone()),
            description,
            img_path,
            ..AssetRow::new(AssetKind::Insight, id, organization_id, name, db::now())
        }
        .placed(placement),
        details: InsightRow {
            container_name,
            ..details
        },
    })
}

/// Applies the resource, then inserts the rows (a refused resource leaves nothing; a failed
/// insert removes the resource again), records the activity and answers 201.
pub(super) async fn create(
    state: &AppState,
    caller: &AuthUser,
    insight: Insight,
    message: &str,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    assets::create(state, &insight, details::insert(&state.db, &insight)).await?;
    Activity::on_asset(&caller.user, &insight.asset, ActivityAction::Created)
        .record(&state.db)
        .await;
    Ok((
        StatusCode::CREATED,
        answer(state, caller, &insight.asset.id, AccessLevel::Edit, message).await?,
    ))
}

// ---------------------------------------------------------------------------------------------
// Shapes

/// Publish an application or report from a project (edit access on the project), or add an
/// external application by its URL. Applications start right away (status starting).
#[utoipa::path(post, path = "/v1/applications", tag = "insights", request_body = CreateInsightRequest,
    responses(
        (status = 201, description = "App Created Successfully", body = InsightMessage),
        (status = 400, description = "Empty name not allowed, Empty form type not allowed, Enter a valid URL, …", body = ErrorBody),
        (status = 404, description = "Project not found / Dataset not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateInsightRequest>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let a = req.application;
    let name = required_text(&a.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = optional_text(&a.description, DESCRIPTION_MAX)?;
    let app_type = app_type(
        &a.app_type,
        &[AppType::Application, AppType::Report],
        "application or report",
    )?;
    let img_path = image_path(a.img_path.as_deref().unwrap_or_default(), &caller.user.uid)?;
    let language = language(a.language.as_deref())?;
    let url = a.app_url.as_deref().map(str::trim).filter(|u| !u.is_empty());
    let external = app_type == AppType::Application && url.is_some();
    let mut revision = None;
    let (status, app_url, project_id, files) = if external {
        (
            InsightStatus::External,
            Some(app_url(url.unwrap_or_default())?),
            None,
            Vec::new(),
        )
    } else {
        if url.is_some() {
            return Err(bad("url_not_allowed", "Only an application can have a URL"));
        }
        let project = a
            .project_id
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| bad("project_required", "A project must be selected"))?;
        let files = publication_files(&a.publish_filenames)?;
        let (source, _) =
            assets::load::<crate::db::projects::ProjectRow>(&state, &caller.user, project, AccessLevel::Edit)
                .await?;
        revision = pin(&state, &caller.user, &source, &files).await?;
        let status = if app_type == AppType::Application {
            InsightStatus::Starting
        } else {
            InsightStatus::Rendering
        };
        (status, None, Some(project.to_owned()), files)
    };
    let dataset_ids = check_datasets(&state, &caller, &a.dataset_ids).await?;
    let size_id = match external {
        true => None,
        false => crate::projects::sizes::chosen(&state, a.size_id.as_deref().unwrap_or_default()).await?,
    };
    let row = InsightRow {
        id: db::new_id(),
        app_type,
        status,
        app_url,
        language,
        project_id,
        publish_filenames: files,
        revision,
        dataset_ids,
        size_id,
        always_on: false,
        ..Default::default()
    };
    let insight = new_insight(&state, &caller, name, description, img_path, row).await?;
    if !external {
        // A pod the organization's quota has no room for is refused before anything is made.
        check_quota(&state, &insight).await?;
    }
    create(&state, &caller, insight, "App Created Successfully").await
}

/// The template wizard: an application made from a template (cluster, slice-and-dice or
/// campaign) over datasets the caller can see, reading the data file chosen in the wizard (kept
/// with the app; every template call reads it unless the call names another). Rendered by the
/// console; nothing to build.
#[utoipa::path(post, path = "/v2/applications/create", tag = "insights", request_body = TemplateAppRequest,
    responses(
        (status = 201, description = "App Created Successfully", body = InsightMessage),
        (status = 400, description = "Empty App name not allowed / Dataset must be selected! / Template App Type must be selected! / Template apps read .csv, .xlsx and .xls files", body = ErrorBody),
        (status = 404, description = "Dataset not found / File not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_from_template(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<TemplateAppRequest>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let a = req.application;
    let name = required_text(&a.name, "Empty App name not allowed", "name_required", NAME_MAX)?;
    if a.dataset_ids.iter().all(|d| d.trim().is_empty()) {
        return Err(bad("dataset_required", "Dataset must be selected!"));
    }
    let template: Template = a
        .template
        .trim()
        .to_lowercase()
        .parse()
        .map_err(|_| bad("template_required", "Template App Type must be selected!"))?;
    let description = optional_text(&a.description, DESCRIPTION_MAX)?;
    let img_path = image_path(a.img_path.as_deref().unwrap_or_default(), &caller.user.uid)?;
    let dataset_ids = check_datasets(&state, &caller, &a.dataset_ids).await?;
    // The wizard's file, of the dataset the app reads (its first); none: the dataset's default.
    let template_file = match (a.file.as_deref().map(str::trim), dataset_ids.first()) {
        (Some(file), Some(dataset)) if !file.is_empty() => {
            Some(crate::routes::templates::checked_file(&state, &caller, dataset, file).await?)
        }
        _ => None,
    };
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id: db::new_id(),
            app_type: AppType::Application,
            status: InsightStatus::Running,
            template: Some(template),
            is_template: true,
            language: Language::Python,
            dataset_ids,
            template_file,
            ..Default::default()
        },
    )
    .await?;
    create(&state, &caller, insight, "App Created Successfully").await
}

/// Import an external application by its URL (nothing runs in the cluster; status external).
#[utoipa::path(post, path = "/v1/applications/importapp", tag = "insights", request_body = ImportAppRequest,
    responses(
        (status = 201, description = "App Created Successfully", body = InsightMessage),
        (status = 400, description = "Empty name not allowed / Empty description not allowed / Empty form type not allowed / Empty URL not allowed / Enter a valid URL (http:// or https://)", body = ErrorBody),
        (status = 502, description = "The cluster refused the resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn import_app(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<ImportAppRequest>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let a = req.application;
    let name = required_text(&a.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = required_text(
        &a.description,
        EMPTY_DESCRIPTION,
        "description_required",
        DESCRIPTION_MAX,
    )?;
    app_type(&a.app_type, &[AppType::Application], "application")?;
    let url = app_url(&a.app_url)?;
    let img_path = image_path(a.img_path.as_deref().unwrap_or_default(), &caller.user.uid)?;
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id: db::new_id(),
            app_type: AppType::Application,
            status: InsightStatus::External,
            app_url: Some(url),
            language: Language::Python,
            ..Default::default()
        },
    )
    .await?;
    create(&state, &caller, insight, "App Created Successfully").await
}
