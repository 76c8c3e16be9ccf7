//! The shapes the legacy project and notebook calls answer (docs/contracts/notebooks.md
//! "Types"): a legacy project ([`LegacyProjectView`]), a notebook ([`NotebookView`]) and its
//! notebook server ([`JupyterState`]).

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    auth::AuthUser,
    cluster::projects::JUPYTER_PORT,
    db::{
        notebooks::{self as rows, NotebookRow},
        projects::Project,
    },
    domain::{AccessLevel, Language, ProjectStatus},
    error::{ApiError, Result},
    routes::{
        datasets::ShareIcon,
        people::{People, display_name},
        projects::view::PreviewState,
    },
    state::AppState,
};

/// A notebook of a legacy project.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NotebookView {
    pub id: String,
    pub name: String,
    pub description: String,
    pub project_id: String,
    /// The `.ipynb` file in the project's repository.
    pub path: String,
    /// `active`.
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
}

impl From<&NotebookRow> for NotebookView {
    fn from(n: &NotebookRow) -> Self {
        Self {
            id: n.id.clone(),
            name: n.name.clone(),
            description: n.description.clone(),
            project_id: n.project_id.clone(),
            path: n.path.clone(),
            status: n.status.clone(),
            created_at: n.created_at,
            updated_at: n.updated_at,
        }
    }
}

/// A person's name (spec 000 §3 "users (first_name, last_name)").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PersonName {
    pub first_name: String,
    pub last_name: String,
}

/// One legacy project as the caller sees it; every field is always sent.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LegacyProjectView {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Free text; by default the creator's name.
    pub author: String,
    /// Null: Ludis hosts the repository.
    #[schema(required)]
    pub repo_author: Option<String>,
    /// Default `report`.
    #[serde(rename = "type")]
    pub project_type: String,
    pub language: Language,
    /// The workspace's size in GiB.
    pub size: String,
    pub tags: Vec<String>,
    pub dataset_ids: Vec<String>,
    pub image_id: String,
    /// The notebook server.
    pub status: ProjectStatus,
    #[schema(required)]
    pub status_message: Option<String>,
    /// The notebook server's container while it runs.
    #[schema(required)]
    pub jupyter_name: Option<String>,
    pub access_level: AccessLevel,
    pub is_owner: bool,
    #[schema(required)]
    pub user_uid: Option<String>,
    #[schema(required)]
    pub user_id: Option<String>,
    #[schema(required)]
    pub owner_id: Option<String>,
    /// The owner.
    #[schema(required)]
    pub users: Option<PersonName>,
    pub notebooks: Vec<NotebookView>,
    #[serde(rename = "shareIcons")]
    pub share_icons: Vec<ShareIcon>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A legacy project's notebook server (JupyterLab).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JupyterState {
    pub running: bool,
    pub status: ProjectStatus,
    /// The port JupyterLab listens on in its container, while it runs or starts.
    #[schema(required)]
    pub dev_port: Option<i32>,
    /// JupyterLab through the app proxy, with a one-use ticket; null while it does not run and
    /// for callers below execute access.
    #[schema(required)]
    pub dev_url: Option<String>,
    /// When the running server stops if nobody uses it (its organization's idle time); null
    /// while it does not run and without an idle time.
    #[schema(required)]
    pub idle: Option<crate::idle::Shutdown>,
}

impl JupyterState {
    /// The notebook server of `p` as `caller` sees it at `level`.
    /// It is the project's preview ([`PreviewState`]), its web view JupyterLab.
    pub fn of(state: &AppState, caller: &AuthUser, p: &Project, level: AccessLevel) -> Self {
        let preview = PreviewState::of(state, caller, p, level);
        Self {
            running: preview.running,
            status: preview.status,
            dev_port: preview.running.then_some(JUPYTER_PORT),
            dev_url: preview.web_url,
            idle: None,
        }
    }

    /// The server of `p` with when it stops if nobody uses it ([`crate::idle`]).
    pub async fn with_shutdown(mut self, state: &AppState, p: &Project) -> crate::error::Result<Self> {
        if self.running {
            self.idle = crate::idle::shutdown_of(state, &p.asset, false)
                .await
                .map_err(crate::error::ApiError::internal)?;
        }
        Ok(self)
    }

