//! Publishing (spec 001 §4 "Publish flow", contract "Visual → tasks"): the Workflow resource is
//! applied with the visual workflow's tasks, or a manual workflow's DAG file, pinned to the
//! project's head commit (`spec.revision`). Execute access on the workflow and edit access on
//! its project.

use axum::{Json, extract::State};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::{NEED_EXECUTE, crud::WorkflowMessage, load_own, project_to_edit, view::view};
use crate::{
    assets,
    auth::AuthUser,
    cluster::{self, workflows::Work},
    db::{self, activity::Activity, details, projects::Project, workflows::Workflow},
    domain::{AccessLevel, ActivityAction, AssetKind, WorkflowStatus},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    projects::{
        git::{self, git_error},
        images,
    },
    state::AppState,
    workflows::{designer, starter},
};

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PublishVisualRequest {
    /// The workflow's project (optional; another project is refused).
    pub project_id: Option<String>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PublishManualRequest {
    pub project_id: Option<String>,
    /// `{id}_dag.py`.
    #[schema(required)]
    pub file_name: String,
    /// Other files of the project the tasks need (each must exist at the head).
    pub files: Vec<String>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request("invalid_workflow", message.into())
}

fn same_project(asked: Option<&str>, project: &Project) -> Result<()> {
    match asked.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) if p != project.asset.id => Err(ApiError::bad_request(
            "wrong_project",
            "The workflow does not belong to this project",
        )),
        _ => Ok(()),
    }
}

/// The head commit of the project's branch (400 for a project without commits).
async fn head(state: &AppState, caller: &AuthUser, project: &Project) -> Result<String> {
    let repo = git::repo(state, &caller.user, project).await?;
    state
        .git
        .head(&repo)
        .await
        .map_err(git_error)?
        .map(|sha| sha.as_str().to_owned())
        .ok_or_else(|| bad("The project has no commits yet"))
}

/// The resource name of an upload task's dataset: one the caller may edit, in the workflow's
/// namespace (the dataset's 404/403 otherwise).
async fn dataset_resource(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    namespace: Option<&str>,
) -> Result<String> {
    let (asset, _) = assets::require(state, &caller.user, AssetKind::Dataset, id, AccessLevel::Edit).await?;
    match (namespace, asset.resource()) {
        (None, _) => Ok(asset.resource_name.unwrap_or_else(|| asset.id.clone())),
        (Some(ns), Some((dns, name))) if dns == ns => Ok(name.to_owned()),
        _ => Err(bad(format!(
            "The dataset '{}' is not in this workflow's organization",
            asset.name
        ))),
    }
}

/// Gives a workflow its resource's place at its first publish.
async fn place(state: &AppState, w: &mut Workflow) -> Result<()> {
    if w.asset.resource().is_none() {
        let at = cluster::apply::placement(
            state,
            AssetKind::Workflow,
            &w.asset.organization_id,
            &w.asset.id,
            &w.asset.name,
        )
        .await
        .map_err(ApiError::cluster)?;
        w.asset = w.asset.clone().placed(at);
    }
    Ok(())
}

