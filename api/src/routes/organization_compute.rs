//! `GET /v1/organizations/{id}/compute`: the CPU-hours and memory-hours an organization's
//! workloads set aside over a period, in all, per user and per item ([`crate::compute`]), for its
//! administrators (and superadmins).

use std::collections::HashMap;

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    metrics::period_seconds,
    organizations::{admin_only, visible},
    people::display_name,
};
use crate::{
    auth::AuthUser,
    compute::{Hours, hours_of},
    db,
    domain::Period,
    error::{AppPath, AppQuery, ErrorBody, Result},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(compute_usage))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ComputeQuery {
    /// day, week (the default), month or year: the period up to now.
    pub period: Option<String>,
}

/// The hours of one user or item.
#[derive(Debug, Serialize, ToSchema)]
pub struct ComputeLine {
    /// A user's uid or an item's id; null: pods of no known owner or item.
    #[schema(required)]
    pub id: Option<String>,
    /// A user's display name or an item's name (as it was when its pods ran).
    pub name: String,
    /// An item's kind (project, application, workflow); null for users.
    #[schema(required)]
    pub kind: Option<String>,
    /// A user's e-mail (null for items, and for users no longer there).
    #[schema(required)]
    pub email: Option<String>,
    #[serde(flatten)]
    pub hours: Hours,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ComputeAnswer {
    pub success: bool,
    pub period: Period,
    /// The period's start and end (Unix seconds).
    pub from: i64,
    pub to: i64,
    /// The organization's workloads in all.
    pub total: Hours,
    /// Per owner of the items whose pods ran, most CPU-hours first.
    pub users: Vec<ComputeLine>,
    /// Per item, most CPU-hours first.
    pub items: Vec<ComputeLine>,
}

/// CPU-hours and memory-hours the organization's workloads set aside over the period, in all,
/// per user (the owner of what ran) and per item: from the pods sampled each minute as they ran
/// (what their size set aside × how long).
#[utoipa::path(get, path = "/v1/organizations/{id}/compute", tag = "organizations",
    params(("id" = String, Path), ComputeQuery),
    responses(
        (status = 200, body = ComputeAnswer),
        (status = 400, description = "Period must be one of day, week, month, year", body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = [])))]
async fn compute_usage(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<ComputeQuery>,
) -> Result<Json<ComputeAnswer>> {
    let org = visible(&state, &caller, &id).await?;
    admin_only(&caller)?;
    let (period, seconds) = period_seconds(q.period.as_deref())?;
    let to = db::now();
    let from = to - seconds;
    let runs = db::compute::overlapping(&state.db, &org.id, from, to).await?;
    let totals = hours_of(&runs, from, to);
    let mut people = HashMap::new();
    for uid in totals.users.keys().flatten() {
        if let Some(u) = db::users::by_uid(&state.db, uid).await? {
            people.insert(uid.clone(), (display_name(&u), u.email));
        }
    }
    let mut users: Vec<ComputeLine> = totals
        .users
        .into_iter()
        .map(|(uid, hours)| {
            let person = uid.as_ref().and_then(|uid| people.get(uid));
            ComputeLine {
                name: match (&uid, person) {
                    (_, Some((name, _))) => name.clone(),
                    (Some(_), None) => "A deleted user".into(),
                    (None, _) => "No known owner".into(),
                },
                email: person.map(|(_, email)| email.clone()),
                id: uid,
                kind: None,
                hours,
            }
        })
        .collect();
    let mut items: Vec<ComputeLine> = totals
        .items
        .into_iter()
        .map(|(id, item)| ComputeLine {
            name: item.name.unwrap_or_else(|| "Other pods".into()),
            id,
            kind: item.kind,
            email: None,
            hours: item.hours,
        })
        .collect();
    for lines in [&mut users, &mut items] {
        lines.sort_by(|a, b| b.hours.cpu_hours.total_cmp(&a.hours.cpu_hours));
    }
    Ok(Json(ComputeAnswer {
        success: true,
        period,
        from,
        to,
        total: totals.all,
        users,
        items,
    }))
}
