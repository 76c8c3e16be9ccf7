//! Insights (applications, reports, imported reports): the list with its filters, screens, sort,
//! search and pages; one insight with its view count and addresses; create (from a project, from
//! a template, by URL, by PDF upload), update, delete, stop/restart/redeploy; pins.
//!
//! Every call that names an insight goes through [`access::require`] (404 without access, 403
//! with too little). Cluster writes ([`cluster::insights`]) come first: a create applies the
//! custom resource before its row is inserted, so a refused resource leaves nothing behind; a
//! cluster error answers 502 and leaves the database as it was.

use std::collections::HashMap;

use axum::{
    Json,
    extract::{DefaultBodyLimit, Multipart, State, multipart::MultipartRejection},
    http::StatusCode,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    access,
    app::AppState,
    auth::AuthUser,
    cluster,
    db::{
        self, activity,
        assets::{self, AssetRow, Filter, KIND_APPLICATION, ListQuery, SortBy},
        insights::{self, Insight, InsightRow},
        pins,
        users::{self, UserRow},
    },
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    policy::sharing::Level,
    routes::apps,
    seeds::DEFAULT_IMAGES,
    views::{Done, InsightView, presign_get},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_insights))
        .routes(routes!(create_insight))
        .routes(routes!(create_from_template))
        .routes(routes!(import_app))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(import_report))
                .layer(DefaultBodyLimit::max(REPORT_BODY_LIMIT)),
        )
        .routes(routes!(get_insight, update_insight, delete_insight))
        .routes(routes!(stop_insight))
        .routes(routes!(restart_insight))
        .routes(routes!(redeploy_insight))
        .routes(routes!(list_pins))
        .routes(routes!(pin_insight))
}

/// An imported report may be up to 50 MiB (the multipart body a little more).
pub const REPORT_MAX_BYTES: usize = 50 * 1024 * 1024;
const REPORT_BODY_LIMIT: usize = REPORT_MAX_BYTES + 64 * 1024;
/// A view counts at most once per user per 10 minutes.
pub const VIEW_WINDOW_SECS: i64 = 600;
/// Folder of uploaded insight images (the profile-photo upload address is reused).
const IMAGE_PREFIX: &str = crate::routes::users::PHOTO_PREFIX;

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
const URL_MAX: usize = 2048;

pub const EMPTY_NAME: &str = "Empty name not allowed";
pub const EMPTY_DESCRIPTION: &str = "Empty description not allowed";
pub const EMPTY_TYPE: &str = "Empty form type not allowed";
pub const EMPTY_URL: &str = "Empty URL not allowed";
pub const INVALID_URL: &str = "Enter a valid URL (http:// or https://)";
pub const EXTERNAL_NO_RUN: &str = "An external application cannot be stopped or restarted";
pub const ONLY_APPLICATIONS_RUN: &str = "Only applications can be stopped or restarted";
pub const NOTHING_TO_REDEPLOY: &str =
    "Only applications and reports that run in the cluster can be redeployed";
pub const MANAGED: &str =
    "This application is managed by its resource (kubectl or GitOps); change or delete it there";

// ---------------------------------------------------------------------------------------------
// Shared pieces

fn bad(code: &'static str, message: &'static str) -> ApiError {
    ApiError::bad_request(code, message)
}

/// A failed cluster write: 409 when another tool owns a field the API would change, else 502.
pub(crate) fn cluster_error(e: anyhow::Error) -> ApiError {
    tracing::warn!(error = format!("{e:#}"), "the cluster refused a change");
    if let Some(conflict) = e.downcast_ref::<cluster::insights::Conflict>() {
        return ApiError::conflict("resource_conflict", conflict.message.clone());
    }
    // The API server's own words when it answered (e.g. a validation rule), else the cause.
    let detail = e
        .chain()
        .find_map(|c| match c.downcast_ref::<kube::Error>() {
            Some(kube::Error::Api(s)) => Some(s.message.clone()),
            _ => None,
        })
        .unwrap_or_else(|| e.to_string());
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "cluster_error",
        format!("The cluster refused the change: {detail}"),
    )
}

/// Loads an insight the caller has at least `need` on.
async fn load(state: &AppState, caller: &AuthUser, id: &str, need: Level) -> Result<(Insight, Level)> {
    let (_, level) = access::require(state, &caller.user, KIND_APPLICATION, id, need).await?;
    let insight = insights::by_id(&state.db, id)
        .await?
        .ok_or_else(|| access::not_found(KIND_APPLICATION))?;
    Ok((insight, level))
}

/// The owners of some assets, by uid.
async fn owners<'a>(
    state: &AppState,
    assets: impl Iterator<Item = &'a AssetRow>,
) -> Result<HashMap<String, UserRow>> {
    let uids: Vec<String> = assets.filter_map(|a| a.owner_uid.clone()).collect();
    Ok(users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid.clone(), u))
        .collect())
}

/// One insight as the caller sees it.
pub async fn view(state: &AppState, caller: &AuthUser, i: &Insight, level: Level) -> Result<InsightView> {
    let pinned = pins::is_pinned(&state.db, &caller.user.uid, &i.asset.id).await?;
    let owner = match i.asset.owner_uid.as_deref() {
        Some(uid) if uid == caller.user.uid => Some(caller.user.clone()),
        Some(uid) => users::by_uid(&state.db, uid).await?,
        None => None,
    };
    Ok(
        InsightView::new(i, level, pinned, &caller.user.uid, owner.as_ref())
            .with_img_url(state)
            .await,
    )
}

