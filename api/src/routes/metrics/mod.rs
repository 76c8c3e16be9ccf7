//! Metrics over real events: sign-ins (`login_events`) and the activity log (`activity`), for
//! administrators (their organization) and superadmins (any, or all). Every figure is counted by
//! one query of `db::metrics` and described by its [`Figure`](crate::domain::Figure) definition,
//! over the same period and organizations, so the overview's tiles and the Logins chart agree.

mod activity;
mod logins;
mod overview;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::AuthUser,
    db::organizations,
    domain::{ActivityEntity, Period, Role},
    error::{ApiError, Result},
    policy,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(overview::overview))
        .routes(routes!(logins::num_logins))
        .routes(routes!(activity::all_activity))
        .routes(routes!(activity::entity_activity))
        .routes(routes!(activity::entity_usage))
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
