//! One workflow, create, update (name and e-mail settings), the Active toggle, delete, share.

use axum::{Json, extract::State, http::StatusCode};
use ludis_git::{CommitMessage, Expected, FileCommit, RepoPath};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    EMPTY_NAME, NEED_EDIT, NEED_EXECUTE, NO_PROJECT, load, load_own,
    view::{WorkflowView, view},
};
use crate::{
    assets,
    auth::AuthUser,
    cluster,
    db::{
        self,
        activity::Activity,
        assets::AssetRow,
        details,
        projects::{Project, ProjectRow},
        workflows::{Workflow, WorkflowRow},
    },
    domain::{AccessLevel, ActivityAction, AssetKind, EmailOn, EntityType},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    projects::git::{self, git_error},
    routes::shares,
    state::AppState,
    views::{Done, valid_email},
    workflows::{schedule, starter},
};

const NAME_MAX: usize = 128;
/// Recipients of the notification e-mails (the resource's limit).
const EMAILS_MAX: usize = 50;

/// Pure: a workflow name (spec 001 §5): 1 to 128 characters, no control characters.
pub fn workflow_name(value: &str) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(ApiError::bad_request("name_required", EMPTY_NAME));
    }
    if v.chars().count() > NAME_MAX {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {NAME_MAX} characters are allowed"),
        ));
    }
    if v.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "invalid_name",
            "A workflow name is one line of text",
        ));
    }
    Ok(v.to_owned())
}

/// Pure: the recipients of the notification e-mails: trimmed, without repeats, each valid.
pub fn email_list(list: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for e in list.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
        if !valid_email(e) {
            return Err(ApiError::bad_request(
                "invalid_email",
                format!("Email is invalid! ({e})"),
            ));
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(e)) {
            out.push(e.to_owned());
        }
    }
    if out.len() > EMAILS_MAX {
        return Err(ApiError::bad_request(
            "too_many_emails",
            format!("At most {EMAILS_MAX} recipients"),
        ));
    }
    Ok(out)
}

#[derive(Serialize, ToSchema)]
pub struct WorkflowAnswer {
    pub success: bool,
    pub workflow: WorkflowView,
}

