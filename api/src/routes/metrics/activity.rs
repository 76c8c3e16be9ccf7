//! The activity log, of every kind or of one, and the most used items of a kind.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{check_entity, period_seconds, scope};
use crate::{
    auth::AuthUser,
    db::{self, metrics},
    domain::{ActivityAction, ActivityEntity},
    error::{AppPath, AppQuery, ErrorBody, Result},
    routes::users::paging,
    state::AppState,
};

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

/// Who did what to which item.
#[derive(Serialize, ToSchema)]
pub struct ActivityRow {
    /// The kind of item acted on.
    pub entity_type: ActivityEntity,
    pub entity_id: String,
    /// The item's name at the time of the action (kept when it is renamed or deleted).
    pub entity_name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The person who did it (absent when their account is gone).
    pub email: Option<String>,
    pub action: ActivityAction,
    /// Unix seconds.
    pub date: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityPage {
    pub success: bool,
    /// The kind listed; absent for every kind.
    pub entity: Option<ActivityEntity>,
    pub rows: Vec<ActivityRow>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

/// Everything people did, of every kind, newest first, paged and searchable.
#[utoipa::path(get, path = "/v1/metrics/activities", tag = "metrics", params(ActivityQuery),
    responses((status = 200, body = ActivityPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn all_activity(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ActivityQuery>,
) -> Result<Json<ActivityPage>> {
    activity_page(&state, &caller, None, q).await.map(Json)
}

/// The activity log of one entity kind, newest first, paged and searchable.
#[utoipa::path(get, path = "/v1/metrics/{entity}", tag = "metrics",
    params(("entity" = String, Path, description = "applications, projects, datasets, workflows, users, organizations or flighting"), ActivityQuery),
    responses((status = 200, body = ActivityPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn entity_activity(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(entity): AppPath<String>,
    AppQuery(q): AppQuery<ActivityQuery>,
) -> Result<Json<ActivityPage>> {
    let entity = check_entity(&entity)?;
    activity_page(&state, &caller, Some(entity), q).await.map(Json)
}

async fn activity_page(
    state: &AppState,
    caller: &AuthUser,
    entity: Option<ActivityEntity>,
    q: ActivityQuery,
) -> Result<ActivityPage> {
    let (_, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(state, caller, q.organization_id).await?.unwrap_or_default();
    let (page, limit, offset) = paging(q.page, q.limit, 10);
    let pattern = q
        .search_term
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(db::like_pattern)
        .unwrap_or_default();
    let filter = metrics::EntryFilter {
        entity_type: entity,
        from: db::now() - secs,
        organization_id: &org,
        pattern: &pattern,
    };
    let (entries, total) = metrics::entries(&state.db, &filter, limit, offset).await?;
    let rows = entries
        .into_iter()
        .map(|e| ActivityRow {
            entity_type: e.entity_type,
            entity_id: e.entity_id,
            entity_name: e.entity_name,
            first_name: e.first_name,
            last_name: e.last_name,
            email: e.email,
            action: e.action,
            date: e.at,
        })
        .collect();
    Ok(ActivityPage {
        success: true,
        entity,
        rows,
        total,
        page,
        limit,
    })
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
pub(super) async fn entity_usage(
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