    /// The address of notebook file `path` in this server (`…/lab/tree/<path>` with the ticket);
    /// notebook paths are made of letters, digits, `-`, `_` and `.` only (`ipynb::file_name`).
    pub fn notebook_url(&self, path: &str) -> Option<String> {
        let url = self.dev_url.as_deref()?;
        Some(match url.split_once('?') {
            Some((base, query)) => format!("{base}lab/tree/{path}?{query}"),
            None => format!("{url}lab/tree/{path}"),
        })
    }
}

/// The views of some legacy projects, with their notebooks.
pub async fn views(
    state: &AppState,
    caller: &AuthUser,
    items: &[(Project, AccessLevel)],
) -> Result<Vec<LegacyProjectView>> {
    let people = People::of(state, items.iter().map(|(p, _)| &p.asset)).await?;
    let ids: Vec<String> = items.iter().map(|(p, _)| p.asset.id.clone()).collect();
    let mut notebooks: BTreeMap<String, Vec<NotebookView>> = BTreeMap::new();
    for n in rows::of_projects(&state.db, &ids).await? {
        notebooks
            .entry(n.project_id.clone())
            .or_default()
            .push((&n).into());
    }
    let mut out = Vec::with_capacity(items.len());
    for (p, level) in items {
        let (a, d) = (&p.asset, &p.details);
        let owner = people.owner_of(a);
        let up = d.running && d.status != ProjectStatus::Stopped;
        out.push(LegacyProjectView {
            id: a.id.clone(),
            name: a.name.clone(),
            description: a.description.clone(),
            author: if d.author.trim().is_empty() {
                owner.map(display_name).unwrap_or_default()
            } else {
                d.author.clone()
            },
            repo_author: d.repo_author.clone(),
            project_type: d.project_type.clone(),
            language: d.language,
            size: d.size.clone(),
            tags: d.tags.clone(),
            dataset_ids: d.dataset_ids.clone(),
            image_id: d.image_id.clone(),
            status: d.status,
            status_message: d.status_message.clone(),
            jupyter_name: up
                .then(|| a.resource_name.as_ref().map(|n| format!("{n}-preview")))
                .flatten(),
            access_level: *level,
            is_owner: a.owner_uid.as_deref() == Some(caller.user.uid.as_str()),
            user_uid: a.owner_uid.clone(),
            user_id: a.owner_uid.clone(),
            owner_id: a.owner_uid.clone(),
            users: owner.map(|u| PersonName {
                first_name: u.first_name.clone(),
                last_name: u.last_name.clone(),
            }),
            notebooks: notebooks.remove(&a.id).unwrap_or_default(),
            share_icons: people.share_icons(state, a).await,
            created_at: a.created_at,
            updated_at: a.updated_at,
        });
    }
    Ok(out)
}

/// The view of one legacy project.
pub async fn view(
    state: &AppState,
    caller: &AuthUser,
    p: Project,
    level: AccessLevel,
) -> Result<LegacyProjectView> {
    views(state, caller, &[(p, level)])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a project view went missing"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notebook_opens_under_the_lab_tree_with_the_ticket() {
        let s = JupyterState {
            running: true,
            status: ProjectStatus::Running,
            dev_port: Some(8080),
            dev_url: Some("https://p1.apps.x/apps/p1/?ticket=T".into()),
            idle: None,
        };
        assert_eq!(
            s.notebook_url("Sales-review.ipynb").as_deref(),
            Some("https://p1.apps.x/apps/p1/lab/tree/Sales-review.ipynb?ticket=T")
        );
        let no_ticket = JupyterState {
            dev_url: Some("/apps/p1/".into()),
            ..s.clone()
        };
        assert_eq!(
            no_ticket.notebook_url("a.ipynb").as_deref(),
            Some("/apps/p1/lab/tree/a.ipynb")
        );
        let stopped = JupyterState { dev_url: None, ..s };
        assert_eq!(stopped.notebook_url("a.ipynb"), None);
    }
}
