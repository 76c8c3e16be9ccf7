//! The list of insights (filters, screens, sort, search, pages) and one insight.

use super::*;
use crate::routes::streams::workload::failure_log_for;

pub(super) fn parse_filter(v: Option<&str>) -> Result<(Filter, bool)> {
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

pub(super) fn parse_sort(by: Option<&str>, operator: Option<&str>) -> Result<(SortBy, bool)> {
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
pub(super) fn screen_types(v: Option<&str>) -> Result<Option<Vec<AppType>>> {
    match v.map(str::trim).filter(|v| !v.is_empty()).unwrap_or("Dashboard") {
        "Dashboard" | "dashboard" => Ok(None),
        "Reports" | "reports" => Ok(Some(vec![AppType::Report, AppType::UserReport])),
        "Applications" | "applications" => Ok(Some(vec![AppType::Application])),
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
pub(super) async fn list_insights(
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
        params.extend(types.iter().map(|t| t.as_str().to_owned()));
    }
    if templates {
        conditions.push("d.is_template = 1".into());
    }
    let query = ListQuery {
        kind: AssetKind::Insight,
        filter,
        sort_by,
        descending,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details: (!conditions.is_empty()).then(|| (conditions.join(" AND "), params)),
    };
    let (listed, total) = db::assets::list(&state.db, assets::viewer(&caller.user), &query).await?;
    Ok(Json(InsightsPage {
        success: true,
        applications: listed_views(&state, &caller, listed).await?,
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
pub(super) async fn get_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<InsightResponse>> {
    let (mut insight, level) = load(&state, &caller, &id, AccessLevel::View).await?;
    insight.asset.views =
        db::assets::count_view(&state.db, &id, &caller.user.uid, db::now(), VIEW_WINDOW_SECS).await?;
    let d = &insight.details;
    let report_url = match d.report_object.as_deref() {
        // Never another insight's object (a resource's spec.reportObject is checked when it is
        // mirrored; this holds for any row).
        Some(key) if d.app_type == AppType::UserReport && insights::is_own_report_object(&id, key) => {
            presign_get(&state, key).await
        }
        _ => None,
    };
    let open_url = if d.status == InsightStatus::External {
        d.app_url.clone()
    } else if d.container_name.is_some() && matches!(d.status, InsightStatus::Running | InsightStatus::Idle) {
        // An idle app opens too: its first request through the proxy starts it (and waits).
        apps::open_url(&state, &caller.user.uid, caller.session.as_deref(), &id)
    } else {
        None
    };
    let failure_log = failure_log_for(&state, &insight.asset, d.status == InsightStatus::Failed, level).await;
    Ok(Json(InsightResponse {
        success: true,
        application: view(&state, &caller, &insight, level).await?,
        report_url,
        open_url,
        open_error: apps::open_error(&state, d).map(str::to_owned),
        failure_log,
    }))
}

// ---------------------------------------------------------------------------------------------
// Create