/// Reloads an insight after a change and answers it with a message.
async fn answer(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    level: Level,
    message: &str,
) -> Result<Json<InsightMessage>> {
    let insight = insights::by_id(&state.db, id)
        .await?
        .ok_or_else(|| access::not_found(KIND_APPLICATION))?;
    Ok(Json(InsightMessage {
        success: true,
        message: message.to_owned(),
        application: view(state, caller, &insight, level).await?,
    }))
}

async fn record(state: &AppState, caller: &AuthUser, asset: &AssetRow, action: &str) {
    activity::record(
        &state.db,
        activity::Activity {
            user_uid: Some(&caller.user.uid),
            organization_id: Some(&asset.organization_id),
            entity_type: "applications",
            entity_id: &asset.id,
            entity_name: &asset.name,
            action,
        },
    )
    .await;
}

/// A required text field: trimmed, not empty, at most `max` characters.
pub(crate) fn required_text(
    value: &str,
    empty: &'static str,
    code: &'static str,
    max: usize,
) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(bad(code, empty));
    }
    if v.chars().count() > max {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {max} characters are allowed"),
        ));
    }
    Ok(v.to_owned())
}

pub(crate) fn optional_text(value: &str, max: usize) -> Result<String> {
    let v = value.trim();
    if v.chars().count() > max {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {max} characters are allowed"),
        ));
    }
    Ok(v.to_owned())
}

/// An http(s) URL with a host and no spaces.
pub fn valid_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let Some(rest) = rest else { return false };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    url.len() <= URL_MAX
        && !host.is_empty()
        && !host.starts_with(':')
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn app_url(value: &str) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(bad("url_required", EMPTY_URL));
    }
    if !valid_url(v) {
        return Err(bad("invalid_url", INVALID_URL));
    }
    Ok(v.to_owned())
}

/// An image to save as `img_path`: a default image (`/v1/images/defaults/<name>`) or an object
/// key the caller uploaded (`user asset images/<caller uid>/…`); empty clears it. Anything else
/// is refused, so `img_url` never presigns someone else's object.
fn image_path(value: &str, caller_uid: &str) -> Result<Option<String>> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(None);
    }
    let default = v
        .strip_prefix("/v1/images/defaults/")
        .is_some_and(|name| DEFAULT_IMAGES.iter().any(|(n, _)| *n == name));
    let uploaded = v.starts_with(&format!("{IMAGE_PREFIX}/{caller_uid}/")) && !v.contains("..");
    if default || uploaded {
        Ok(Some(v.to_owned()))
    } else {
        Err(bad("invalid_image_path", "Invalid image path"))
    }
}

fn language(value: Option<&str>) -> Result<String> {
    match value.map(|l| l.trim().to_lowercase()).as_deref() {
        None | Some("") | Some("python") => Ok("python".into()),
        Some("r") => Ok("r".into()),
        Some(_) => Err(bad("invalid_language", "Language must be python or r")),
    }
}

/// Every named dataset must be one the caller can see.
async fn check_datasets(state: &AppState, caller: &AuthUser, ids: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        access::require(state, &caller.user, assets::KIND_DATASET, id, Level::View).await?;
        if !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    Ok(out)
}

/// A new insight of the caller, in their organization. Its custom resource's place (namespace
/// and name) is set only when it gets one ([`cluster::insights::placement`]); an application
/// that runs in the cluster is named after it (`container_name`) either way.
async fn new_insight(
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
    let runs = details.app_type == insights::APPLICATION && details.status == insights::STARTING;
    let container_name = runs.then(|| cluster::insights::resource_name(&name, &id));
    let (namespace, resource_name) = placement.unzip();
    let now = db::now();
    Ok(Insight {
        asset: AssetRow {
            id,
            kind: KIND_APPLICATION.into(),
            organization_id,
            owner_uid: Some(caller.user.uid.clone()),
            name,
            description,
            img_path,
            namespace,
            resource_name,
            origin: assets::ORIGIN_API.into(),
            views: 0,
            created_at: now,
            updated_at: now,
        },
        details: InsightRow {
            container_name,
            ..details
        },
    })
}

/// Applies the resource, then inserts the rows (a refused resource leaves nothing; a failed
/// insert removes the resource again), records the activity and answers 201.
async fn create(
    state: &AppState,
    caller: &AuthUser,
    insight: Insight,
    message: &str,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    cluster::insights::apply(state, &insight, Some(&caller.user.email))
        .await
        .map_err(cluster_error)?;
    if let Err(e) = insights::insert(&state.db, &insight).await {
        if let Err(undo) = cluster::insights::delete(state, &insight).await {
            tracing::error!(id = %insight.asset.id, error = format!("{undo:#}"), "failed to remove the resource of an insight whose row was not written");
        }
        return Err(e.into());
    }
    record(state, caller, &insight.asset, "created").await;
    Ok((
        StatusCode::CREATED,
        answer(state, caller, &insight.asset.id, Level::Edit, message).await?,
    ))
}

// ---------------------------------------------------------------------------------------------
// Shapes

#[derive(Serialize, ToSchema)]
pub struct InsightMessage {
    pub success: bool,
    pub message: String,
    pub application: InsightView,
}