/// Applies the resource and records the publish.
async fn publish(
    state: &AppState,
    caller: &AuthUser,
    mut w: Workflow,
    project: &Project,
    work: Work,
    image: Option<&str>,
    revision: String,
) -> Result<Json<WorkflowMessage>> {
    if state.kube.is_some() && project.asset.resource_name.is_none() {
        return Err(bad("The project has no resource in the cluster yet"));
    }
    let before = w.clone();
    place(state, &mut w).await?;
    w.details.revision = Some(revision);
    w.details.published = true;
    w.details.status = WorkflowStatus::Initializing;
    w.details.import_error = None;
    w.asset.updated_at = db::now();
    // The rows first: the watcher, seeing the resource, finds the row already placed.
    details::update(&state.db, &w).await?;
    let project_resource = project.asset.resource_name.clone().unwrap_or_default();
    if let Err(e) = cluster::workflows::publish(state, &w, &project_resource, &work, image).await {
        if let Err(undo) = details::update(&state.db, &before).await {
            tracing::error!(workflow = %w.asset.id, error = %undo, "failed to restore a workflow whose publish the cluster refused");
        }
        return Err(ApiError::cluster(e));
    }
    Activity::on_asset(&caller.user, &w.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    let level = assets::level(state, &caller.user, &w.asset).await?;
    Ok(Json(WorkflowMessage {
        success: true,
        message: "Workflow Published Successfully".into(),
        workflow: view(state, caller, w, level).await?,
    }))
}

/// Publish a visual workflow: its nodes become the resource's tasks (an unconfigured node, a bad
/// file, two tasks of one name, a cycle are 400 naming it; an upload needs edit on its dataset),
/// every file must exist at the project's head, which the tasks are pinned to.
#[utoipa::path(post, path = "/v2/workflows/visual/publish/{id}", tag = "workflows", request_body = PublishVisualRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow Published Successfully", body = WorkflowMessage),
        (status = 400, description = "An unconfigured node, a missing file, a cycle…", body = ErrorBody),
        (status = 403, description = "You need execute or edit workflow access and edit project access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource, or another tool owns a field", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn publish_visual(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PublishVisualRequest>,
) -> Result<Json<WorkflowMessage>> {
    let (w, _) = load_own(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE).await?;
    let project = project_to_edit(&state, &caller, &w).await?;
    same_project(req.project_id.as_deref(), &project)?;
    if !w.details.visual {
        return Err(bad("This workflow is written as a DAG file: publish its file"));
    }
    let (tasks, edges) = designer::tasks(&w.details.nodes, &w.details.edges).map_err(bad)?;
    let images: Vec<String> = images::available(&state)
        .await
        .into_iter()
        .map(|i| i.id)
        .collect();
    let sizes = crate::projects::sizes::current(&state).await?;
    let namespace = match state.kube {
        Some(_) => Some(git::namespace_of(&state, &w.asset.organization_id).await?),
        None => None,
    };
    let mut files = Vec::new();
    let mut applied: Vec<Value> = Vec::with_capacity(tasks.len());
    for t in &tasks {
        files.push(t.file.clone());
        applied.push(match &t.work {
            designer::Work::Script {
                image,
                install_script,
                size,
            } => {
                if !images.contains(image) {
                    return Err(bad(format!("The task '{}': unknown image {image}", t.name)));
                }
                let mut script = json!({"file": t.file, "image": image});
                if let Some(size) = size {
                    if sizes.get(size).is_none() {
                        return Err(bad(format!("The task '{}': unknown size {size}", t.name)));
                    }
                    script["size"] = json!(size);
                }
                if let Some(s) = install_script {
                    files.push(s.clone());
                    script["installScript"] = json!(s);
                }
                json!({"name": t.name, "script": script})
            }
            designer::Work::Upload { dataset_id, destination_path } => {
                let dataset = dataset_resource(&state, &caller, dataset_id, namespace.as_deref()).await?;
                json!({"name": t.name, "upload": {"file": t.file, "dataset": dataset, "destinationPath": destination_path}})
            }
        });
    }
    git::require_files(&state, &caller.user, &project, &files).await?;
    let revision = head(&state, &caller, &project).await?;
    let work = Work::Tasks {
        tasks: applied,
        edges: edges
            .into_iter()
            .map(|(from, to)| json!({"from": from, "to": to}))
            .collect(),
    };
    publish(&state, &caller, w, &project, work, None, revision).await
}

/// Publish a manual workflow: its DAG file `{id}_dag.py` (and the other files named) must exist
/// at the project's head, which it is pinned to; the project's image parses and runs it.
#[utoipa::path(post, path = "/v2/workflows/publish/{id}", tag = "workflows", request_body = PublishManualRequest,
    params(("id" = String, Path, description = "Workflow id")),
    responses(
        (status = 200, description = "Workflow Published Successfully", body = WorkflowMessage),
        (status = 400, description = "A missing DAG file or file", body = ErrorBody),
        (status = 403, description = "You need execute or edit workflow access and edit project access", body = ErrorBody),
        (status = 404, description = "Workflow not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource, or another tool owns a field", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn publish_manual(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<PublishManualRequest>,
) -> Result<Json<WorkflowMessage>> {
    let (w, _) = load_own(&state, &caller, &id, AccessLevel::Execute, NEED_EXECUTE).await?;
    let project = project_to_edit(&state, &caller, &w).await?;
    same_project(req.project_id.as_deref(), &project)?;
    if w.details.visual {
        return Err(bad(
            "This workflow is drawn in the designer: publish it from there",
        ));
    }
    let file = starter::dag_file(&w.asset.id);
    let asked = req.file_name.trim();
    if !asked.is_empty() && asked != file {
        return Err(bad(format!("The DAG file of this workflow is '{file}'")));
    }
    let mut files = vec![file.clone()];
    files.extend(
        req.files
            .iter()
            .map(|f| f.trim().to_owned())
            .filter(|f| !f.is_empty() && *f != file),
    );
    git::require_files(&state, &caller.user, &project, &files).await?;
    let revision = head(&state, &caller, &project).await?;
    let image = project.details.image_id.clone();
    publish(
        &state,
        &caller,
        w,
        &project,
        Work::DagFile(file),
        Some(&image),
        revision,
    )
    .await
}
