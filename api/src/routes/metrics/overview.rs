//! The overview: the figures of a period, each with its label and definition.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{period_seconds, scope};
use crate::{
    auth::AuthUser,
    db::{self, metrics},
    domain::{ActivityEntity, Figure, Period},
    error::{AppQuery, ErrorBody, Result},
    state::AppState,
};

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct OverviewQuery {
    /// day, week (default), month or year.
    pub period: Option<String>,
    pub organization_id: Option<String>,
}

/// The figures by name (see `figures` for what each counts).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub logins: i64,
    pub failed_logins: i64,
    /// Accounts that exist now and signed in during the period (never more than `totalUsers`).
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

/// A figure as the console shows it: its label, value and what it counts.
#[derive(Serialize, ToSchema)]
pub struct FigureValue {
    pub figure: Figure,
    pub label: &'static str,
    pub value: i64,
    pub definition: &'static str,
}

impl FigureValue {
    pub fn new(figure: Figure, value: i64) -> Self {
        Self {
            figure,
            label: figure.label(),
            value,
            definition: figure.definition(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct OverviewResponse {
    pub success: bool,
    pub period: Period,
    pub from: i64,
    pub to: i64,
    pub metrics: Overview,
    /// The overview's figures in the order they are read (`organizations` only across every
    /// organization), each with its label and definition.
    pub figures: Vec<FigureValue>,
}

/// The figures of a period: sign-ins, active users, users, organizations, activity by entity.
#[utoipa::path(get, path = "/v1/metrics", tag = "metrics", params(OverviewQuery),
    responses((status = 200, body = OverviewResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn overview(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<OverviewQuery>,
) -> Result<Json<OverviewResponse>> {
    let (period, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, q.organization_id).await?;
    let to = db::now();
    let from = to - secs;
    let t = metrics::totals(&state.db, org.as_deref().unwrap_or_default(), from).await?;
    let figures = Figure::overview(org.is_none())
        .into_iter()
        .filter_map(|f| Some(FigureValue::new(f, t.figure(f)?)))
        .collect();
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
        figures,
    }))
}
