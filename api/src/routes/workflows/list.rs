//! The workflows table (spec 001 §2 "Workflows"): every workflow the caller sees, with filters,
//! search and pages; and `workflowdata`, the rows of some workflows by id.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::view::{WorkflowView, views};
use crate::{
    assets,
    auth::AuthUser,
    db::{
        self,
        assets::{ListQuery, SortBy},
        details,
        workflows::{Workflow, WorkflowRow},
    },
    domain::{AccessLevel, AssetKind},
    error::{ApiError, AppJson, AppQuery, ErrorBody, Result},
    state::AppState,
};

/// Ids one `workflowdata` call may name.
const DATA_MAX: usize = 100;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowsQuery {
    /// all (default), owned or shared.
    pub filter: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(alias = "page_size", alias = "limit")]
    pub page_size: Option<i64>,
    /// Part of the name.
    pub search: Option<String>,
    /// Only this project's workflows.
    #[serde(alias = "project_id")]
    pub project_id: Option<String>,
    /// true: only manual ones (written as DAG files).
    pub dags: Option<bool>,
}

#[derive(Serialize, ToSchema)]
pub struct WorkflowsPage {
    pub success: bool,
    pub workflows: Vec<WorkflowView>,
    pub page: i64,
    pub page_size: i64,
    pub total: i64,
    pub total_pages: i64,
}

/// Pure: the conditions on the `workflows` row of a list (`d`), with their parameters from `$100`.
fn details_filter(project_id: Option<&str>, dags: bool) -> Option<(String, Vec<String>)> {
    let mut conditions = Vec::new();
    let mut params = Vec::new();
    if let Some(p) = project_id.map(str::trim).filter(|p| !p.is_empty()) {
        conditions.push(format!("d.project_id = ${}", 100 + params.len()));
        params.push(p.to_owned());
    }
    if dags {
        conditions.push("d.visual = 0".to_owned());
    }
    (!conditions.is_empty()).then(|| (conditions.join(" AND "), params))
}

/// The workflows the caller may see, newest change first: all, created by them, or shared with
/// them; one project's (`projectId`), only manual ones (`dags=true`); with search and pages.
#[utoipa::path(get, path = "/v2/workflows", tag = "workflows", params(WorkflowsQuery),
    responses((status = 200, body = WorkflowsPage), (status = 400, description = "Unknown filter", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_workflows(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<WorkflowsQuery>,
) -> Result<Json<WorkflowsPage>> {
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(20).clamp(1, 100);
    let query = ListQuery {
        kind: AssetKind::Workflow,
        filter: crate::routes::projects::parse_filter(q.filter.as_deref())?,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details: details_filter(q.project_id.as_deref(), q.dags.unwrap_or(false)),
    };
    let (listed, total) = db::assets::list(&state.db, assets::viewer(&caller.user), &query).await?;
    let items: Vec<(Workflow, AccessLevel)> = details::of_listed::<WorkflowRow>(&state.db, listed)
        .await?
        .into_iter()
        .map(|(w, level, _)| (w, level))
        .collect();
    Ok(Json(WorkflowsPage {
        success: true,
        workflows: views(&state, &caller, &items).await?,
        page,
        page_size,
        total,
        total_pages: (total + page_size - 1) / page_size,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct WorkflowDataRequest {
    /// At most 100.
    pub workflow_ids: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct WorkflowsAnswer {
    pub success: bool,
    pub workflows: Vec<WorkflowView>,
}

/// The rows of some workflows: those the caller may see, in the order asked (others are left
/// out, as if they did not exist).
#[utoipa::path(post, path = "/v2/workflows/workflowdata/", tag = "workflows", request_body = WorkflowDataRequest,
    responses((status = 200, body = WorkflowsAnswer), (status = 400, description = "More than 100 ids", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn workflow_data(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<WorkflowDataRequest>,
) -> Result<Json<WorkflowsAnswer>> {
    if req.workflow_ids.len() > DATA_MAX {
        return Err(ApiError::bad_request(
            "too_many_ids",
            format!("At most {DATA_MAX} workflows at once"),
        ));
    }
    let mut items = Vec::new();
    for id in &req.workflow_ids {
        if let Some(w) = details::by_id::<WorkflowRow>(&state.db, id.trim()).await?
            && items
                .iter()
                .all(|(x, _): &(Workflow, AccessLevel)| x.asset.id != w.asset.id)
        {
            let level = assets::level(&state, &caller.user, &w.asset).await?;
            if level > AccessLevel::None {
                items.push((w, level));
            }
        }
    }
    Ok(Json(WorkflowsAnswer {
        success: true,
        workflows: views(&state, &caller, &items).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_filters_on_the_project_and_manual_workflows() {
        assert_eq!(details_filter(None, false), None);
        assert_eq!(
            details_filter(Some(" p1 "), true),
            Some(("d.project_id = $100 AND d.visual = 0".into(), vec!["p1".into()]))
        );
        assert_eq!(
            details_filter(Some(""), true),
            Some(("d.visual = 0".into(), vec![]))
        );
    }
}