#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase", default)]
#[into_params(parameter_in = Query)]
pub struct InsightsQuery {
    /// 1-based page (default 1).
    pub page: Option<i64>,
    /// Page size (default 12, at most 100).
    pub page_size: Option<i64>,
    /// all (default), starred, owned, shared or template.
    pub filter: Option<String>,
    /// created_at (default), updated_at or name.
    pub sort_by: Option<String>,
    /// DESC (default) or ASC.
    pub sort_operator: Option<String>,
    /// Case-insensitive substring of the name or description.
    pub search: Option<String>,
    /// Dashboard (default: every type), Reports (report and user_report) or Applications.
    pub screen: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct InsightsPage {
    pub success: bool,
    pub applications: Vec<InsightView>,
    /// How many match, over all pages.
    pub total: i64,
    pub page: i64,
    #[serde(rename = "pageSize")]
    pub page_size: i64,
    #[serde(rename = "totalPages")]
    pub total_pages: i64,
}

#[derive(Serialize, ToSchema)]
pub struct InsightResponse {
    pub success: bool,
    pub application: InsightView,
    /// A user report's file: a presigned GET, valid one hour.
    pub report_url: Option<String>,
    /// Where the app opens: an external app's URL (the console opens it itself), or for a
    /// running application the API's reverse proxy on the apps origin with a single-use ticket
    /// bound to this session (`https://<id>.apps.…/apps/{id}/?ticket=…`).
    pub open_url: Option<String>,
    /// Why an application that runs in the cluster cannot be opened here at all (the platform
    /// has no apps origin), for its page; null otherwise.
    pub open_error: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct CreateInsightRequest {
    pub application: NewInsight,
}

/// A new application or report published from a project, or an external application (app_url).
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewInsight {
    pub name: String,
    pub description: String,
    /// application or report (an imported PDF goes to `POST /v1/applications/importreport`).
    pub app_type: String,
    /// A default image URL or an uploaded image's key.
    pub img_path: Option<String>,
    /// An external application's URL (then nothing runs in the cluster).
    pub app_url: Option<String>,
    /// python (default) or r.
    pub language: Option<String>,
    /// The project published from (edit access needed); required unless app_url is given.
    pub project_id: Option<String>,
    /// Files published, relative to the project root; the first is the entry point.
    pub publish_filenames: Vec<String>,
    /// Datasets the insight reads (view access needed on each).
    pub dataset_ids: Vec<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct TemplateAppRequest {
    pub application: NewTemplateApp,
}

/// The template wizard's app.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewTemplateApp {
    pub name: String,
    pub description: String,
    /// cluster, slice-and-dice or campaign.
    pub template: String,
    pub dataset_ids: Vec<String>,
    pub img_path: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct ImportAppRequest {
    pub application: ImportApp,
}

/// An external application by its URL.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ImportApp {
    pub name: String,
    pub description: String,
    /// application.
    pub app_type: String,
    pub app_url: String,
    pub img_path: Option<String>,
}

/// The multipart form of a report import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ImportReportForm {
    pub name: String,
    pub description: String,
    /// The PDF (at most 50 MiB).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    pub img_path: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateInsightRequest {
    pub entity: InsightChanges,
}

/// Changes to an insight; absent fields stay as they are.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct InsightChanges {
    pub name: Option<String>,
    pub description: Option<String>,
    /// A default image URL or an uploaded image's key; empty removes the image.
    pub img_path: Option<String>,
    /// Only for external applications.
    pub app_url: Option<String>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RunRequest {
    pub application_id: String,
    /// Accepted for compatibility; the files published are the insight's own.
    pub publish_filenames: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PinList {
    pub success: bool,
    /// Newest pin first; only insights the caller still sees.
    pub applications: Vec<InsightView>,
}

#[derive(Deserialize, ToSchema)]
pub struct PinRequest {
    pub app_pin: PinChange,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PinChange {
    pub app_id: String,
    /// The caller's uid (or omitted): one pins for oneself only.
    pub user_id: Option<String>,
    pub pinned: bool,
}

#[derive(Serialize, ToSchema)]
pub struct PinInfo {
    pub app_id: String,
    pub user_id: String,
    pub pinned: bool,
}

#[derive(Serialize, ToSchema)]
pub struct PinResponse {
    pub success: bool,
    #[serde(rename = "applicationPinInfo")]
    pub application_pin_info: PinInfo,
}

// ---------------------------------------------------------------------------------------------
// List and get

fn parse_filter(v: Option<&str>) -> Result<(Filter, bool)> {
    match v.map(str::trim).filter(|v| !v.is_empty()).unwrap_or("all") {
        "all" => Ok((Filter::All, false)),
        "starred" => Ok((Filter::Starred, false)),
        "owned" => Ok((Filter::Owned, false)),
        "shared" => Ok((Filter::Shared, false)),
        "template" => Ok((Filter::All, true)),
        other => Err(ApiError::bad_request(
            "invalid_filter",
            format!("Unknown filter: {other} (all, starred, owned, shared or template)"),
        )),
    }
}

fn parse_sort(by: Option<&str>, operator: Option<&str>) -> Result<(SortBy, bool)> {
    let by = match by
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or("created_at")
    {
        "created_at" => SortBy::CreatedAt,
        "updated_at" => SortBy::UpdatedAt,
        "name" => SortBy::Name,
        other => {
            return Err(ApiError::bad_request(
                "invalid_sort",
                format!("Unknown sort field: {other} (created_at, updated_at or name)"),
            ));
        }
    };
    let descending = match operator
        .map(|o| o.trim().to_uppercase())
        .filter(|o| !o.is_empty())
        .as_deref()
    {
        None | Some("DESC") => true,
        Some("ASC") => false,
        Some(other) => {
            return Err(ApiError::bad_request(
                "invalid_sort",
                format!("Unknown sort operator: {other} (ASC or DESC)"),
            ));
        }
    };
    Ok((by, descending))
}

/// The screen's condition on the insight's type.
fn screen_types(v: Option<&str>) -> Result<Option<Vec<String>>> {
    match v.map(str::trim).filter(|v| !v.is_empty()).unwrap_or("Dashboard") {
        "Dashboard" | "dashboard" => Ok(None),
        "Reports" | "reports" => Ok(Some(vec![insights::REPORT.into(), insights::USER_REPORT.into()])),
        "Applications" | "applications" => Ok(Some(vec![insights::APPLICATION.into()])),
        other => Err(ApiError::bad_request(
            "invalid_screen",
            format!("Unknown screen: {other} (Dashboard, Reports or Applications)"),
        )),
    }
}

/// The insights the caller can see: filtered, searched, sorted and paged.
#[utoipa::path(get, path = "/v1/applications/insights", tag = "insights", params(InsightsQuery),
    responses(
        (status = 200, body = InsightsPage),
        (status = 400, description = "Unknown filter, sort or screen", body = ErrorBody),
        (status = 403, description = "The insights feature is off for the caller's role", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn list_insights(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<InsightsQuery>,
) -> Result<Json<InsightsPage>> {
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(12).clamp(1, 100);
    let (filter, templates) = parse_filter(q.filter.as_deref())?;
    let (sort_by, descending) = parse_sort(q.sort_by.as_deref(), q.sort_operator.as_deref())?;
    let types = screen_types(q.screen.as_deref())?;
    let mut conditions = Vec::new();
    let mut params = Vec::new();
    if let Some(types) = types {
        let placeholders: Vec<String> = (0..types.len()).map(|i| format!("${}", 100 + i)).collect();
        conditions.push(format!("d.app_type IN ({})", placeholders.join(", ")));
        params.extend(types);
    }
    if templates {
        conditions.push("d.is_template = 1".into());
    }
    let query = ListQuery {
        kind: KIND_APPLICATION,
        filter,
        sort_by,
        descending,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details: (!conditions.is_empty()).then(|| ("insights", conditions.join(" AND "), params)),
    };
    let (listed, total) = assets::list(&state.db, access::viewer(&caller.user), &query).await?;
    let ids: Vec<String> = listed.iter().map(|l| l.asset.id.clone()).collect();
    let mut details: HashMap<String, InsightRow> = insights::details_of(&state.db, &ids)
        .await?
        .into_iter()
        .map(|d| (d.id.clone(), d))
        .collect();
    let owners = owners(&state, listed.iter().map(|l| &l.asset)).await?;
    let mut applications = Vec::with_capacity(listed.len());
    for l in listed {
        let Some(d) = details.remove(&l.asset.id) else {
            continue;
        };
        let owner = l.asset.owner_uid.as_ref().and_then(|u| owners.get(u));
        let insight = Insight {
            asset: l.asset,
            details: d,
        };
        applications.push(
            InsightView::new(&insight, l.level, l.pinned, &caller.user.uid, owner)
                .with_img_url(&state)
                .await,
        );
    }
    Ok(Json(InsightsPage {
        success: true,
        applications,
        total,
        page,
        page_size,
        total_pages: (total + page_size - 1) / page_size,
    }))
}

/// One insight (view access). Counts a view, at most once per user per 10 minutes; gives a
/// user report's file as a presigned GET (one hour) and where the app opens.
#[utoipa::path(get, path = "/v1/applications/{id}", tag = "insights", params(("id" = String, Path, description = "Insight id")),
    responses(
        (status = 200, body = InsightResponse),
        (status = 404, description = "Application not found (or no access)", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn get_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<InsightResponse>> {
    let (mut insight, level) = load(&state, &caller, &id, Level::View).await?;
    insight.asset.views =
        assets::count_view(&state.db, &id, &caller.user.uid, db::now(), VIEW_WINDOW_SECS).await?;
    let d = &insight.details;
    let report_url = match d.report_object.as_deref() {
        // Never another insight's object (a resource's spec.reportObject is checked when it is
        // mirrored; this holds for any row).
        Some(key) if d.app_type == insights::USER_REPORT && insights::is_own_report_object(&id, key) => {
            presign_get(&state, key).await
        }
        _ => None,
    };
    let open_url = if d.status == insights::EXTERNAL {
        d.app_url.clone()
    } else if d.container_name.is_some() && d.status == insights::RUNNING {
        apps::open_url(&state, &caller.user.uid, caller.session.as_deref(), &id)
    } else {
        None
    };
    Ok(Json(InsightResponse {
        success: true,
        application: view(&state, &caller, &insight, level).await?,
        report_url,
        open_url,
        open_error: apps::open_error(&state, d).map(str::to_owned),
    }))
}

// ---------------------------------------------------------------------------------------------
// Create

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
async fn create_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateInsightRequest>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let a = req.application;
    let name = required_text(&a.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = optional_text(&a.description, DESCRIPTION_MAX)?;
    let app_type = match a.app_type.trim().to_lowercase().as_str() {
        "" => return Err(bad("type_required", EMPTY_TYPE)),
        t @ (insights::APPLICATION | insights::REPORT) => t.to_owned(),
        insights::USER_REPORT => {
            return Err(bad(
                "use_import_report",
                "Import a report file with POST /v1/applications/importreport",
            ));
        }
        other => {
            return Err(ApiError::bad_request(
                "invalid_type",
                format!("Unknown app type: {other} (application or report)"),
            ));
        }
    };
    let img_path = image_path(a.img_path.as_deref().unwrap_or_default(), &caller.user.uid)?;
    let language = language(a.language.as_deref())?;
    let url = a.app_url.as_deref().map(str::trim).filter(|u| !u.is_empty());
    let external = app_type == insights::APPLICATION && url.is_some();
    let (status, app_url, project_id, files) = if external {
        (
            insights::EXTERNAL,
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
        let files: Vec<String> = a
            .publish_filenames
            .iter()
            .map(|f| f.trim().to_owned())
            .filter(|f| !f.is_empty())
            .collect();
        if files.is_empty() {
            return Err(bad("file_required", "A file must be selected"));
        }
        if files
            .iter()
            .any(|f| f.starts_with('/') || f.split('/').any(|p| p == ".."))
        {
            return Err(bad("invalid_file", "Files must be relative to the project root"));
        }
        access::require(&state, &caller.user, assets::KIND_PROJECT, project, Level::Edit).await?;
        let status = if app_type == insights::APPLICATION {
            insights::STARTING
        } else {
            insights::RENDERING
        };
        (status, None, Some(project.to_owned()), files)
    };
    let dataset_ids = check_datasets(&state, &caller, &a.dataset_ids).await?;
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id: db::new_id(),
            app_type,
            status: status.into(),
            app_url,
            language,
            project_id,
            publish_filenames: files,
            dataset_ids,
            ..Default::default()
        },
    )
    .await?;
    create(&state, &caller, insight, "App Created Successfully").await
}

/// The template wizard: an application made from a template (cluster, slice-and-dice or
/// campaign) over datasets the caller can see. Rendered by the console; nothing to build.
#[utoipa::path(post, path = "/v2/applications/create", tag = "insights", request_body = TemplateAppRequest,
    responses(
        (status = 201, description = "App Created Successfully", body = InsightMessage),
        (status = 400, description = "Empty App name not allowed / Dataset must be selected! / Template App Type must be selected!", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn create_from_template(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<TemplateAppRequest>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let a = req.application;
    let name = required_text(&a.name, "Empty App name not allowed", "name_required", NAME_MAX)?;
    if a.dataset_ids.iter().all(|d| d.trim().is_empty()) {
        return Err(bad("dataset_required", "Dataset must be selected!"));
    }
    let template = match a.template.trim().to_lowercase().as_str() {
        t @ ("cluster" | "slice-and-dice" | "campaign") => t.to_owned(),
        _ => return Err(bad("template_required", "Template App Type must be selected!")),
    };
    let description = optional_text(&a.description, DESCRIPTION_MAX)?;
    let img_path = image_path(a.img_path.as_deref().unwrap_or_default(), &caller.user.uid)?;
    let dataset_ids = check_datasets(&state, &caller, &a.dataset_ids).await?;
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id: db::new_id(),
            app_type: insights::APPLICATION.into(),
            status: insights::RUNNING.into(),
            template: Some(template),
            is_template: true,
            language: "python".into(),
            dataset_ids,
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
async fn import_app(
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
    match a.app_type.trim().to_lowercase().as_str() {
        "" => return Err(bad("type_required", EMPTY_TYPE)),
        insights::APPLICATION => {}
        insights::REPORT | insights::USER_REPORT => {
            return Err(bad(
                "use_import_report",
                "Import a report file with POST /v1/applications/importreport",
            ));
        }
        other => {
            return Err(ApiError::bad_request(
                "invalid_type",
                format!("Unknown app type: {other} (application)"),
            ));
        }
    }
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
            app_type: insights::APPLICATION.into(),
            status: insights::EXTERNAL.into(),
            app_url: Some(url),
            language: "python".into(),
            ..Default::default()
        },
    )
    .await?;
    create(&state, &caller, insight, "App Created Successfully").await
}

fn multipart_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
            "The file is too large (limit 50 MiB)",
        )
    } else {
        ApiError::bad_request("invalid_body", format!("Invalid form: {}", e.body_text()))
    }
}

/// The stored name of an uploaded file: its last path segment with only letters, digits, `.`,
/// `-` and `_` (others become `_`), ending in `.pdf`.
pub fn report_file_name(name: Option<&str>) -> String {
    let base = name
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let mut clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    clean = clean.trim_start_matches('.').to_owned();
    if clean.is_empty() || clean.chars().all(|c| c == '_' || c == '.') {
        clean = "report".into();
    }
    if !clean.to_lowercase().ends_with(".pdf") {
        clean.push_str(".pdf");
    }
    clean
}

/// Import a PDF report (multipart form: name, description, file [, img_path]; at most 50 MiB).
/// The file is stored in the assets bucket under `reports/<insight id>/<file name>`.
#[utoipa::path(post, path = "/v1/applications/importreport", tag = "insights",
    request_body(content = ImportReportForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Report has successfully imported.", body = InsightMessage),
        (status = 400, description = "Empty name not allowed / Empty description not allowed / Attach a file / Only PDF files can be imported", body = ErrorBody),
        (status = 413, description = "The file is too large (limit 50 MiB)", body = ErrorBody),
        (status = 502, description = "The object storage or the cluster refused the report", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn import_report(
    State(state): State<AppState>,
    caller: AuthUser,
    form: std::result::Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, Json<InsightMessage>)> {
    let mut form = form.map_err(|e| {
        ApiError::bad_request(
            "invalid_body",
            format!("Expected a multipart/form-data body: {}", e.body_text()),
        )
    })?;
    let (mut name, mut description, mut img_path) = (String::new(), String::new(), String::new());
    let mut file: Option<(Option<String>, Spooled)> = None;
    while let Some(mut field) = form.next_field().await.map_err(multipart_error)? {
        match field.name().unwrap_or_default() {
            "name" => name = field.text().await.map_err(multipart_error)?,
            "description" => description = field.text().await.map_err(multipart_error)?,
            "img_path" => img_path = field.text().await.map_err(multipart_error)?,
            "file" => {
                let file_name = field.file_name().map(str::to_owned);
                file = Some((file_name, spool(&mut field).await?));
            }
            _ => {}
        }
    }
    let name = required_text(&name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = required_text(
        &description,
        EMPTY_DESCRIPTION,
        "description_required",
        DESCRIPTION_MAX,
    )?;
    let (file_name, spooled) = file
        .filter(|(_, f)| f.size > 0)
        .ok_or_else(|| bad("file_required", "Attach a file"))?;
    if !spooled.head.starts_with(b"%PDF-") {
        return Err(bad("not_a_pdf", "Only PDF files can be imported"));
    }
    let body = aws_sdk_s3::primitives::ByteStream::from_path(spooled.file.path())
        .await
        .map_err(|e| ApiError::internal(format!("failed to read the spooled report: {e}")))?;
    let img_path = image_path(&img_path, &caller.user.uid)?;
    let s3 = state
        .s3
        .clone()
        .ok_or_else(|| ApiError::unavailable("storage_not_configured", "Object storage is not configured"))?;

    let id = db::new_id();
    let key = insights::report_key(&id, &report_file_name(file_name.as_deref()));
    s3.put_object()
        .bucket(&state.settings.s3_bucket)
        .key(&key)
        .content_type("application/pdf")
        .body(body)
        .send()
        .await
        .map_err(|e| {
            tracing::error!(key, error = %aws_sdk_s3::error::DisplayErrorContext(&e), "failed to store an imported report");
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "storage_error",
                "The object storage refused the report",
            )
        })?;
    let insight = new_insight(
        &state,
        &caller,
        name,
        description,
        img_path,
        InsightRow {
            id,
            app_type: insights::USER_REPORT.into(),
            status: insights::UPLOADED.into(),
            language: "python".into(),
            report_object: Some(key.clone()),
            ..Default::default()
        },
    )
    .await?;
    let created = create(&state, &caller, insight, "Report has successfully imported.").await;
    if created.is_err()
        && let Err(e) = s3
            .delete_object()
            .bucket(&state.settings.s3_bucket)
            .key(&key)
            .send()
            .await
    {
        tracing::warn!(key, error = %aws_sdk_s3::error::DisplayErrorContext(&e), "failed to remove the file of a report that was not created");
    }
    created
}

/// An uploaded report, written to a temporary file as it arrives (never held in memory whole;
/// removed when dropped), with its size and first bytes.
struct Spooled {
    file: tempfile::NamedTempFile,
    size: usize,
    head: Vec<u8>,
}

async fn spool(field: &mut axum::extract::multipart::Field<'_>) -> Result<Spooled> {
    use tokio::io::AsyncWriteExt as _;
    let file = tempfile::Builder::new()
        .prefix("ludis-report-")
        .tempfile()
        .map_err(|e| ApiError::internal(format!("failed to make a temporary file: {e}")))?;
    let mut out = tokio::fs::File::from_std(
        file.reopen()
            .map_err(|e| ApiError::internal(format!("failed to open the temporary file: {e}")))?,
    );
    let (mut size, mut head) = (0usize, Vec::with_capacity(5));
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        size += chunk.len();
        if size > REPORT_MAX_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "file_too_large",
                "The file is too large (limit 50 MiB)",
            ));
        }
        let want = 5usize.saturating_sub(head.len()).min(chunk.len());
        head.extend_from_slice(&chunk[..want]);
        out.write_all(&chunk)
            .await
            .map_err(|e| ApiError::internal(format!("failed to spool the report: {e}")))?;
    }
    out.flush()
        .await
        .map_err(|e| ApiError::internal(format!("failed to spool the report: {e}")))?;
    Ok(Spooled { file, size, head })
}

// ---------------------------------------------------------------------------------------------
// Update and delete

/// Change an insight's name, description, image, or an external application's URL (edit).
#[utoipa::path(put, path = "/v1/applications/{id}", tag = "insights", params(("id" = String, Path, description = "Insight id")),
    request_body = UpdateInsightRequest,
    responses(
        (status = 200, description = "Application updated!", body = InsightMessage),
        (status = 400, description = "Empty name not allowed / Empty URL not allowed / …", body = ErrorBody),
        (status = 403, description = "Edit access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource (kubectl or GitOps)", body = ErrorBody),
        (status = 502, description = "The cluster refused the change", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn update_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateInsightRequest>,
) -> Result<Json<InsightMessage>> {
    let (mut insight, level) = load(&state, &caller, &id, Level::Edit).await?;
    let c = req.entity;
    if let Some(name) = &c.name {
        insight.asset.name = required_text(name, EMPTY_NAME, "name_required", NAME_MAX)?;
    }
    if let Some(description) = &c.description {
        insight.asset.description = optional_text(description, DESCRIPTION_MAX)?;
    }
    if let Some(img) = &c.img_path
        && insight.asset.img_path.as_deref().unwrap_or_default() != img.trim()
    {
        insight.asset.img_path = image_path(img, &caller.user.uid)?;
    }
    if let Some(url) = &c.app_url {
        let d = &insight.details;
        if d.status == insights::EXTERNAL {
            insight.details.app_url = Some(app_url(url)?);
        } else if !url.trim().is_empty() && d.app_url.as_deref() != Some(url.trim()) {
            return Err(bad(
                "url_not_allowed",
                "Only an external application's URL can be changed",
            ));
        }
    }
    if insight.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    insight.asset.updated_at = db::now();
    cluster::insights::apply(&state, &insight, None)
        .await
        .map_err(cluster_error)?;
    insights::update(&state.db, &insight).await?;
    record(&state, &caller, &insight.asset, "updated").await;
    answer(&state, &caller, &id, level, "Application updated!").await
}

/// Delete an insight (edit): unpins it for everyone, deletes its resource, its shares, views
/// and comments.
#[utoipa::path(delete, path = "/v1/applications/{id}", tag = "insights", params(("id" = String, Path, description = "Insight id")),
    responses(
        (status = 200, description = "App Deleted!", body = Done),
        (status = 403, description = "Edit access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource (kubectl or GitOps)", body = ErrorBody),
        (status = 502, description = "The cluster refused the deletion", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn delete_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (insight, _) = load(&state, &caller, &id, Level::Edit).await?;
    if insight.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    cluster::insights::delete(&state, &insight)
        .await
        .map_err(cluster_error)?;
    assets::delete(&state.db, &id).await?;
    if let (Some(s3), Some(key)) = (&state.s3, &insight.details.report_object)
        && insights::is_own_report_object(&id, key)
        && let Err(e) = s3
            .delete_object()
            .bucket(&state.settings.s3_bucket)
            .key(key)
            .send()
            .await
    {
        tracing::warn!(key, error = %aws_sdk_s3::error::DisplayErrorContext(&e), "failed to remove a deleted report's file");
    }
    record(&state, &caller, &insight.asset, "deleted").await;
    Ok(Done::new("App Deleted!"))
}

// ---------------------------------------------------------------------------------------------
// Run switch

/// Whether the run switch applies: applications only, never external ones.
fn check_runnable(d: &InsightRow) -> Result<()> {
    if d.status == insights::EXTERNAL {
        return Err(bad("external_application", EXTERNAL_NO_RUN));
    }
    if d.app_type != insights::APPLICATION {
        return Err(bad("not_an_application", ONLY_APPLICATIONS_RUN));
    }
    Ok(())
}

async fn set_running(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    running: bool,
) -> Result<Json<InsightMessage>> {
    let (insight, level) = load(state, caller, id, Level::Execute).await?;
    check_runnable(&insight.details)?;
    cluster::insights::set_running(state, &insight, running)
        .await
        .map_err(cluster_error)?;
    let (status, action, message) = if running {
        (insights::STARTING, "restarted", "Application restarted")
    } else {
        (insights::STOPPED, "stopped", "Application stopped")
    };
    insights::set_status(&state.db, id, status, db::now()).await?;
    record(state, caller, &insight.asset, action).await;
    answer(state, caller, id, level, message).await
}

fn application_id(req: &RunRequest) -> Result<&str> {
    let id = req.application_id.trim();
    if id.is_empty() {
        return Err(bad("application_id_required", "application_id is required"));
    }
    Ok(id)
}

/// Stop a running application (execute; never an external one). The status is `stopped` at once.
#[utoipa::path(post, path = "/v1/applications/stop", tag = "insights", request_body = RunRequest,
    responses(
        (status = 200, description = "Application stopped", body = InsightMessage),
        (status = 400, description = "An external application cannot be stopped or restarted / Only applications can be stopped or restarted", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the change", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn stop_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<RunRequest>,
) -> Result<Json<InsightMessage>> {
    set_running(&state, &caller, application_id(&req)?, false).await
}

/// Start a stopped application again (execute; never an external one). The status is
/// `starting` at once; the operator reports `running` when it is.
#[utoipa::path(post, path = "/v1/applications/restart", tag = "insights", request_body = RunRequest,
    responses(
        (status = 200, description = "Application restarted", body = InsightMessage),
        (status = 400, description = "An external application cannot be stopped or restarted / Only applications can be stopped or restarted", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the change", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn restart_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<RunRequest>,
) -> Result<Json<InsightMessage>> {
    set_running(&state, &caller, application_id(&req)?, true).await
}

/// Redeploy an application (rolls it) or re-render a report (execute).
#[utoipa::path(post, path = "/v2/applications/redeploy/{id}", tag = "insights", params(("id" = String, Path, description = "Insight id")),
    responses(
        (status = 200, description = "Application redeployed", body = InsightMessage),
        (status = 400, description = "Only applications and reports that run in the cluster can be redeployed", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the change", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn redeploy_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<InsightMessage>> {
    let (insight, level) = load(&state, &caller, &id, Level::Execute).await?;
    let d = &insight.details;
    let status = if d.app_type == insights::REPORT {
        insights::RENDERING
    } else if d.app_type == insights::APPLICATION && d.container_name.is_some() {
        insights::STARTING
    } else {
        return Err(bad("nothing_to_redeploy", NOTHING_TO_REDEPLOY));
    };
    cluster::insights::redeploy(&state, &insight)
        .await
        .map_err(cluster_error)?;
    insights::set_status(&state.db, &id, status, db::now()).await?;
    record(&state, &caller, &insight.asset, "redeployed").await;
    answer(&state, &caller, &id, level, "Application redeployed").await
}

// ---------------------------------------------------------------------------------------------
// Pins

/// The caller's pinned insights, newest pin first (only ones they still see).
#[utoipa::path(get, path = "/v1/applications/pin/list", tag = "insights",
    responses((status = 200, body = PinList)),
    security(("bearer" = []), ("api_key" = [])))]
async fn list_pins(State(state): State<AppState>, caller: AuthUser) -> Result<Json<PinList>> {
    let ids = pins::ids_for_user(&state.db, &caller.user.uid, KIND_APPLICATION).await?;
    let mut visible = Vec::with_capacity(ids.len());
    for id in ids {
        let Some(insight) = insights::by_id(&state.db, &id).await? else {
            continue;
        };
        let level = access::level(&state, &caller.user, &insight.asset).await?;
        if level != Level::None {
            visible.push((insight, level));
        }
    }
    let owners = owners(&state, visible.iter().map(|(i, _)| &i.asset)).await?;
    let mut applications = Vec::with_capacity(visible.len());
    for (insight, level) in visible {
        let owner = insight.asset.owner_uid.as_ref().and_then(|u| owners.get(u));
        applications.push(
            InsightView::new(&insight, level, true, &caller.user.uid, owner)
                .with_img_url(&state)
                .await,
        );
    }
    Ok(Json(PinList {
        success: true,
        applications,
    }))
}

/// Pin or unpin an insight for oneself (view access).
#[utoipa::path(post, path = "/v1/applications/pin", tag = "insights", request_body = PinRequest,
    responses(
        (status = 200, body = PinResponse),
        (status = 400, description = "app_id is required", body = ErrorBody),
        (status = 403, description = "Pins are personal: user_id must be the caller", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
async fn pin_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<PinRequest>,
) -> Result<Json<PinResponse>> {
    let p = req.app_pin;
    let app_id = p.app_id.trim();
    if app_id.is_empty() {
        return Err(bad("app_id_required", "app_id is required"));
    }
    if p.user_id
        .as_deref()
        .map(str::trim)
        .is_some_and(|u| !u.is_empty() && u != caller.user.uid)
    {
        return Err(ApiError::forbidden(
            "pin_self_only",
            "Pins are personal: you can only pin for yourself",
        ));
    }
    access::require(&state, &caller.user, KIND_APPLICATION, app_id, Level::View).await?;
    pins::set(&state.db, &caller.user.uid, app_id, p.pinned, db::now()).await?;
    Ok(Json(PinResponse {
        success: true,
        application_pin_info: PinInfo {
            app_id: app_id.to_owned(),
            user_id: caller.user.uid.clone(),
            pinned: p.pinned,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_http_with_a_host() {
        for (url, ok) in [
            ("https://example.com", true),
            ("http://example.com:8080/x?y=1", true),
            ("ftp://example.com", false),
            ("https://", false),
            ("https:// example.com", false),
            ("example.com", false),
            ("javascript:alert(1)", false),
        ] {
            assert_eq!(valid_url(url), ok, "{url}");
        }
    }

    #[test]
    fn images_are_default_ones_or_the_callers_uploads() {
        assert!(
            image_path("/v1/images/defaults/insight-01.svg", "u1")
                .unwrap()
                .is_some()
        );
        assert!(image_path("/v1/images/defaults/nope.svg", "u1").is_err());
        assert!(image_path("user asset images/u1/x.png", "u1").is_ok());
        assert!(image_path("user asset images/u2/x.png", "u1").is_err());
        assert!(image_path("user asset images/u1/../u2/x.png", "u1").is_err());
        assert!(image_path("reports/abc/secret.pdf", "u1").is_err());
        assert_eq!(image_path("  ", "u1").unwrap(), None);
    }

    #[test]
    fn report_file_names_are_safe() {
        assert_eq!(report_file_name(Some("Q3 report.pdf")), "Q3_report.pdf");
        assert_eq!(report_file_name(Some("../../etc/passwd")), "passwd.pdf");
        assert_eq!(report_file_name(Some("C:\\x\\a.PDF")), "a.PDF");
        assert_eq!(report_file_name(None), "report.pdf");
        assert_eq!(report_file_name(Some("...")), "report.pdf");
    }
}
