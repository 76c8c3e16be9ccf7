//! The schedule (spec 001 §4 "Schedule editor", §9): a five-field UTC cron or 'None', kept on the
//! row, in the project environment variable `LUDIS_WORKFLOW_SCHEDULE_<first 8 of the id>`
//! (encrypted like every variable, carried by the project's `<name>-env` Secret), and on the
//! resource once published.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{NEED_EXECUTE, load_own, project_to_edit};
use crate::{
    auth::AuthUser,
    cluster,
    db::{
        self,
        activity::Activity,
        details,
        projects::{self as project_rows, EnvVarRow, Project},
        workflows::Workflow,
    },
    domain::{AccessLevel, ActivityAction},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    routes::projects::sync_secret,
    state::AppState,
    workflows::schedule,
};

/// Writes the workflow's schedule into its project's environment variable (added, or changed
/// when it exists) and the project's environment Secret.
pub(super) async fn write_env_var(state: &AppState, project: &Project, w: &Workflow) -> Result<()> {
    let key = schedule::env_key(&w.asset.id);
    let value = state.auth.keyring.encrypt(&w.details.schedule);
    let now = db::now();
    let existing = project_rows::env_vars(&state.db, &project.asset.id)
        .await?
        .into_iter()
        .find(|v| v.key == key);
    match existing {
        Some(v) => project_rows::update_env_var(&state.db, &v.id, &value, now).await?,
        None => {
            let var = EnvVarRow {
                id: db::new_id(),
                project_id: project.asset.id.clone(),
                key,
                value_enc: value.clone(),
                created_at: now,
                updated_at: now,
            };
            // Added meanwhile by another request: change that one.
            if !project_rows::insert_env_var(&state.db, &var).await?
                && let Some(v) = project_rows::env_vars(&state.db, &project.asset.id)
                    .await?
                    .into_iter()
                    .find(|v| v.key == var.key)
            {
                project_rows::update_env_var(&state.db, &v.id, &value, now).await?;
            }
        }
    }
    sync_secret(state, project).await
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ScheduleRequest {
    /// A five-field UTC cron, or 'None'.
    #[schema(required)]
    pub value: String,
    /// The workflow's project (optional; another project is refused).
    pub project_id: Option<String>,
    /// The console's id of the schedule variable (not needed: the key names it).
    pub var_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ScheduleAnswer {
    pub success: bool,
    pub schedule: String,
    pub message: String,
}

/// Set the schedule (execute access on the workflow and edit on its project): the row, the
/// project's environment variable and, once published, the resource.
#[utoipa::path(post, path = "/v2/workflows/schedule/{id}", tag = "workflows", request_body = ScheduleRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Updated Schedule Successfully", body = ScheduleAnswer),
        (status = 400, description = "Not a five-field cron", body = ErrorBody),
        (status = 403, description = "You need execute or edit workflow access and edit project access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn set_schedule(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<ScheduleRequest>,
) -> Result<Json<ScheduleAnswer>> {
    let (mut w, _) = load_own(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE).await?;
    let project = project_to_edit(&state, &caller, &w).await?;
    if let Some(p) = req.project_id.as_deref().map(str::trim).filter(|p| !p.is_empty())
        && p != project.asset.id
    {
        return Err(ApiError::bad_request(
            "wrong_project",
            "The workflow does not belong to this project",
        ));
    }
    w.details.schedule =
        schedule::parse(&req.value).map_err(|m| ApiError::bad_request("invalid_schedule", m))?;
    w.asset.updated_at = db::now();
    cluster::workflows::patch_settings(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &w).await?;
    write_env_var(&state, &project, &w).await?;
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(ScheduleAnswer {
        success: true,
        schedule: w.details.schedule,
        message: "Updated Schedule Successfully".into(),
    }))
}