/// One workflow (view access).
#[utoipa::path(get, path = "/v2/workflows/{id}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id")),
    responses((status = 200, body = WorkflowAnswer), (status = 404, description = "Workflow not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn workflow_details(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<WorkflowAnswer>> {
    let (w, level) = load(&state, &caller, &id, AccessLevel::View, NEED_EDIT).await?;
    Ok(Json(WorkflowAnswer {
        success: true,
        workflow: view(&state, &caller, w, level).await?,
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewWorkflow {
    /// The project whose code the tasks run (execute access needed).
    pub project_id: String,
    pub name: String,
    /// A five-field UTC cron, or 'None' (default).
    pub schedule: Option<String>,
    /// Drawn in the designer (true) or written as a DAG file (false).
    #[schema(required)]
    pub visual_workflow: bool,
}

#[derive(Serialize, ToSchema)]
pub struct WorkflowMessage {
    pub success: bool,
    pub message: String,
    pub workflow: WorkflowView,
}

/// Commits workflow `w`'s starter DAG file to its project as the caller (kept when one exists).
async fn commit_starter(state: &AppState, caller: &AuthUser, project: &Project, w: &Workflow) -> Result<()> {
    let file = starter::dag_file(&w.asset.id);
    let repo = git::repo(state, &caller.user, project).await?;
    let commit = FileCommit {
        path: RepoPath::file(&file).map_err(|e| ApiError::internal(format!("the DAG file's path: {e}")))?,
        content: starter::dag_source(&w.asset.id, &w.asset.name).into_bytes(),
        expected: Expected::Absent,
        message: CommitMessage::new(&format!("Add the DAG file of workflow {}", w.asset.name))
            .map_err(|e| ApiError::internal(format!("the commit message: {e}")))?,
        author: git::author(&caller.user)?,
    };
    match state.git.commit_file(&repo, commit).await {
        Ok(_) | Err(ludis_git::Error::FileExists { .. }) => Ok(()),
        Err(e) => Err(git_error(e)),
    }
}

/// Create a workflow in a project the caller may execute (they own it). A manual workflow's DAG
/// file is `{id}_dag.py`; when the caller may edit the project, a starter file is committed
/// there. Nothing is applied to the cluster before the first publish.
#[utoipa::path(post, path = "/v2/workflows", tag = "workflows", request_body = NewWorkflow,
    responses(
        (status = 201, description = "Workflow Created Successfully", body = WorkflowMessage),
        (status = 400, description = "Please select a project for the workflow to live in / Please add a workflow name / a bad schedule", body = ErrorBody),
        (status = 403, description = "You need execute or edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_workflow(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<NewWorkflow>,
) -> Result<(StatusCode, Json<WorkflowMessage>)> {
    let project_id = req.project_id.trim();
    if project_id.is_empty() {
        return Err(ApiError::bad_request("project_required", NO_PROJECT));
    }
    let (project, project_level) =
        assets::load::<ProjectRow>(&state, &caller.user, project_id, AccessLevel::Execute).await?;
    let name = workflow_name(&req.name)?;
    let cron = schedule::parse(req.schedule.as_deref().unwrap_or_default())
        .map_err(|m| ApiError::bad_request("invalid_schedule", m))?;
    let id = db::new_id();
    let mut details = WorkflowRow::new(&id, &project.asset.id, req.visual_workflow);
    details.schedule = cron;
    if !req.visual_workflow {
        details.dag_file = Some(starter::dag_file(&id));
    }
    let w = Workflow {
        asset: AssetRow {
            owner_uid: Some(caller.user.uid.clone()),
            ..AssetRow::new(
                AssetKind::Workflow,
                id.clone(),
                caller.user.organization_id.clone(),
                name,
                db::now(),
            )
        },
        details,
    };
    details::insert(&state.db, &w).await?;
    if project_level >= AccessLevel::Edit {
        if !w.details.visual
            && let Err(e) = commit_starter(&state, &caller, &project, &w).await
        {
            tracing::warn!(workflow = %id, error = %e, "failed to commit a workflow's starter DAG file");
        }
        if w.details.cron().is_some() {
            super::schedule::write_env_var(&state, &project, &w).await?;
        }
    }
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Created)
        .record(&state.db)
        .await;
    Ok((
        StatusCode::CREATED,
        Json(WorkflowMessage {
            success: true,
            message: "Workflow Created Successfully".into(),
            workflow: view(&state, &caller, w, AccessLevel::Edit).await?,
        }),
    ))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct WorkflowChanges {
    pub name: Option<String>,
    pub email_bool: Option<bool>,
    pub email_list: Option<Vec<String>>,
    pub email_on: Option<EmailOn>,
}

/// Pure: applies the e-mail settings of a request to a row.
pub fn set_email(
    d: &mut WorkflowRow,
    email_bool: Option<bool>,
    list: Option<&[String]>,
    on: Option<EmailOn>,
) -> Result<()> {
    if let Some(list) = list {
        d.email_list = email_list(list)?;
    }
    if let Some(b) = email_bool {
        d.email_bool = b;
    }
    if let Some(on) = on {
        d.email_on = on;
    }
    if d.email_bool && d.email_list.is_empty() {
        return Err(ApiError::bad_request(
            "emails_required",
            "Please add an email address to notify",
        ));
    }
    Ok(())
}

/// Change a workflow (edit access): its name and e-mail settings (the published resource's
/// notification follows).
#[utoipa::path(put, path = "/v2/workflows/{id}", tag = "workflows", request_body = WorkflowChanges,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow update successful!", body = WorkflowMessage),
        (status = 400, description = "Please add a workflow name / Email is invalid!", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_workflow(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<WorkflowChanges>,
) -> Result<Json<WorkflowMessage>> {
    let (mut w, level) = load_own(&state, &caller, &id, AccessLevel::Edit, NEED_EDIT).await?;
    if let Some(name) = &req.name {
        w.asset.name = workflow_name(name)?;
    }
    set_email(
        &mut w.details,
        req.email_bool,
        req.email_list.as_deref(),
        req.email_on,
    )?;
    if req.email_list.is_some() {
        crate::mail_recipients::check(&state, &w.asset.organization_id, &w.details.email_list).await?;
    }
    w.asset.updated_at = db::now();
    cluster::workflows::patch_settings(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &w).await?;
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(WorkflowMessage {
        success: true,
        message: "Workflow update successful!".into(),
        workflow: view(&state, &caller, w, level).await?,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct PauseRequest {
    /// true pauses the scheduled runs (the CronJob is suspended).
    pub paused: bool,
}

/// The Active toggle (execute access): pause or resume the scheduled runs.
#[utoipa::path(patch, path = "/v2/workflows/{id}", tag = "workflows", request_body = PauseRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, body = WorkflowAnswer),
        (status = 403, description = "You need execute or edit workflow access and edit project access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn pause_workflow(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PauseRequest>,
) -> Result<Json<WorkflowAnswer>> {
    let (mut w, level) = load_own(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE).await?;
    w.details.paused = req.paused;
    w.asset.updated_at = db::now();
    cluster::workflows::patch_settings(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &w).await?;
    Ok(Json(WorkflowAnswer {
        success: true,
        workflow: view(&state, &caller, w, level).await?,
    }))
}

/// Delete a workflow (edit access): its resource (its CronJob, runs and their pods go with it)
/// and its rows. The DAG file stays in the project.
#[utoipa::path(post, path = "/v2/workflows/delete/{id}", tag = "workflows",
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow deleted successfully!", body = Done),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_workflow(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (w, _) = load_own(&state, &caller, &id, AccessLevel::Edit, NEED_EDIT).await?;
    cluster::workflows::delete(&state, &w)
        .await
        .map_err(ApiError::cluster)?;
    db::assets::delete(&state.db, &w.asset.id).await?;
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Deleted)
        .record(&state.db)
        .await;
    Ok(Done::new("Workflow deleted successfully!"))
}

/// Share a workflow: `POST /v1/applications/share` for a workflow (edit access).
#[utoipa::path(post, path = "/v2/workflows/share", tag = "workflows", request_body = shares::ShareRequest,
    responses(
        (status = 200, description = "Workflow shared!", body = Done),
        (status = 400, description = "Invalid entry", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn share_workflow(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(mut req): AppJson<shares::ShareRequest>,
) -> Result<Json<Done>> {
    req.share.entity_type = EntityType::Workflow.as_str().into();
    shares::share(State(state), caller, AppJson(req)).await
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShareListQuery {
    /// The workflow's id.
    pub id: String,
}

/// Who has access to a workflow (view access): `GET /v1/shares/sharedwith/{id}` for a workflow.
#[utoipa::path(get, path = "/v2/workflows/share/list", tag = "workflows", params(ShareListQuery),
    responses(
        (status = 200, body = shares::SharedWithResponse),
        (status = 404, description = "Workflow not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn workflow_share_list(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ShareListQuery>,
) -> Result<Json<shares::SharedWithResponse>> {
    shares::shared_with(
        State(state),
        caller,
        AppPath(q.id),
        AppQuery(shares::SharedWithQuery {
            entity_type: Some(EntityType::Workflow.as_str().into()),
        }),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_recipients_are_checked() {
        assert_eq!(workflow_name("  Nightly load ").unwrap(), "Nightly load");
        assert_eq!(workflow_name(" ").unwrap_err().to_string(), EMPTY_NAME);
        assert!(workflow_name(&"x".repeat(129)).is_err());
        assert!(workflow_name("a\nb").is_err());
        assert_eq!(
            email_list(&[" a@x.io".into(), "A@x.io".into(), "".into()]).unwrap(),
            ["a@x.io"]
        );
        assert!(email_list(&["nope".into()]).is_err());
        let mut d = WorkflowRow::new("w", "p", true);
        assert!(set_email(&mut d, Some(true), None, None).is_err());
        set_email(
            &mut d,
            Some(true),
            Some(&["a@x.io".into()]),
            Some(EmailOn::Failure),
        )
        .unwrap();
        assert!(d.email_bool && d.email_on == EmailOn::Failure);
    }
}
