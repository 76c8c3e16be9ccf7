//! The shapes the project calls answer (docs/contracts/projects-v2.md "Types"): a project as the
//! caller sees it ([`ProjectView`]) and its preview container ([`PreviewState`]).

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    auth::AuthUser,
    cluster::projects::PREVIEW_PORT,
    db::projects::Project,
    domain::{AccessLevel, Language, ProjectStatus},
    error::{ApiError, Result},
    routes::{
        apps::open_url,
        datasets::{DatasetOwner, ShareIcon},
        people::{People, display_name},
    },
    state::AppState,
    views::image_url,
};

/// One project as the caller sees it; every field is always sent (`null` when it has no value).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProjectView {
    pub id: String,
    pub name: String,
    pub description: String,
    pub language: Language,
    /// The owner's display name.
    pub author: String,
    /// The repository's owner, derived from the URL on import; null for a hosted repository.
    #[schema(required)]
    pub repo_author: Option<String>,
    /// The external HTTPS remote; null for a repository hosted by Ludis.
    #[schema(required)]
    pub repo_url: Option<String>,
    pub hosted: bool,
    pub branch: String,
    /// An id of `GET /v2/cluster/dockerimages/list`.
    pub image_id: String,
    /// An id of `GET /v2/cluster/sizes/list`; null: the list's default.
    #[schema(required)]
    pub size_id: Option<String>,
    #[schema(required)]
    pub img_path: Option<String>,
    #[schema(required)]
    pub img_url: Option<String>,
    pub dataset_ids: Vec<String>,
    /// The preview container.
    pub status: ProjectStatus,
    #[schema(required)]
    pub status_message: Option<String>,
    pub access_level: AccessLevel,
    pub is_owner: bool,
    /// Applied with kubectl or GitOps: changed there, not here.
    pub managed: bool,
    #[schema(required)]
    pub user_uid: Option<String>,
    #[schema(required)]
    pub user: Option<DatasetOwner>,
    #[serde(rename = "shareIcons")]
    pub share_icons: Vec<ShareIcon>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The preview container that logs, web view and terminal need (every field always sent).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PreviewState {
    pub running: bool,
    pub status: ProjectStatus,
    /// Why the preview failed or what it waits for, as the operator says ("waiting for a node:
    /// 0/2 nodes are available: 1 Insufficient cpu."); null otherwise.
    #[schema(required)]
    pub message: Option<String>,
    /// The entry file Run runs, when one was chosen (else the launch rule's first candidate).
    #[schema(required)]
    pub file: Option<String>,
    /// An opaque handle: the project id while a preview runs, else null (never a pod name).
    #[schema(required)]
    pub container_id: Option<String>,
    /// The preview through the authenticated app proxy; null while it does not run and for
    /// callers below execute access.
    #[schema(required)]
    pub web_url: Option<String>,
    #[schema(required)]
    pub port: Option<i32>,
    /// When the running preview stops if nobody uses it (its organization's idle time); null
    /// while it does not run, without an idle time, and for a resource-managed project (its
    /// manifest stops it).
    #[schema(required)]
    pub idle: Option<crate::idle::Shutdown>,
}

impl PreviewState {
    /// The preview of `p` as `caller` sees it at `level`: the web view (through the app proxy,
    /// with a ticket of the caller's session) for execute access while the preview runs.
    pub fn of(state: &AppState, caller: &AuthUser, p: &Project, level: AccessLevel) -> Self {
        let d = &p.details;
        let up = d.running && d.status == ProjectStatus::Running;
        let web_url = (up && d.upstream_url.is_some() && level >= AccessLevel::Execute)
            .then(|| open_url(state, &caller.user.uid, caller.session.as_deref(), &p.asset.id))
            .flatten();
        Self {
            running: d.running,
            status: d.status,
            message: d.status_message.clone(),
            file: d.run_file.clone(),
            container_id: up.then(|| p.asset.id.clone()),
            web_url,
            port: d.running.then_some(PREVIEW_PORT),
            idle: None,
        }
    }

    /// The preview of `p` with when it stops if nobody uses it ([`crate::idle`]).
    pub async fn with_shutdown(mut self, state: &AppState, p: &Project) -> Result<Self> {
        if self.running && !p.asset.is_managed() {
            self.idle = crate::idle::shutdown_of(state, &p.asset, false)
                .await
                .map_err(ApiError::internal)?;
        }
        Ok(self)
    }
}

fn one(
    p: &Project,
    level: AccessLevel,
    caller: &AuthUser,
    author: String,
    user: Option<DatasetOwner>,
    share_icons: Vec<ShareIcon>,
) -> ProjectView {
    let (a, d) = (&p.asset, &p.details);
    ProjectView {
        id: a.id.clone(),
        name: a.name.clone(),
        description: a.description.clone(),
        language: d.language,
        author,
        repo_author: d.repo_author.clone(),
        repo_url: d.repo_url.clone(),
        hosted: d.is_hosted(),
        branch: d.branch.clone(),
        image_id: d.image_id.clone(),
        size_id: d.size_id.clone(),
        img_path: a.img_path.clone(),
        img_url: None,
        dataset_ids: d.dataset_ids.clone(),
        status: d.status,
        status_message: d.status_message.clone(),
        access_level: level,
        is_owner: a.owner_uid.as_deref() == Some(caller.user.uid.as_str()),
        managed: a.is_managed(),
        user_uid: a.owner_uid.clone(),
        user,
        share_icons,
        created_at: a.created_at,
        updated_at: a.updated_at,
    }
}

/// The views of some projects (owners and share icons loaded together).
pub async fn views(
    state: &AppState,
    caller: &AuthUser,
    items: &[(Project, AccessLevel)],
) -> Result<Vec<ProjectView>> {
    let people = People::of(state, items.iter().map(|(p, _)| &p.asset)).await?;
    let mut out = Vec::with_capacity(items.len());
    for (p, level) in items {
        let author = people.owner_of(&p.asset).map(display_name).unwrap_or_default();
        let user = people.owner(state, &p.asset).await;
        let icons = people.share_icons(state, &p.asset).await;
        let mut view = one(p, *level, caller, author, user, icons);
        view.img_url = image_url(state, p.asset.img_path.as_deref()).await;
        out.push(view);
    }
    Ok(out)
}

/// The view of one project.
pub async fn view(
    state: &AppState,
    caller: &AuthUser,
    p: Project,
    level: AccessLevel,
) -> Result<ProjectView> {
    views(state, caller, &[(p, level)])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a project view went missing"))
}
