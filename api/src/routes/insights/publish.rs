//! Publishing a project's files as an insight pins the commit: the insight's pods check out that
//! revision into a volume of their own, so an app runs what was published, never the project's
//! live workspace. A new publication of the same insight (other files) or a redeploy moves the pin
//! to the branch's head.

use super::*;
use crate::{
    db::projects::{Project, ProjectRow},
    projects::{git::require_files, launch},
};

/// The files of a publication, checked: at least one, each relative to the project's root (the
/// first, the entry file, of a kind the launch rule runs).
pub(super) fn publication_files(names: &[String]) -> Result<Vec<String>> {
    let files: Vec<String> = names
        .iter()
        .map(|f| f.trim().to_owned())
        .filter(|f| !f.is_empty())
        .collect();
    let Some(entry) = files.first() else {
        return Err(bad("file_required", "A file must be selected"));
    };
    if files
        .iter()
        .any(|f| f.starts_with('/') || f.split('/').any(|p| p == ".."))
    {
        return Err(bad("invalid_file", "Files must be relative to the project root"));
    }
    launch::entry_file(entry)?;
    Ok(files)
}

/// The commit to pin for `files` of `project`: the branch's head, once the files are there.
pub(super) async fn pin(
    state: &AppState,
    caller: &UserRow,
    project: &Project,
    files: &[String],
) -> Result<Option<String>> {
    require_files(state, caller, project, files).await?;
    launch::head(state, caller, project).await
}

/// The project an insight was published from (whoever may change the insight moves its pin; the
/// project's repository is read with the API's own access to it).
async fn source(state: &AppState, insight: &Insight) -> Result<Option<Project>> {
    match &insight.details.project_id {
        Some(id) => Ok(db::details::by_id::<ProjectRow>(&state.db, id).await?),
        None => Ok(None),
    }
}

/// Moves a console insight's pin to its project's head (a redeploy); a resource's own insight
/// (kubectl, GitOps) keeps what its manifest says.
pub(super) async fn move_pin(state: &AppState, caller: &UserRow, insight: &mut Insight) -> Result<()> {
    if insight.asset.is_managed() {
        return Ok(());
    }
    let Some(project) = source(state, insight).await? else {
        return Ok(());
    };
    let files = insight.details.publish_filenames.clone();
    insight.details.revision = pin(state, caller, &project, &files).await?;
    insights::set_publication(
        &state.db,
        &insight.asset.id,
        &files,
        insight.details.revision.as_deref(),
    )
    .await?;
    Ok(())
}

/// Publishes `files` of the insight's project again into an existing application (edit access on
/// the insight): the new files and the head's commit, rolled out at once.
pub(super) async fn republish(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    names: &[String],
) -> Result<Json<InsightMessage>> {
    let (mut insight, level) = load(state, caller, id, AccessLevel::Edit).await?;
    check_runnable(&insight.details)?;
    if insight.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    let files = publication_files(names)?;
    let project = source(state, &insight).await?.ok_or_else(|| {
        bad(
            "not_published_from_a_project",
            "This application was not published from a project",
        )
    })?;
    insight.details.revision = pin(state, &caller.user, &project, &files).await?;
    insight.details.publish_filenames = files;
    cluster::insights::redeploy(state, &insight)
        .await
        .map_err(ApiError::cluster)?;
    let d = &insight.details;
    insights::set_publication(&state.db, id, &d.publish_filenames, d.revision.as_deref()).await?;
    insights::set_status(&state.db, id, InsightStatus::Starting, db::now()).await?;
    Activity::on_asset(&caller.user, &insight.asset, ActivityAction::Redeployed)
        .record(&state.db)
        .await;
    let message = match d.revision.as_deref() {
        Some(sha) => format!(
            "Application published: it runs {} at {}",
            d.publish_filenames[0],
            &sha[..7.min(sha.len())]
        ),
        None => format!("Application published: it runs {}", d.publish_filenames[0]),
    };
    answer(state, caller, id, level, &message).await
}
