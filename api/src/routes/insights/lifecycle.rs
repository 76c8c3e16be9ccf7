//! Update, delete, and the run switch of applications (stop, restart, redeploy).

use super::*;

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
pub(super) async fn update_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateInsightRequest>,
) -> Result<Json<InsightMessage>> {
    let (mut insight, level) = load(&state, &caller, &id, AccessLevel::Edit).await?;
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
        if d.status == InsightStatus::External {
            insight.details.app_url = Some(app_url(url)?);
        } else if !url.trim().is_empty() && d.app_url.as_deref() != Some(url.trim()) {
            return Err(bad(
                "url_not_allowed",
                "Only an external application's URL can be changed",
            ));
        }
    }
    if let Some(size) = &c.size_id
        && insight.details.status != InsightStatus::External
    {
        insight.details.size_id = crate::projects::sizes::chosen(&state, size).await?;
    }
    if let Some(always_on) = c.always_on {
        set_always_on(&state, &mut insight, always_on).await?;
    }
    if insight.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    insight.asset.updated_at = db::now();
    cluster::insights::apply(&state, &insight, None)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &insight).await?;
    Activity::on_asset(&caller.user, &insight.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
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
pub(super) async fn delete_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (insight, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    if insight.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    cluster::insights::delete(&state, &insight)
        .await
        .map_err(ApiError::cluster)?;
    db::assets::delete(&state.db, &id).await?;
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
    Activity::on_asset(&caller.user, &insight.asset, ActivityAction::Deleted)
        .record(&state.db)
        .await;
    Ok(Done::new("App Deleted!"))
}

/// The answer to a pin where the organization allows none.
pub const ALWAYS_ON_NOT_ALLOWED: &str =
    "Your organization does not allow always-on apps. A Ludis administrator (superadmin) can allow them.";

/// Pins `insight` always on (or unpins it): an application that runs in the cluster, where its
/// organization allows pins. A pinned app scaled to zero starts again.
async fn set_always_on(state: &AppState, insight: &mut Insight, always_on: bool) -> Result<()> {
    if always_on == insight.details.always_on {
        return Ok(());
    }
    if always_on {
        check_runnable(&insight.details)?;
        let allowed = db::organizations::by_id(&state.db, &insight.asset.organization_id)
            .await?
            .is_some_and(|o| o.allow_always_on);
        if !allowed {
            return Err(ApiError::forbidden(
                "always_on_not_allowed",
                ALWAYS_ON_NOT_ALLOWED,
            ));
        }
        if insight.details.status == InsightStatus::Idle {
            crate::idle::wake(state, &insight.asset)
                .await
                .map_err(ApiError::cluster)?;
        }
    }
    insight.details.always_on = always_on;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Run switch

/// Whether the run switch applies: applications only, never external ones.
pub(super) fn check_runnable(d: &InsightRow) -> Result<()> {
    if d.status == InsightStatus::External {
        return Err(bad("external_application", EXTERNAL_NO_RUN));
    }
    if d.app_type != AppType::Application {
        return Err(bad("not_an_application", ONLY_APPLICATIONS_RUN));
    }
    Ok(())
}

/// Refuses a start of `insight`'s pod that its organization's quota has no room for (409, saying
/// which resource and who can raise it).
pub(super) async fn check_quota(state: &AppState, insight: &Insight) -> Result<()> {
    let size = crate::cluster::quota::size_of(
        state,
        insight.details.size_id.as_deref(),
        ludis_crds::sizes::WorkloadKind::Insight,
    )
    .await?;
    crate::cluster::quota::check_room(state, insight.asset.namespace.as_deref(), &size).await
}

pub(super) async fn set_running(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    running: bool,
) -> Result<Json<InsightMessage>> {
    let (insight, level) = load(state, caller, id, AccessLevel::Execute).await?;
    check_runnable(&insight.details)?;
    if running && insight.details.status != InsightStatus::Running {
        check_quota(state, &insight).await?;
    }
    cluster::insights::set_running(state, &insight, running)
        .await
        .map_err(ApiError::cluster)?;
    if running {
        // A restart of an app scaled to zero while idle starts it now.
        crate::idle::wake(state, &insight.asset)
            .await
            .map_err(ApiError::cluster)?;
    }
    let (status, action, message) = if running {
        (
            InsightStatus::Starting,
            ActivityAction::Restarted,
            "Application restarted",
        )
    } else {
        (
            InsightStatus::Stopped,
            ActivityAction::Stopped,
            "Application stopped",
        )
    };
    insights::set_status(&state.db, id, status, db::now()).await?;
    Activity::on_asset(&caller.user, &insight.asset, action)
        .record(&state.db)
        .await;
    answer(state, caller, id, level, message).await
}

pub(super) fn application_id(req: &RunRequest) -> Result<&str> {
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
pub(super) async fn stop_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<RunRequest>,
) -> Result<Json<InsightMessage>> {
    set_running(&state, &caller, application_id(&req)?, false).await
}

/// Start a stopped application again (execute; never an external one). The status is
/// `starting` at once; the operator reports `running` when it is. With `publish_filenames`, the
/// project's files are published again into the application (edit): the new entry file at the
/// branch's head, rolled out at once.
#[utoipa::path(post, path = "/v1/applications/restart", tag = "insights", request_body = RunRequest,
    responses(
        (status = 200, description = "Application restarted", body = InsightMessage),
        (status = 400, description = "An external application cannot be stopped or restarted / Only applications can be stopped or restarted", body = ErrorBody),
        (status = 403, description = "Execute access needed", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
        (status = 502, description = "The cluster refused the change", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn restart_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<RunRequest>,
) -> Result<Json<InsightMessage>> {
    let id = application_id(&req)?;
    if req.publish_filenames.iter().any(|f| !f.trim().is_empty()) {
        return republish(&state, &caller, id, &req.publish_filenames).await;
    }
    set_running(&state, &caller, id, true).await
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
pub(super) async fn redeploy_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<InsightMessage>> {
    let (mut insight, level) = load(&state, &caller, &id, AccessLevel::Execute).await?;
    let d = &insight.details;
    let status = if d.app_type == AppType::Report {
        InsightStatus::Rendering
    } else if d.app_type == AppType::Application && d.container_name.is_some() {
        InsightStatus::Starting
    } else {
        return Err(bad("nothing_to_redeploy", NOTHING_TO_REDEPLOY));
    };
    // It runs the project's head from now on.
    move_pin(&state, &caller.user, &mut insight).await?;
    cluster::insights::redeploy(&state, &insight)
        .await
        .map_err(ApiError::cluster)?;
    insights::set_status(&state.db, &id, status, db::now()).await?;
    Activity::on_asset(&caller.user, &insight.asset, ActivityAction::Redeployed)
        .record(&state.db)
        .await;
    answer(&state, &caller, &id, level, "Application redeployed").await
}

// ---------------------------------------------------------------------------------------------
// Pins
