//! Metrics over real events: sign-ins (`login_events`) and the activity log (`activity`), for
//! administrators (their organization) and superadmins (any, or all).

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::users::paging;
use crate::{
    auth::AuthUser,
    db::{self, metrics, organizations},
    domain::{ActivityEntity, Period, Role},
    error::{ApiError, AppPath, AppQuery, ErrorBody, Result},
    policy,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(overview))
        .routes(routes!(num_logins))
        .routes(routes!(entity_activity))
        .routes(routes!(entity_usage))
}

/// The period a call names (default week), and the seconds it covers.
pub fn period_seconds(period: Option<&str>) -> Result<(Period, i64)> {
    let p = period.map(str::trim).filter(|p| !p.is_empty()).unwrap_or("week");
    let period = p.parse::<Period>().map_err(|_| {
        ApiError::bad_request("invalid_period", "Period must be one of day, week, month, year")
    })?;
    Ok((period, period.seconds()))
}

/// The organization scope of a metrics call: `Some(id)` for one organization, `None` for all
/// (superadmins only).
async fn scope(state: &AppState, caller: &AuthUser, requested: Option<String>) -> Result<Option<String>> {
    if !caller.user.role.is_admin() {
        return Err(ApiError::forbidden(
            "admin_required",
            "Only administrators can see metrics",
        ));
    }
    match requested.filter(|o| !o.is_empty()) {
        Some(o) => {
            if !policy::users::can_see_org(caller.person(), &o)
                || organizations::by_id(&state.db, &o).await?.is_none()
            {
                return Err(ApiError::not_found(
                    "organization_not_found",
                    "Organization not found",
                ));
            }
            Ok(Some(o))
        }
        None if caller.user.role == Role::Superadmin => Ok(None),
        None => Ok(Some(caller.user.organization_id.clone())),
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct OverviewQuery {
    /// day, week (default), month or year.
    pub period: Option<String>,
    pub organization_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub logins: i64,
    pub failed_logins: i64,
    /// Distinct users who signed in during the period.
    pub active_users: i64,
    pub total_users: i64,
    pub organizations: i64,
    pub activities: i64,
    pub by_entity: Vec<EntityCount>,
}

#[derive(Serialize, ToSchema)]
pub struct EntityCount {
    pub entity: ActivityEntity,
    pub count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct OverviewResponse {
    pub success: bool,
    pub period: Period,
    pub from: i64,
    pub to: i64,
    pub metrics: Overview,
}

/// Totals for a period: sign-ins, active users, users, organizations, activity by entity.
#[utoipa::path(get, path = "/v1/metrics", tag = "metrics", params(OverviewQuery),
    responses((status = 200, body = OverviewResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn overview(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<OverviewQuery>,
) -> Result<Json<OverviewResponse>> {
    let (period, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, q.organization_id).await?;
    let to = db::now();
    let from = to - secs;
    let t = metrics::totals(&state.db, &org.unwrap_or_default(), from).await?;
    Ok(Json(OverviewResponse {
        success: true,
        period,
        from,
        to,
        metrics: Overview {
            logins: t.logins,
            failed_logins: t.failed_logins,
            active_users: t.active_users,
            total_users: t.total_users,
            organizations: t.organizations,
            activities: t.activities,
            by_entity: t
                .by_entity
                .into_iter()
                .map(|(entity, count)| EntityCount { entity, count })
                .collect(),
        },
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LoginsQuery {
    pub organization: Option<String>,
    pub period: Option<String>,
    /// The organizations with the most sign-ins (default 5).
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginPoint {
    /// UTC day, YYYY-MM-DD.
    pub date: String,
    pub logins: i64,
    pub org_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoginSeries {
    pub success: bool,
    pub period: Period,
    pub logins: Vec<LoginPoint>,
}

/// Successful sign-ins per day and organization (the busiest `limit` organizations).
#[utoipa::path(get, path = "/v1/metrics/numLogins", tag = "metrics", params(LoginsQuery),
    responses((status = 200, body = LoginSeries), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn num_logins(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<LoginsQuery>,
) -> Result<Json<LoginSeries>> {
    let (period, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, q.organization).await?.unwrap_or_default();
    let limit = q.limit.unwrap_or(5).clamp(1, 100);
    let from = db::now() - secs;
    let top = metrics::busiest_organizations(&state.db, &org, from, limit).await?;
    let mut points = Vec::new();
    for (org_id, _) in top {
        let name = organizations::by_id(&state.db, &org_id)
            .await?
            .map(|o| o.name)
            .unwrap_or_else(|| "(deleted)".into());
        let rows = metrics::logins_per_day(&state.db, &org_id, from).await?;
        points.extend(rows.into_iter().map(|(date, logins)| LoginPoint {
            date,
            logins,
            org_name: name.clone(),
        }));
    }
    points.sort_by(|a, b| a.date.cmp(&b.date).then(a.org_name.cmp(&b.org_name)));
    Ok(Json(LoginSeries {
        success: true,
        period,
        logins: points,
    }))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    pub period: Option<String>,
    pub page: Option<i64>,
    /// Default 10.
    pub limit: Option<i64>,
    pub organization_id: Option<String>,
    /// Matches the entity name, the person's names or e-mail.
    pub search_term: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityRow {
    pub entity_name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub action: String,
    /// Unix seconds.
    pub date: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityPage {
    pub success: bool,
    pub entity: ActivityEntity,
    pub rows: Vec<ActivityRow>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

/// An entity the metrics answer for (404 otherwise).
fn check_entity(entity: &str) -> Result<ActivityEntity> {
    entity
        .parse::<ActivityEntity>()
        .ok()
        .filter(|e| ActivityEntity::METRICS.contains(e))
        .ok_or_else(|| {
            ApiError::not_found(
                "unknown_metrics_entity",
                format!("Unknown metrics entity: {entity}"),
            )
        })
}

/// The activity log of one entity kind, newest first, paged and searchable.
#[utoipa::path(get, path = "/v1/metrics/{entity}", tag = "metrics",
    params(("entity" = String, Path, description = "applications, projects, datasets, workflows, users, organizations or flighting"), ActivityQuery),
    responses((status = 200, body = ActivityPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn entity_activity(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(entity): AppPath<String>,
    AppQuery(q): AppQuery<ActivityQuery>,
) -> Result<Json<ActivityPage>> {
    let entity = check_entity(&entity)?;
    let (_, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, q.organization_id)
        .await?
        .unwrap_or_default();
    let (page, limit, offset) = paging(q.page, q.limit, 10);
    let from = db::now() - secs;
    let pattern = q
        .search_term
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(db::like_pattern)
        .unwrap_or_default();
    let filter = metrics::EntryFilter {
        entity_type: entity,
        from,
        organization_id: &org,
        pattern: &pattern,
    };
    let (entries, total) = metrics::entries(&state.db, &filter, limit, offset).await?;
    let rows = entries
        .into_iter()
        .map(|e| ActivityRow {
            entity_name: e.entity_name,
            first_name: e.first_name,
            last_name: e.last_name,
            email: e.email,
            action: e.action,
            date: e.at,
        })
        .collect();
    Ok(Json(ActivityPage {
        success: true,
        entity,
        rows,
        total,
        page,
        limit,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsageQuery {
    pub period: Option<String>,
    /// Default 10.
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct UsageRow {
    pub entity_id: String,
    pub entity_name: String,
    /// Activities on the entity in the period.
    pub count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct UsageResponse {
    pub success: bool,
    pub entity: ActivityEntity,
    pub usage: Vec<UsageRow>,
}

/// The most used entities of a kind in one organization.
#[utoipa::path(get, path = "/v1/metrics/{org_id}/{entity}", tag = "metrics",
    params(("org_id" = String, Path), ("entity" = String, Path, description = "applications, projects, datasets or workflows"), UsageQuery),
    responses((status = 200, body = UsageResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn entity_usage(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath((org_id, entity)): AppPath<(String, String)>,
    AppQuery(q): AppQuery<UsageQuery>,
) -> Result<Json<UsageResponse>> {
    let entity = check_entity(&entity)?;
    let (_, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, Some(org_id)).await?.unwrap_or_default();
    let limit = q.limit.unwrap_or(10).clamp(1, 100);
    let rows = metrics::most_used(&state.db, &org, entity, db::now() - secs, limit).await?;
    Ok(Json(UsageResponse {
        success: true,
        entity,
        usage: rows
            .into_iter()
            .map(|(entity_id, entity_name, count)| UsageRow {
                entity_id,
                entity_name,
                count,
            })
            .collect(),
    }))
}
